/**
 * The third verdict, needs_review (issue 31, ADR 077), through the public entry points: the verify
 * APIs (JSON), the customer page without JavaScript (a form post with the file), the submit API,
 * the owner's /rewards page and action, the response page and the reward-issue job's own code.
 * The root's verifier is the FakeScreenshotVerifier: bytes containing 'FAKE-REVIEW' make it unsure
 * (the OCR rules that yield needs_review are tested in modules/verification/judge.test.ts and, on
 * fixture screenshots, in verification-records.test.ts).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SurveyPageData } from '#app/customer/state.ts';
import { action as rewardsAction, loader as rewardsLoader } from '#app/routes/_owner+/rewards.tsx';
import { loader as responseLoader } from '#app/routes/_analytics+/survey-analytics.responses.$responseId.tsx';
import { loader as screenshotLoader } from '#app/routes/_analytics+/survey-analytics.screenshots.$verificationId.ts';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { action as verifyScreenshot } from '#app/routes/api+/verify-screenshot.ts';
import { action as verifySocial } from '#app/routes/api+/verify-social.ts';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { ScreenshotVerification } from '../../modules/responses/entities.ts';
import { issueReward } from '../../modules/rewards/server.ts';
import { NEEDS_REVIEW_MESSAGE } from '../../modules/verification/port.ts';
import { rewardDeps } from '../../server/composition.ts';
import { connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { BASE, formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { query, SILVER_ANSWERS } from '../setup/rewards.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

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
  return `10.177.${Math.floor(ipCounter / 200) % 250}.${ipCounter % 200}`;
};

let seed = 0;
/** A distinct small PNG each call, with `marker` appended (the fake verifier reads the bytes). */
async function png(marker = ''): Promise<Buffer> {
  seed += 1;
  const image = await sharp({ create: { width: 80 + seed, height: 60, channels: 3, background: { r: (seed * 41) % 256, g: (seed * 13) % 256, b: 200 } } })
    .png()
    .toBuffer();
  return Buffer.concat([image, Buffer.from(marker)]);
}
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;

const LINK = 'https://g.page/r/crumb/review';
type VerifyBody = { isValid: boolean; rejectionReason: string | null; rejectionCode: string | null; verdict: string; message?: string; verificationId: string };

