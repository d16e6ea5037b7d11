/**
 * Fraud checks, held rewards and the audit trail (issue 14, ADR 050), through the public entry
 * points: the customer's submit routes (JSON and the no-JavaScript HTML page), the owner's /rewards
 * action and response page, the confirmation link, and reward-cli. Jobs are queued but no worker
 * runs unless a test starts them: each reward is driven with the job's own code where needed.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as confirmPage from '#app/routes/_customer+/reward-confirm.$token.tsx';
import { action as rewardsAction, loader as rewardsLoader } from '#app/routes/_owner+/rewards.tsx';
import { action as builderAction } from '#app/routes/_surveys+/survey-builder.tsx';
import { loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { loader as responseLoader } from '#app/routes/_analytics+/survey-analytics.responses.$responseId.tsx';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { action as verifyAction } from '#app/routes/api+/verify-screenshot.ts';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import type { SurveyPageData } from '#app/customer/state.ts';
import { issueReward } from '../../modules/rewards/server.ts';
import { rewardDeps, startRewardWorkers } from '../../server/composition.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { builderFields, createSurvey, connectSquareWithoutLocation, publishForTest, signedInOwner } from '../setup/factories.ts';
import { BASE, formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { query, SILVER_ANSWERS } from '../setup/rewards.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
});
afterAll(async () => {
  await app?.close();
});

type Shop = { businessId: string; surveyId: string; jar: CookieJar; email: string };

async function openShop(name: string, overrides: Record<string, unknown> = {}): Promise<Shop> {
  const owner = await signedInOwner(app, name);
  const surveyId = (await createSurvey(app, owner.jar, overrides)).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, owner.id);
  return { businessId: owner.id, surveyId, jar: owner.jar, email: owner.email };
}

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.140.${Math.floor(ipCounter / 200) % 250}.${ipCounter % 200}`;
};

type Submitted = { responseId: string; rewardTier: string | null; rewardChecking?: boolean; confirmEmail?: boolean };

/** A customer's submission through POST /api/survey/submit, with an optional device cookie and address. */
async function submit(shop: Shop, email: string, options: { responses?: Record<string, unknown>; device?: string; ip?: string } = {}) {
  const request = jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, { responses: options.responses ?? SILVER_ANSWERS, customerEmail: email, customerName: 'Ana' });
  if (options.device) request.headers.set('Cookie', `rl_client=${options.device}`);
  const res = await run(() => submitAction({ request, context: app.context(options.ip ?? nextIp()), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Submitted;
}

const issueJobs = async (responseId: string) => (await query(app, `select id from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId])).length;
const issuances = async (responseId: string) => (await query(app, `select id from gift_card_issuances where survey_response_id = ?`, [responseId])).length;
const holdOf = async (responseId: string) => (await query<{ status: string; reasons: Array<{ code: string }> }>(app, `select status, reasons from reward_holds where survey_response_id = ?`, [responseId]))[0];
const trail = async (responseId: string) => (await query<{ event: string; actor: string }>(app, `select event, actor from reward_audit where survey_response_id = ? order by id`, [responseId])).map((r) => `${r.event}:${r.actor}`);

/** Release / Reject as its confirm step posts it (`confirmed=yes`, issue 27 item 13). */
async function decide(shop: Pick<Shop, 'jar'>, fields: Record<string, string>) {
  return run(() => rewardsAction({ request: formRequest('/rewards', { confirmed: 'yes', ...fields }, shop.jar), context: app.context(), params: {} }));
}

type RewardsPage = { held: Array<{ surveyResponseId: string; status: string; reasons: Array<{ code: string; detail: string }>; customerEmail: string }>; pending: Array<{ surveyResponseId: string }> };
const rewardsPage = async (shop: Pick<Shop, 'jar'>) => (await run(() => rewardsLoader({ request: getRequest('/rewards', shop.jar), context: app.context(), params: {} }))).body as RewardsPage;

/** A long answer only this customer wrote (the text check compares 40+ letters). */
let unique = 0;
const ownWords = () => {
  unique += 1;
  return { ...SILVER_ANSWERS, improvement_suggestions: `Customer number ${unique} says the queue at ${unique} past nine was long but fine` };
};

describe('held rewards', () => {
  let shop: Shop;
  let other: Shop;
  beforeAll(async () => {
    shop = await openShop('Crumb & Co Bakery');
    other = await openShop('Other Owner Cafe');
  });

  it('an ordinary submission is queued, not held, and its decision is audited', async () => {
    const body = await submit(shop, 'plain@example.com', { responses: ownWords() });
    expect(body.rewardChecking).toBeUndefined();
    expect(await issueJobs(body.responseId)).toBe(1);
    expect(await holdOf(body.responseId)).toBeUndefined();
    expect(await trail(body.responseId)).toEqual(['queued:system']);
  });

  it('holds a disposable email domain: told "being checked", not issued until released, then issued exactly once', async () => {
    const body = await submit(shop, 'someone@mailinator.com', { responses: ownWords() });
    expect(body).toMatchObject({ rewardTier: 'Silver', rewardChecking: true, confirmEmail: false });
    expect(await issueJobs(body.responseId)).toBe(0);
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'held', reasons: [{ code: 'disposable_email' }] });
    // The issue job refuses a held reward even if it were run (the CLI's `rewards issue`, a stray retry).
    const deps = rewardDeps(app.root);
    expect(await issueReward(deps, body.responseId)).toEqual({ status: 'not-eligible', reason: 'the reward is held for review' });
    expect(await issuances(body.responseId)).toBe(0);

    const page = await rewardsPage(shop);
    expect(page.held.map((h) => h.surveyResponseId)).toContain(body.responseId);
    expect(page.held.find((h) => h.surveyResponseId === body.responseId)!.reasons[0]!.detail).toContain('mailinator.com');
    expect(page.pending.map((p) => p.surveyResponseId)).not.toContain(body.responseId);

    const released = await decide(shop, { intent: 'release', responseId: body.responseId });
    expect(released.status).toBe(302);
    expect(await issueJobs(body.responseId)).toBe(1);
    // Released twice: refused, still one job.
    expect((await decide(shop, { intent: 'release', responseId: body.responseId })).status).toBe(409);
    expect(await issueJobs(body.responseId)).toBe(1);

    const [first, second] = [await issueReward(deps, body.responseId), await issueReward(deps, body.responseId)];
    expect(first.status).toBe('issued');
    expect(second.status).toBe('already-issued');
    expect(await issuances(body.responseId)).toBe(1);
    expect(await trail(body.responseId)).toEqual(['held:system', `released:owner:${shop.email}`, 'issued:system']);
    expect((await rewardsPage(shop)).held.map((h) => h.surveyResponseId)).not.toContain(body.responseId);
  });

  it('a rejected reward is never issued, and cannot be released afterwards', async () => {
    const body = await submit(shop, 'another@mailinator.com', { responses: ownWords() });
    const rejected = await decide(shop, { intent: 'reject', responseId: body.responseId });
    expect(rejected.status).toBe(302);
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'rejected' });
    const deps = rewardDeps(app.root);
    expect(await issueReward(deps, body.responseId)).toEqual({ status: 'not-eligible', reason: 'the owner rejected this reward' });
    const again = await decide(shop, { intent: 'release', responseId: body.responseId });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This reward was already rejected.' });
    expect(await issueJobs(body.responseId)).toBe(0);
    expect(await issuances(body.responseId)).toBe(0);
    expect(await trail(body.responseId)).toEqual(['held:system', `rejected:owner:${shop.email}`]);
  });

  it("another owner can neither see nor release or reject a business's held reward", async () => {
    const body = await submit(shop, 'isolated@mailinator.com', { responses: ownWords() });
    expect((await rewardsPage(other)).held).toEqual([]);
    for (const intent of ['release', 'reject']) {
      const res = await decide(other, { intent, responseId: body.responseId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'That held reward was not found.' });
    }
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'held' });
    expect(await issueJobs(body.responseId)).toBe(0);
    // The response page (with its audit trail) is the owner's only.
    const foreign = await run(() => responseLoader({ request: getRequest(`/survey-analytics/responses/${body.responseId}`, other.jar), context: app.context(), params: { responseId: body.responseId } }));
    expect(foreign.status).toBe(404);
  });

  it.each([
    ['no response id', { intent: 'release' }, 400, 'Choose a held reward to release or reject.'],
    ['a response id that is not an id', { intent: 'reject', responseId: "1' or 1=1 --" }, 400, 'Choose a held reward to release or reject.'],
    ['an unknown response id', { intent: 'release', responseId: '00000000-0000-4000-8000-000000000000' }, 404, 'That held reward was not found.'],
    ['an unknown intent', { intent: 'approve-all', responseId: '00000000-0000-4000-8000-000000000000' }, 400, 'Unknown request.'],
  ])('answers bad input on Release / Reject with a clear 4xx: %s', async (_label, fields, status, message) => {
    const res = await decide(shop, fields);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
  });

  it('shows the hold and the audit trail on the response page', async () => {
    const body = await submit(shop, 'shown@mailinator.com', { responses: ownWords() });
    await decide(shop, { intent: 'reject', responseId: body.responseId });
    const res = await run(() => responseLoader({ request: getRequest(`/survey-analytics/responses/${body.responseId}`, shop.jar), context: app.context(), params: { responseId: body.responseId } }));
    expect(res.status).toBe(200);
    const data = res.body as { hold: { status: string; reasons: Array<{ code: string }> }; trail: Array<{ event: string; actor: string; details: Record<string, unknown> }> };
    expect(data.hold).toMatchObject({ status: 'rejected', reasons: [{ code: 'disposable_email' }] });
    expect(data.trail.map((e) => e.event)).toEqual(['held', 'rejected']);
    expect(data.trail[0]!.details).toMatchObject({ score: { points: 12, tier: 'Silver', rewardValueCents: 300 }, reasons: [{ code: 'disposable_email' }], verdicts: [] });
    expect(data.trail[1]!.actor).toBe(`owner:${shop.email}`);
  });
});

describe('the audit trail is append-only in the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE on reward_audit', async () => {
    const shop = await openShop('Audit Cafe');
    const body = await submit(shop, 'audited@example.com', { responses: ownWords() });
    expect(await trail(body.responseId)).toEqual(['queued:system']);
    await expect(query(app, `update reward_audit set actor = 'someone-else' where survey_response_id = ?`, [body.responseId])).rejects.toThrow(/append-only/);
    await expect(query(app, `delete from reward_audit where survey_response_id = ?`, [body.responseId])).rejects.toThrow(/append-only/);
    await expect(query(app, `truncate reward_audit`)).rejects.toThrow(/append-only/);
    expect(await trail(body.responseId)).toEqual(['queued:system']);
  });
});

describe('each fraud signal holds the reward', () => {
  it('the same review text across customers (40+ letters)', async () => {
    const shop = await openShop('Text Cafe');
    const copied = { ...SILVER_ANSWERS, improvement_suggestions: 'Honestly the best flat white in town, the staff were lovely and quick!' };
    const first = await submit(shop, 'writer@example.com', { responses: copied });
    expect(first.rewardChecking).toBeUndefined();
    // Case, spacing and punctuation do not make a copy new.
    const second = await submit(shop, 'copier@example.com', { responses: { ...copied, improvement_suggestions: 'honestly the BEST flat white in town - the staff were lovely and quick' } });
    expect(second.rewardChecking).toBe(true);
    expect(await holdOf(second.responseId)).toMatchObject({ status: 'held', reasons: [{ code: 'same_text' }] });
    expect(await issueJobs(second.responseId)).toBe(0);
  });

  it('many submissions from one device (the rl_client cookie) in a day', async () => {
    const shop = await openShop('Device Cafe');
    const device = 'AbCdEfGhIjKlMnOpQrStUv';
    const a = await submit(shop, 'dev1@example.com', { responses: ownWords(), device });
    const b = await submit(shop, 'dev2@example.com', { responses: ownWords(), device });
    expect([a.rewardChecking, b.rewardChecking]).toEqual([undefined, undefined]);
    const c = await submit(shop, 'dev3@example.com', { responses: ownWords(), device });
    expect(c.rewardChecking).toBe(true);
    expect(await holdOf(c.responseId)).toMatchObject({ reasons: [{ code: 'device_burst' }] });
    // Another device is not affected.
    const d = await submit(shop, 'dev4@example.com', { responses: ownWords(), device: 'ZZCdEfGhIjKlMnOpQrStUv' });
    expect(d.rewardChecking).toBeUndefined();
  });

  it('many submissions from one address in ten minutes: 30 pass (a busy cafe), the 31st is held', async () => {
    const shop = await openShop('Wifi Cafe');
    const ip = '10.141.0.1';
    for (let i = 0; i < 30; i++) {
      const body = await submit(shop, `wifi${i}@example.com`, { responses: ownWords(), ip });
      expect(body.rewardChecking, `submission ${i + 1}`).toBeUndefined();
    }
    const held = await submit(shop, 'wifi-last@example.com', { responses: ownWords(), ip });
    expect(held.rewardChecking).toBe(true);
    expect(await holdOf(held.responseId)).toMatchObject({ reasons: [{ code: 'ip_burst' }] });
  });

  it('the same screenshot from another customer, re-encoded (perceptual hash, not bytes)', async () => {
    const shop = await openShop('Screenshot Cafe');
    const original = await readFile(new URL('../fixtures/screenshots/google-review-ana.png', import.meta.url));
    const reencoded = await sharp(original).resize({ width: 700 }).webp({ quality: 60 }).toBuffer();
    const unrelated = await readFile(new URL('../fixtures/screenshots/google-review-jose.jpg', import.meta.url));
    const verify = async (image: Buffer, type: string, name: string) => {
      const res = await run(() =>
        verifyAction({
          request: jsonRequest('/api/verify-screenshot', {
            businessId: shop.businessId,
            surveyId: shop.surveyId,
            platform: 'google',
            reviewerName: name,
            reviewLink: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf',
            screenshot: `data:${type};base64,${image.toString('base64')}`,
          }),
          context: app.context(nextIp()),
          params: {},
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ isValid: true });
      return (res.body as { verificationId: string }).verificationId;
    };
    const answers = (id: string, name: string) => ({
      ...ownWords(),
      review_google_screenshot: id,
      review_google_reviewer_name: name,
      review_google_review_link: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf',
    });
    const first = await submit(shop, 'ana@example.com', { responses: answers(await verify(original, 'image/png', 'Ana Pereira'), 'Ana Pereira') });
    expect(first.rewardChecking, JSON.stringify(await holdOf(first.responseId))).toBeUndefined();
    const other = await submit(shop, 'jose@example.com', { responses: answers(await verify(unrelated, 'image/jpeg', 'Jose Silva'), 'Jose Silva') });
    expect(other.rewardChecking, JSON.stringify(await holdOf(other.responseId))).toBeUndefined();
    const copy = await submit(shop, 'copycat@example.com', { responses: answers(await verify(reencoded, 'image/webp', 'Copy Cat'), 'Copy Cat') });
    expect(copy.rewardChecking).toBe(true);
    expect(await holdOf(copy.responseId)).toMatchObject({ reasons: [{ code: 'similar_screenshot' }] });
    const [audit] = await query<{ details: { verdicts: Array<{ platform: string; isValid: boolean }> } }>(app, `select details from reward_audit where survey_response_id = ?`, [copy.responseId]);
    expect(audit!.details.verdicts).toMatchObject([{ platform: 'google', isValid: true }]);
  });

  it('through the HTML page too (no JavaScript): the Thank You page says the reward is being checked, and never why', async () => {
    const shop = await openShop('Html Cafe');
    const fields: Array<[string, string]> = [
      ...Object.entries(ownWords()).map(([k, v]) => [k, String(v)] as [string, string]),
      ['customerEmail', 'html@mailinator.com'],
      ['_section', '2'],
      ['_intent', 'submit'],
    ];
    const path = `/survey/public/${shop.businessId}/${shop.surveyId}`;
    const request = formRequest(path, fields);
    request.headers.set('Cookie', 'rl_client=HtMlEfGhIjKlMnOpQrStUv');
    const res = await run(() => publicPage.action({ request, context: app.context(nextIp()), params: { businessId: shop.businessId, surveyId: shop.surveyId } }));
    expect(res.status).toBe(200);
    const { step } = res.body as SurveyPageData;
    expect(step.done).toMatchObject({ tier: 'Silver', checking: true, confirmEmail: false });
    expect(step.toast?.description).toBe('Your reward will arrive by email.');
    expect(JSON.stringify(step)).not.toMatch(/disposable|fraud|suspicious/i);
    const [row] = await query<{ id: string }>(app, `select id from survey_responses where customer_email = 'html@mailinator.com'`);
    expect(await holdOf(row!.id)).toMatchObject({ status: 'held' });
    expect(await issueJobs(row!.id)).toBe(0);
  });
});

describe('email confirmation before the card (a survey setting)', () => {
  it('is a checkbox in the builder (no JavaScript needed): ticked it is saved, unticked it is off', async () => {
    const { jar } = await signedInOwner(app);
    const created = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ verifyCustomerEmail: 'on' }), jar), context: app.context(), params: {} }));
    expect(created.status).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(created.headers.get('Location')!)![1]!;
    const read = async () => (await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: app.context(), params: { id } }))).body as { verifyCustomerEmail: boolean };
    expect((await read()).verifyCustomerEmail).toBe(true);
    const saved = await run(() => builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields(), jar), context: app.context(), params: {} }));
    expect(saved.status).toBe(302);
    expect((await read()).verifyCustomerEmail).toBe(false);
  });

  it('sends a link; the card is issued once, after the click; the link works once', async () => {
    const shop = await openShop('Confirm Cafe', { verifyCustomerEmail: true });
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
    const body = await submit(shop, 'confirm.me@example.com', { responses: ownWords() });
    expect(body).toMatchObject({ rewardChecking: true, confirmEmail: true });
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'awaiting_email', reasons: [] });

    let link = '';
    await expect
      .poll(
        async () => {
          const mail = (await readOutbox(app.root)).find((m) => m.to.includes('confirm.me@example.com') && m.subject.startsWith('Confirm your email'));
          link = mail?.text.match(/https?:\/\/\S+\/reward-confirm\/[A-Za-z0-9_-]+/)?.[0] ?? '';
          return link;
        },
        { timeout: 30_000, interval: 250 },
      )
      .not.toBe('');
    expect(await issuances(body.responseId)).toBe(0);

    const token = link.split('/').pop()!;
    // No secret in the job table (issue 25): the payload names the response only, and the token is
    // nowhere in pg-boss's rows; the hold keeps its hash.
    const jobs = await query<{ data: Record<string, unknown> }>(app, `select data from pgboss.job where name = 'reward-confirm-email' and data->>'responseId' = ?`, [body.responseId]);
    expect(jobs.map((j) => j.data)).toEqual([{ responseId: body.responseId }]);
    expect(await query(app, `select 1 from pgboss.job where data::text like ?`, [`%${token}%`])).toEqual([]);
    expect(await query(app, `select 1 from reward_holds where email_token_hash = encode(sha256(convert_to(?, 'UTF8')), 'hex')`, [token])).toHaveLength(1);
    // GET changes nothing (mail scanners open links).
    await run(() => confirmPage.loader({ request: getRequest(`/reward-confirm/${token}`), context: app.context(nextIp()), params: { token } }));
    expect(await holdOf(body.responseId)).toMatchObject({ status: 'awaiting_email' });
    const confirmed = await run(() => confirmPage.action({ request: formRequest(`/reward-confirm/${token}`, {}), context: app.context(nextIp()), params: { token } }));
    expect(confirmed).toMatchObject({ status: 200, body: { ok: true, message: 'Thank you! Your gift card is on its way by email.' } });
    await expect.poll(async () => issuances(body.responseId), { timeout: 30_000, interval: 250 }).toBe(1);
    // A second click: nothing more.
    const again = await run(() => confirmPage.action({ request: formRequest(`/reward-confirm/${token}`, {}), context: app.context(nextIp()), params: { token } }));
    expect(again.status).toBe(200);
    expect(await issueJobs(body.responseId)).toBe(1);
    expect(await issuances(body.responseId)).toBe(1);
    expect(await trail(body.responseId)).toEqual(['held:system', 'email_confirmed:customer', 'released:system', 'issued:system']);

    const bad = await run(() => confirmPage.action({ request: formRequest('/reward-confirm/not-a-token', {}), context: app.context(nextIp()), params: { token: 'not-a-token' } }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false });
    expect(BASE).toBeTruthy();
  });
});

describe('reward-cli rewards review', () => {
  it('lists held rewards, releases and rejects by id, and refuses bad or unknown ids', async () => {
    const shop = await openShop('Cli Cafe');
    const a = await submit(shop, 'cli-a@mailinator.com', { responses: ownWords() });
    const b = await submit(shop, 'cli-b@mailinator.com', { responses: ownWords() });
    const env = cliEnv(app, { USER: 'support-ana' });

    const list = await runCli(env, ['rewards', 'review', '--business', shop.businessId]);
    expect(list.code ?? 0).toBe(0);
    expect(list.out).toContain(a.responseId);
    expect(list.out).toContain(b.responseId);
    expect(list.out).toContain('disposable_email');
    const json = await runCli(env, ['rewards', 'review', 'list', '--business', shop.businessId, '--json']);
    expect((JSON.parse(json.out) as Array<{ surveyResponseId: string }>).map((h) => h.surveyResponseId).sort()).toEqual([a.responseId, b.responseId].sort());

    const released = await runCli(env, ['rewards', 'review', 'release', a.responseId]);
    expect(released.code ?? 0).toBe(0);
    expect(released.out).toContain('Released');
    expect(await issueJobs(a.responseId)).toBe(1);
    const rejected = await runCli(env, ['rewards', 'review', 'reject', b.responseId]);
    expect(rejected.code ?? 0).toBe(0);
    expect(await holdOf(b.responseId)).toMatchObject({ status: 'rejected' });
    expect(await issueJobs(b.responseId)).toBe(0);
    // (The workers started above may issue it meanwhile: 'issued' follows.)
    expect((await trail(a.responseId)).slice(0, 2)).toEqual(['held:system', 'released:cli:support-ana']);

    const twice = await runCli(env, ['rewards', 'review', 'release', b.responseId]);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('already rejected');
    const unknown = await runCli(env, ['rewards', 'review', 'reject', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No held reward');
    const bad = await runCli(env, ['rewards', 'review', 'release', 'nope']);
    expect(bad.code).toBe(2);
    const none = await runCli(env, ['rewards', 'review', '--business', shop.businessId]);
    expect(none.out).toContain('No held rewards.');
  });
});
