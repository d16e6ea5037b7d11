/**
 * Owners' decisions are labels (issue 31 item 2, ADR 080), through the public entry points: the
 * /rewards Release/Reject action stores the owner's verdict on the proof that needed review; the
 * response page's correction form stores one on an automatically judged proof (and issues nothing);
 * another owner gets a 404; the profile page's sharing setting (off by default); and `reward-cli
 * verifications labels export`, whose set the bench's loader reads. The fake verifier answers
 * needs_review for bytes containing 'FAKE-REVIEW'.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as rewardsAction } from '#app/routes/_owner+/rewards.tsx';
import { action as profileAction, loader as profileLoader } from '#app/routes/_owner+/profile.tsx';
import { action as responseAction, loader as responseLoader } from '#app/routes/_analytics+/survey-analytics.responses.$responseId.tsx';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { action as verifyScreenshot } from '#app/routes/api+/verify-screenshot.ts';
import { EXIT } from '../../cli/program.ts';
import { ScreenshotVerification } from '../../modules/responses/entities.ts';
import { connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { SILVER_ANSWERS } from '../setup/rewards.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { loadManifestDir, report, runAll } from '../fixtures/verification-runner.ts';
import { FakeScreenshotVerifier } from '../../adapters/verification/FakeScreenshotVerifier.ts';
import { InMemoryVerificationHistory } from '../../modules/verification/history.ts';

let app: TestApp;
type Shop = { businessId: string; surveyId: string; jar: CookieJar; email: string };
let shop: Shop;
let other: Shop;

async function openShop(name: string): Promise<Shop> {
  const owner = await signedInOwner(app, name);
  const surveyId = (await createSurvey(app, owner.jar, { selectedSocialPlatforms: ['instagram'], socialHandles: { instagram: '@crumbandco' } })).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, owner.id);
  return { businessId: owner.id, surveyId, jar: owner.jar, email: owner.email };
}

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
  shop = await openShop('Crumb & Co Bakery');
  other = await openShop('Other Owner Cafe');
});
afterAll(async () => {
  await app?.close();
});

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.178.${Math.floor(ipCounter / 200) % 250}.${ipCounter % 200}`;
};

let seed = 0;
async function png(marker = ''): Promise<Buffer> {
  seed += 1;
  const image = await sharp({ create: { width: 70 + seed, height: 50, channels: 3, background: { r: (seed * 37) % 256, g: (seed * 11) % 256, b: 90 } } })
    .png()
    .toBuffer();
  return Buffer.concat([image, Buffer.from(marker)]);
}

const LINK = 'https://g.page/r/crumb/review';

async function verifyReview(s: Shop, marker: string): Promise<string> {
  const screenshot = `data:image/png;base64,${(await png(marker)).toString('base64')}`;
  const res = await run(() =>
    verifyScreenshot({
      request: jsonRequest('/api/verify-screenshot', { businessId: s.businessId, surveyId: s.surveyId, platform: 'google', reviewerName: 'Ana Pereira', reviewLink: LINK, screenshot }),
      context: app.context(nextIp()),
      params: {},
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { verificationId: string }).verificationId;
}

async function submit(s: Shop, verificationId: string, email: string): Promise<string> {
  const responses = { ...SILVER_ANSWERS, review_google_screenshot: verificationId, review_google_reviewer_name: 'Ana Pereira', review_google_review_link: LINK };
  const res = await run(() =>
    submitAction({
      request: jsonRequest(`/api/survey/submit/${s.businessId}/${s.surveyId}`, { responses, customerEmail: email, customerName: 'Ana' }),
      context: app.context(nextIp()),
      params: { businessId: s.businessId, surveyId: s.surveyId },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { responseId: string }).responseId;
}

const row = (id: string) => app.root.db.orm.em.fork().findOneOrFail(ScreenshotVerification, { id });
const decide = (s: Shop, fields: Record<string, string>) => run(() => rewardsAction({ request: formRequest('/rewards', { confirmed: 'yes', ...fields }, s.jar), context: app.context(), params: {} }));
const correct = (s: Shop, responseId: string, fields: Record<string, string>) =>
  run(() => responseAction({ request: formRequest(`/survey-analytics/responses/${responseId}`, fields, s.jar), context: app.context(), params: { responseId } }));
const share = (s: Shop, value: string) => run(() => profileAction({ request: formRequest('/profile', { intent: 'share-labels', shareLabels: value }, s.jar), context: app.context(), params: {} }));

describe("a held reward's Release or Reject labels the proof that needed review", () => {
  it('Release stores accepted, Reject stores rejected, with who and when; another owner changes nothing', async () => {
    const released = await verifyReview(shop, 'FAKE-REVIEW');
    const releasedResponse = await submit(shop, released, 'label.release@example.com');
    const rejected = await verifyReview(shop, 'FAKE-REVIEW');
    const rejectedResponse = await submit(shop, rejected, 'label.reject@example.com');
    expect(await row(released)).toMatchObject({ verdict: 'needs_review', ownerVerdict: null, ownerDecidedAt: null });

    // Another owner: a 404, and no label.
    expect((await decide(other, { intent: 'release', responseId: releasedResponse })).status).toBe(404);
    expect((await row(released)).ownerVerdict).toBeNull();

    expect((await decide(shop, { intent: 'release', responseId: releasedResponse })).status).toBe(302);
    expect((await decide(shop, { intent: 'reject', responseId: rejectedResponse })).status).toBe(302);
    const r1 = await row(released);
    expect(r1).toMatchObject({ verdict: 'needs_review', ownerVerdict: 'accepted', ownerDecidedBy: `owner:${shop.email}`, ownerLabelSource: 'hold' });
    expect(Date.now() - r1.ownerDecidedAt!.getTime()).toBeLessThan(60_000);
    expect(await row(rejected)).toMatchObject({ verdict: 'needs_review', ownerVerdict: 'rejected', ownerDecidedBy: `owner:${shop.email}`, ownerLabelSource: 'hold' });

    // The response page shows the owner's verdict beside the checker's.
    const detail = await run(() => responseLoader({ request: getRequest(`/survey-analytics/responses/${rejectedResponse}`, shop.jar), context: app.context(), params: { responseId: rejectedResponse } }));
    expect((detail.body as { response: { screenshots: unknown[] } }).response.screenshots).toMatchObject([{ verdict: 'needs_review', ownerVerdict: 'rejected' }]);
  });
});

describe('support\'s decision through reward-cli labels too', () => {
  it('rewards review reject labels the proof rejected, by cli:{user}', async () => {
    const proof = await verifyReview(shop, 'FAKE-REVIEW');
    const responseId = await submit(shop, proof, 'label.cli@example.com');
    const res = await runCli(cliEnv(app, { SCREENSHOT_VERIFIER: 'fake', USER: 'support-sam' }), ['rewards', 'review', 'reject', responseId]);
    expect(res.code ?? 0, res.err).toBe(EXIT.ok);
    expect(await row(proof)).toMatchObject({ ownerVerdict: 'rejected', ownerLabelSource: 'hold', ownerDecidedBy: 'cli:support-sam' });
  });
});

describe("the owner's correction on the response page", () => {
  it('stores the owner verdict on an accepted proof and issues or revokes nothing; bad input is a 4xx', async () => {
    const proof = await verifyReview(shop, '');
    const responseId = await submit(shop, proof, 'label.correct@example.com');
    expect((await row(proof)).verdict).toBe('accepted');
    const jobsBefore = await app.root.db.orm.em.getConnection().execute(`select count(*)::int as n from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId]);

    const res = await correct(shop, responseId, { intent: 'label-proof', verificationId: proof, verdict: 'rejected' });
    expect(res.status).toBe(302);
    expect(await row(proof)).toMatchObject({ verdict: 'accepted', isValid: true, ownerVerdict: 'rejected', ownerDecidedBy: `owner:${shop.email}`, ownerLabelSource: 'correction' });
    const jobsAfter = await app.root.db.orm.em.getConnection().execute(`select count(*)::int as n from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId]);
    expect(jobsAfter).toEqual(jobsBefore);
    const holds = await app.root.db.orm.em.getConnection().execute(`select 1 from reward_holds where survey_response_id = ?`, [responseId]);
    expect(holds).toHaveLength(0);

    // Changing one's mind: the other verdict.
    expect((await correct(shop, responseId, { intent: 'label-proof', verificationId: proof, verdict: 'accepted' })).status).toBe(302);
    expect((await row(proof)).ownerVerdict).toBe('accepted');

    // Bad input: a 400 with a message, never a 500.
    const bad = await correct(shop, responseId, { intent: 'label-proof', verificationId: proof, verdict: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: expect.stringContaining('genuine') });
    expect((await correct(shop, responseId, { intent: 'nonsense' })).status).toBe(400);
    expect((await correct(shop, responseId, { intent: 'label-proof', verificationId: 'not-a-uuid', verdict: 'accepted' })).status).toBe(404);
    expect((await row(proof)).ownerVerdict).toBe('accepted');
  });

  it("another owner's attempt is a 404 and changes nothing; a proof of another response is a 404", async () => {
    const proof = await verifyReview(shop, '');
    const responseId = await submit(shop, proof, 'label.other@example.com');
    const attempt = await correct(other, responseId, { intent: 'label-proof', verificationId: proof, verdict: 'rejected' });
    expect(attempt.status).toBe(404);
    expect((await row(proof)).ownerVerdict).toBeNull();

    const otherProof = await verifyReview(shop, '');
    const otherResponse = await submit(shop, otherProof, 'label.other2@example.com');
    expect((await correct(shop, responseId, { intent: 'label-proof', verificationId: otherProof, verdict: 'rejected' })).status).toBe(404);
    expect((await row(otherProof)).ownerVerdict).toBeNull();
    expect((await correct(shop, otherResponse, { intent: 'label-proof', verificationId: otherProof, verdict: 'rejected' })).status).toBe(302);
  });
});

describe('sharing labelled screenshots (a per-business setting, off by default) and the export', () => {
  it('is off by default; the owner turns it on and off; bad input is a 400', async () => {
    const page = await run(() => profileLoader({ request: getRequest('/profile', other.jar), context: app.context(), params: {} }));
    expect(page.body).toMatchObject({ shareLabels: false });
    expect((await share(other, 'maybe')).status).toBe(400);
    expect((await share(other, 'on')).status).toBe(302);
    const on = await run(() => profileLoader({ request: getRequest('/profile', other.jar), context: app.context(), params: {} }));
    expect(on.body).toMatchObject({ shareLabels: true });
    expect((await share(other, 'off')).status).toBe(302);
    const off = await run(() => profileLoader({ request: getRequest('/profile', other.jar), context: app.context(), params: {} }));
    expect(off.body).toMatchObject({ shareLabels: false });
  });

  it('reward-cli verifications labels export writes only opted-in businesses\' labelled proofs, in a set the bench loads and scores', async () => {
    // `other` labels one proof but does not share; `shop` shares (its labels come from the tests above and this one).
    const otherProof = await verifyReview(other, 'FAKE-REVIEW');
    const otherResponse = await submit(other, otherProof, 'label.notshared@example.com');
    expect((await decide(other, { intent: 'release', responseId: otherResponse })).status).toBe(302);
    expect((await share(shop, 'on')).status).toBe(302);
    const labelled = await app.root.db.orm.em.fork().find(ScreenshotVerification, { businessId: shop.businessId, ownerVerdict: { $ne: null } });
    expect(labelled.length).toBeGreaterThanOrEqual(4);

    const env = cliEnv(app, { SCREENSHOT_VERIFIER: 'fake', BLOB_STORE: app.root.config.BLOB_STORE });
    const out = mkdtempSync(path.join(tmpdir(), 'labels-'));
    try {
      const today = new Date().toISOString().slice(0, 10);
      const done = await runCli(env, ['verifications', 'labels', 'export', '--since', today, '--out', out]);
      expect(done.code ?? 0, done.err).toBe(EXIT.ok);
      expect(done.out).toContain(`Wrote ${labelled.length} labelled proofs`);
      expect(done.out).toContain('Skipped 1 of businesses that do not share');
      const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { cases: Array<{ businessId: string; image: string; expected: { valid: boolean } }> };
      expect(manifest.cases).toHaveLength(labelled.length);
      expect(new Set(manifest.cases.map((c) => c.businessId))).toEqual(new Set([shop.businessId]));
      expect(readdirSync(path.join(out, 'images')).sort()).toEqual(manifest.cases.map((c) => path.basename(c.image)).sort());

      // The bench's loader reads it; the owner's verdict is the expected one.
      const cases = loadManifestDir(out);
      expect(cases).toHaveLength(labelled.length);
      const byId = new Map(labelled.map((l) => [`label-${l.id}`, l]));
      for (const c of cases) {
        expect(c.expect.isValid).toBe(byId.get(c.id)!.ownerVerdict === 'accepted');
        expect(readFileSync(c.image).length).toBeGreaterThan(0);
        expect(c).toMatchObject({ kind: 'review', platform: 'google', reviewerName: 'Ana Pereira', reviewLink: LINK, businessName: 'Crumb & Co Bakery' });
      }
      // And scores it (the fake verifier reads the stored, re-encoded copy: its marker is gone, so it accepts everything).
      const history = new InMemoryVerificationHistory();
      const scored = report(await runAll(new FakeScreenshotVerifier({ history }), history, cases));
      expect(scored.overall.total).toBe(labelled.length);
      expect(scored.genuine.total).toBe(labelled.filter((l) => l.ownerVerdict === 'accepted').length);

      // --business of a business that does not share: nothing written, its proof skipped.
      const out2 = path.join(out, 'other');
      const one = await runCli(env, ['verifications', 'labels', 'export', '--since', today, '--out', out2, '--business', other.businessId]);
      expect(one.code ?? 0, one.err).toBe(EXIT.ok);
      expect(one.out).toContain('Wrote 0 labelled proofs');
      expect(JSON.parse(readFileSync(path.join(out2, 'manifest.json'), 'utf8')).cases).toEqual([]);

      // A later --since: nothing.
      const later = await runCli(env, ['verifications', 'labels', 'export', '--since', '2099-01-01', '--out', path.join(out, 'later')]);
      expect(later.out).toContain('Wrote 0 labelled proofs');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('a bad --since or --business is a usage error with a clear message, and writes nothing', async () => {
    const env = cliEnv(app, { SCREENSHOT_VERIFIER: 'fake' });
    const out = mkdtempSync(path.join(tmpdir(), 'labels-bad-'));
    try {
      for (const since of ['2026-13-01', '2026-02-30', 'yesterday', '26-11-01']) {
        const res = await runCli(env, ['verifications', 'labels', 'export', '--since', since, '--out', out]);
        expect(res.code).toBe(EXIT.usage);
        expect(res.err).toContain('--since must be a day like 2026-11-01 (YYYY-MM-DD)');
      }
      const res = await runCli(env, ['verifications', 'labels', 'export', '--since', '2026-11-01', '--out', out, '--business', 'nope']);
      expect(res.code).toBe(EXIT.usage);
      expect(res.err).toContain('--business must be an id');
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