async function verifyReview(marker: string, extra: Record<string, unknown> = {}, name = 'Ana Pereira') {
  const screenshot = dataUrl(await png(marker));
  const res = await run(() =>
    verifyScreenshot({
      request: jsonRequest('/api/verify-screenshot', { businessId: shop.businessId, surveyId: shop.surveyId, platform: 'google', reviewerName: name, reviewLink: LINK, screenshot, ...extra }),
      context: app.context(nextIp()),
      params: {},
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as VerifyBody;
}

async function submit(responses: Record<string, unknown>, email: string) {
  const res = await run(() =>
    submitAction({
      request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses, customerEmail: email, customerName: 'Ana' }),
      context: app.context(nextIp()),
      params: { businessId: shop.businessId, surveyId: shop.surveyId },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { responseId: string; totalPoints: number; rewardTier: string | null; rewardChecking?: boolean };
}

const reviewAnswers = (id: string) => ({ ...SILVER_ANSWERS, review_google_screenshot: id, review_google_reviewer_name: 'Ana Pereira', review_google_review_link: LINK });
const issueJobs = async (responseId: string) => (await query(app, `select id from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId])).length;
const issuances = async (responseId: string) => (await query(app, `select id from gift_card_issuances where survey_response_id = ?`, [responseId])).length;
const holdOf = async (responseId: string) =>
  (await query<{ status: string; reasons: Array<{ code: string; detail: string; verificationId?: string }> }>(app, `select status, reasons from reward_holds where survey_response_id = ?`, [responseId]))[0];
const decide = (owner: Pick<Shop, 'jar'>, fields: Record<string, string>) => run(() => rewardsAction({ request: formRequest('/rewards', { confirmed: 'yes', ...fields }, owner.jar), context: app.context(), params: {} }));
type RewardsPage = { held: Array<{ surveyResponseId: string; reasons: Array<{ code: string; detail: string; verificationId?: string }> }> };
const rewardsPage = async (owner: Pick<Shop, 'jar'>) => (await run(() => rewardsLoader({ request: getRequest('/rewards', owner.jar), context: app.context(), params: {} }))).body as RewardsPage;

describe('the verify APIs answer the third verdict', () => {
  it('needs_review is valid for the page, says the proof will be checked, and is stored with the owner\'s reason', async () => {
    const body = await verifyReview('FAKE-REVIEW');
    expect(body).toMatchObject({ isValid: true, rejectionReason: null, rejectionCode: null, verdict: 'needs_review', message: NEEDS_REVIEW_MESSAGE });
    const row = await app.root.db.orm.em.fork().findOneOrFail(ScreenshotVerification, { id: body.verificationId });
    expect(row).toMatchObject({ isValid: true, verdict: 'needs_review', reviewCode: 'unsure_handle', rejectionCode: null });
    expect(row.reviewReason).toContain('unsure');
    // The owner's reason is not the customer's to read.
    expect(JSON.stringify(body)).not.toContain(row.reviewReason!);

    const shot = dataUrl(await png('FAKE-REVIEW'));
    const social = await run(() =>
      verifySocial({
        request: jsonRequest('/api/verify-social', { businessId: shop.businessId, surveyId: shop.surveyId, platform: 'instagram', userHandle: '@ana.pereira', verificationType: 'follow', screenshot: shot }),
        context: app.context(nextIp()),
        params: {},
      }),
    );
    expect(social.status).toBe(200);
    expect(social.body).toMatchObject({ isValid: true, verdict: 'needs_review' });
  });

  it('accepted and rejected carry their verdict too; nothing the browser sends sets it', async () => {
    expect(await verifyReview('')).toMatchObject({ isValid: true, verdict: 'accepted', rejectionCode: null });
    expect(await verifyReview('', { verdict: 'needs_review', isValid: false })).toMatchObject({ isValid: true, verdict: 'accepted' });
    const rejected = await verifyReview('FAKE-REJECT', { verdict: 'accepted', isValid: true, reviewCode: 'unsure_handle' });
    expect(rejected).toMatchObject({ isValid: false, verdict: 'rejected', rejectionCode: 'not_a_review' });
    expect(rejected).not.toHaveProperty('message');
    const review = await verifyReview('FAKE-REVIEW', { verdict: 'accepted' });
    expect(review).toMatchObject({ verdict: 'needs_review' });
    const stored = await app.root.db.orm.em.fork().find(ScreenshotVerification, { id: { $in: [rejected.verificationId, review.verificationId] } });
    expect(stored.map((r) => r.verdict).sort()).toEqual(['needs_review', 'rejected']);
  });

  it('bad input is still a 4xx with a message', async () => {
    const screenshot = dataUrl(await png('FAKE-REVIEW'));
    const res = await run(() =>
      verifyScreenshot({
        request: jsonRequest('/api/verify-screenshot', { businessId: shop.businessId, surveyId: shop.surveyId, platform: 'myspace', reviewerName: 'Ana', reviewLink: LINK, screenshot }),
        context: app.context(nextIp()),
        params: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringContaining('myspace') });
  });
});

describe('a submission whose proof needs review', () => {
  it('counts its points, holds the reward for the owner (screenshot, claim, why), and Release issues it exactly once', async () => {
    const proof = await verifyReview('FAKE-REVIEW');
    const body = await submit(reviewAnswers(proof.verificationId), 'ana.review@example.com');
    // The review's 8 points count provisionally: Silver's answers alone are 8 (see SILVER_ANSWERS).
    expect(body.totalPoints).toBeGreaterThanOrEqual(16);
    expect(body).toMatchObject({ rewardChecking: true });
    expect(await issueJobs(body.responseId)).toBe(0);
    const hold = await holdOf(body.responseId);
    expect(hold).toMatchObject({ status: 'held', reasons: [{ code: 'proof_needs_review', verificationId: proof.verificationId }] });
    expect(hold!.reasons[0]!.detail).toContain('Google review screenshot needs your review');
    expect(hold!.reasons[0]!.detail).toContain('"Ana Pereira"');
    // The job refuses a held reward even if it were run.
    const deps = rewardDeps(app.root);
    expect(await issueReward(deps, body.responseId)).toEqual({ status: 'not-eligible', reason: 'the reward is held for review' });
    expect(await issuances(body.responseId)).toBe(0);

    // The owner sees it under "Held for your review", with the screenshot it is about.
    const held = (await rewardsPage(shop)).held.find((h) => h.surveyResponseId === body.responseId);
    expect(held?.reasons).toMatchObject([{ code: 'proof_needs_review', verificationId: proof.verificationId }]);
    const image = await run(() => screenshotLoader({ request: getRequest(`/survey-analytics/screenshots/${proof.verificationId}`, shop.jar), context: app.context(), params: { verificationId: proof.verificationId } }));
    expect(image.status).toBe(200);
    // The response page labels the proof 'needs review' with the verifier's reason.
    const detail = await run(() => responseLoader({ request: getRequest(`/survey-analytics/responses/${body.responseId}`, shop.jar), context: app.context(), params: { responseId: body.responseId } }));
    const shots = (detail.body as { response: { screenshots: Array<{ verdict: string; reviewReason: string | null }> } }).response.screenshots;
    expect(shots).toMatchObject([{ verdict: 'needs_review', reviewReason: expect.stringContaining('unsure') }]);
    // Another owner can neither see nor release it.
    expect((await rewardsPage(other)).held.map((h) => h.surveyResponseId)).not.toContain(body.responseId);
    expect((await decide(other, { intent: 'release', responseId: body.responseId })).status).toBe(404);

    expect((await decide(shop, { intent: 'release', responseId: body.responseId })).status).toBe(302);
    expect((await decide(shop, { intent: 'release', responseId: body.responseId })).status).toBe(409);
    expect(await issueJobs(body.responseId)).toBe(1);
    const [first, second] = [await issueReward(deps, body.responseId), await issueReward(deps, body.responseId)];
    expect(first.status).toBe('issued');
    expect(second.status).toBe('already-issued');
    expect(await issuances(body.responseId)).toBe(1);
    const [audit] = await query<{ details: { verdicts: Array<{ verdict: string; reviewCode?: string }> } }>(app, `select details from reward_audit where survey_response_id = ? and event = 'held'`, [body.responseId]);
    expect(audit!.details.verdicts).toMatchObject([{ verdict: 'needs_review', reviewCode: 'unsure_handle' }]);
  });

  it('Reject: no card, ever', async () => {
    const proof = await verifyReview('FAKE-REVIEW');
    const body = await submit(reviewAnswers(proof.verificationId), 'ana.rejected@example.com');
    expect(body.rewardChecking).toBe(true);
    expect((await decide(shop, { intent: 'reject', responseId: body.responseId })).status).toBe(302);
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'rejected' });
    expect(await issueJobs(body.responseId)).toBe(0);
    expect(await issueReward(rewardDeps(app.root), body.responseId)).toMatchObject({ status: 'not-eligible' });
    expect(await issuances(body.responseId)).toBe(0);
  });

  it('an accepted proof is not held (the control)', async () => {
    const proof = await verifyReview('');
    const body = await submit(reviewAnswers(proof.verificationId), 'ana.accepted@example.com');
    expect(body.rewardChecking).toBeFalsy();
    expect(await holdOf(body.responseId)).toBeUndefined();
    expect(await issueJobs(body.responseId)).toBe(1);
  });

  it('without JavaScript: the upload says it will be checked, and the Thank You page says the reward is being checked', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...SILVER_ANSWERS, review_google_reviewer_name: 'Ana Pereira', review_google_review_link: LINK, customerEmail: 'ana.nojs@example.com', _section: '2', _intent: 'stay' })) form.set(k, String(v));
    form.set('file:review_google_screenshot', new File([new Uint8Array(await png('FAKE-REVIEW'))], 'review.png', { type: 'image/png' }));
    const path = `/survey/public/${shop.businessId}/${shop.surveyId}`;
    const uploaded = (await run(() => publicPage.action({ request: new Request(BASE + path, { method: 'POST', body: form }), context: app.context(nextIp()), params: { businessId: shop.businessId, surveyId: shop.surveyId } })))
      .body as SurveyPageData;
    expect(uploaded.step.states.google).toEqual({ status: 'verified', checking: true });
    const id = String(uploaded.step.answers.review_google_screenshot);
    const answers = Object.entries(uploaded.step.answers).map(([k, v]) => [k, String(v)] as [string, string]);
    // The next post (Back, without a file) carries the page's hidden '_checking:google': the block still says it will be checked.
    const back = (await run(() => publicPage.action({ request: formRequest(path, [...answers, ['_checking:google', '1'], ['_section', '2'], ['_intent', 'stay']]), context: app.context(nextIp()), params: { businessId: shop.businessId, surveyId: shop.surveyId } })))
      .body as SurveyPageData;
    expect(back.step.states.google).toEqual({ status: 'verified', checking: true });
    const fields = [...answers, ['_section', '2'], ['_intent', 'submit']] as Array<[string, string]>;
    const done = (await run(() => publicPage.action({ request: formRequest(path, fields), context: app.context(nextIp()), params: { businessId: shop.businessId, surveyId: shop.surveyId } }))).body as SurveyPageData;
    expect(done.step.done).toMatchObject({ checking: true });
    expect(JSON.stringify(done.step)).not.toMatch(/unsure|fake verifier/i);
    const [row] = await query<{ id: string }>(app, `select id from survey_responses where customer_email = 'ana.nojs@example.com'`);
    expect(await holdOf(row!.id)).toMatchObject({ status: 'held', reasons: [{ code: 'proof_needs_review', verificationId: id }] });
    expect(await issueJobs(row!.id)).toBe(0);
  });
});
