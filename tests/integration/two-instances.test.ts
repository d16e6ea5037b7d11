import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as fakeConfirm } from '#app/routes/api+/billing.fake.confirm-setup.ts';
import { action as createExisting } from '#app/routes/api+/create-subscription-existing.ts';
import { loader as squareAuth } from '#app/routes/api+/square.auth.ts';
import { loader as squareCallback } from '#app/routes/api+/square.callback.ts';
import { action as portalPageAction, loader as portalPage } from '#app/routes/_billing+/billing-portal.tsx';
import { action as portalApi } from '#app/routes/api+/stripe.create-portal-session.ts';
import { action as consentAction, loader as consentPage } from '#app/routes/_owner+/square-connect_.demo.tsx';
import { loader as checkoutPage } from '#app/routes/_billing+/stripe-checkout.tsx';
import { loader as outboxPage } from '#app/routes/dev+/outbox.tsx';
import { loader as outboxMessage } from '#app/routes/dev+/outbox.$file.tsx';
import sharp from 'sharp';
import type { SurveyPageData } from '#app/customer/state.ts';
import { action as verifyScreenshot } from '#app/routes/api+/verify-screenshot.ts';
import { action as loginApi } from '#app/routes/api+/auth.login.ts';
import { action as signupApi } from '#app/routes/api+/auth.signup.ts';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { loader as exportCsv } from '#app/routes/_analytics+/survey-analytics.export.$kind.ts';
import { loader as screenshotView } from '#app/routes/_analytics+/survey-analytics.screenshots.$verificationId.ts';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { startTrialForTest } from '../setup/billing.ts';
import { connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { BASE, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { SILVER_ANSWERS } from '../setup/rewards.ts';
import { query } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 26: two instances of one deployment on one database (the same DATABASE_URL and
// SESSION_SECRET, a DATA_DIR each). What a request needs must not live on one instance's disk or in
// its memory: the demo adapters' objects are in the database (ADR 073).

let a: TestApp;
let b: Awaited<ReturnType<TestApp['secondInstance']>>;
beforeAll(async () => {
  a = await createTestApp();
  b = await a.secondInstance();
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('two instances on one database', () => {
  it('a checkout begun on one instance is confirmed, completed and managed on the other', async () => {
    const owner = await signedInOwner(a, 'Two Door Cafe');
    const started = await run(() => createExisting({ request: jsonRequest('/api/create-subscription-existing', { planId: 'growth', isYearly: true }, owner.jar), context: a.context(), params: {} }));
    expect(started.status).toBe(201);
    const { setupIntentId, clientSecret } = started.body as { setupIntentId: string; clientSecret: string };
    // The checkout page and the card form on the other instance.
    const page = await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${setupIntentId}`, owner.jar), context: b.context(), params: {} }));
    expect(page.body).toMatchObject({ setupError: false, clientSecret, failure: null });
    const confirmed = await run(() =>
      fakeConfirm({ request: formRequest('/api/billing/fake/confirm-setup', { setupIntentId, clientSecret, cardNumber: '4242 4242 4242 4242' }), context: b.context(), params: {} }),
    );
    expect(confirmed.status).toBe(303);
    // Back on the first instance: the return page completes the subscription.
    const back = await run(() => checkoutPage({ request: getRequest(confirmed.headers.get('Location')!, owner.jar), context: a.context(), params: {} }));
    expect(back.status).toBe(302);
    expect((await query<{ subscription_status: string }>(a, 'select subscription_status from businesses where id = ?', [owner.id]))[0]!.subscription_status).toBe('trialing');
    // The fake's portal session made on one instance opens on the other.
    const portal = await run(() => portalApi({ request: jsonRequest('/api/stripe/create-portal-session', {}, owner.jar), context: b.context(), params: {} }));
    const url = (portal.body as { url: string }).url;
    expect((await run(() => portalPage({ request: getRequest(url, owner.jar), context: a.context(), params: {} }))).status).toBe(200);
    expect((await run(() => portalPageAction({ request: formRequest(url, { intent: 'cancel' }, owner.jar), context: a.context(), params: {} }))).status).toBeLessThan(400);
  });

  it('a demo Square connection begun on one instance is finished on the other, and its code works once', async () => {
    const owner = await signedInOwner(a, 'Two Door Bakery');
    const start = await run(() => squareAuth({ request: getRequest('/api/square/auth', owner.jar), context: a.context(), params: {} }));
    const location = start.headers.get('Location')!;
    const page = await run(() => consentPage({ request: getRequest(location, owner.jar), context: b.context(), params: {} }));
    const { state } = page.body as { state: string };
    const consent = await run(() => consentAction({ request: formRequest('/square-connect/demo', { state, intent: 'allow' }, owner.jar), context: b.context(), params: {} }));
    const callback = consent.headers.get('Location')!;
    const done = await run(() => squareCallback({ request: getRequest(callback, owner.jar), context: a.context(), params: {} }));
    expect(done.headers.get('Location')).toBe('/square-location-selection');
    expect((await query<{ square_merchant_id: string }>(a, 'select square_merchant_id from businesses where id = ?', [owner.id]))[0]!.square_merchant_id).toBe('DEMO-MERCHANT');
    // The code is spent in the database: the other instance cannot redeem it again.
    const code = new URL(callback, 'http://x').searchParams.get('code')!;
    await expect(b.root.pos.exchangeCode({ code, redirectUri: 'x' })).rejects.toMatchObject({ code: 'rejected' });
  });

  it('an email written to the outbox by one instance is listed and read, decoded, on the other', async () => {
    const owner = await signedInOwner(a, 'Two Door Deli');
    const list = await run(() => outboxPage({ request: getRequest('/dev/outbox'), context: b.context(), params: {} }));
    const entry = (list.body as { entries: Array<{ file: string; to: string; subject: string }> }).entries.find((e) => e.to.includes(owner.email));
    expect(entry?.subject).toBe('Confirm your RewardLoop email address');
    const page = await run(() => outboxMessage({ request: getRequest(`/dev/outbox/${entry!.file}`), context: b.context(), params: { file: entry!.file } }));
    const mail = page.body as { to: string; text: string; html: string };
    expect(mail.to).toContain(owner.email);
    // Quoted-printable soft line breaks are gone: the link is whole and can be followed.
    const link = /http:\/\/localhost:3000\/email-verified\/[\w-]{40,}/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    expect(mail.html).toContain(link);
    const raw = await run(() => outboxMessage({ request: getRequest(`/dev/outbox/${entry!.file}?raw`), context: b.context(), params: { file: entry!.file } }));
    expect(raw.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(String(raw.body)).toMatch(/^Content-Type: multipart\/alternative/m);
    // Nothing on either instance's disk.
    expect(existsSync(path.join(a.dataDir, 'outbox'))).toBe(false);
    expect((await run(() => outboxMessage({ request: getRequest('/dev/outbox/nope.eml'), context: b.context(), params: { file: 'nope.eml' } }))).status).toBe(404);
  });

  it('keeps serving after the database dropped every connection (a restart or a failover)', async () => {
    // Idle connections of every pool (the ORM's, the job queue's, the demo store's) are cut at once.
    await query(a, `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await new Promise((r) => setTimeout(r, 300));
    const owner = await signedInOwner(b, 'After The Cut Cafe');
    const list = await run(() => outboxPage({ request: getRequest('/dev/outbox'), context: a.context(), params: {} }));
    expect((list.body as { entries: Array<{ to: string }> }).entries.some((e) => e.to.includes(owner.email))).toBe(true);
  });
});

describe('a customer and their owner across two instances', () => {
  let shop: { businessId: string; surveyId: string; jar: Awaited<ReturnType<typeof signedInOwner>>['jar'] };
  let ip = 0;
  const nextIp = () => `10.199.${Math.floor(++ip / 200)}.${ip % 200}`;
  const on = (instance: 'a' | 'b') => (instance === 'a' ? a.context(nextIp()) : b.context(nextIp()));
  const params = () => ({ businessId: shop.businessId, surveyId: shop.surveyId });
  const path = () => `/survey/public/${shop.businessId}/${shop.surveyId}`;
  const png = (color: string) => sharp({ create: { width: 240, height: 160, channels: 3, background: color } }).png().toBuffer();
  const LINK = 'https://g.page/r/crumb/review';

  beforeAll(async () => {
    const owner = await signedInOwner(a, 'Two Door Bakery & Co');
    const surveyId = (await createSurvey(a, owner.jar)).id;
    await startTrialForTest(a, { jar: owner.jar });
    await publishForTest(a, owner.jar, surveyId);
    await connectSquareWithoutLocation(a, owner.id);
    shop = { businessId: owner.id, surveyId, jar: owner.jar };
  });

  it('page views on both instances are all counted, each instance adding its own (ADR 081)', async () => {
    const view = (instance: 'a' | 'b') => run(() => publicPage.loader({ request: getRequest(path()), context: on(instance), params: params() }));
    for (const instance of ['a', 'b', 'b', 'a', 'b'] as const) expect((await view(instance)).status).toBe(200);
    const stored = async () =>
      (await query<{ n: number }>(a, `select coalesce(sum(count), 0)::int as n from survey_funnel_counts where survey_config_id = ? and step = 'view'`, [shop.surveyId]))[0]!.n;
    // Counted in each instance's memory, written within seconds by each (no read asks for it).
    await expect.poll(stored, { timeout: 10_000, interval: 250 }).toBe(5);
  });

  it('without JavaScript: sections posted to alternating instances, the screenshot on one, the submission on the other', async () => {
    const post = (instance: 'a' | 'b', fields: Array<[string, string]>) =>
      run(() => publicPage.action({ request: formRequest(path(), fields), context: on(instance), params: params() }));
    const carry = (data: unknown) => Object.entries((data as SurveyPageData).step.answers).map(([k, v]) => [k, String(v)] as [string, string]);
    const first = await post('a', [['_section', '0'], ['_intent', 'next'], ['overall_rating', '5'], ['recommend', 'yes'], ['visit_frequency', 'Weekly']]);
    expect((first.body as SurveyPageData).step.section).toBe(1);
    const second = await post('b', [...carry(first.body), ['_section', '1'], ['_intent', 'next'], ['service_rating', '4']]);
    expect((second.body as SurveyPageData).step.section).toBe(2);
    // The screenshot goes to instance A (stored in the shared blob store), the submission to B.
    const form = new FormData();
    const fields: Array<[string, string]> = [...carry(second.body), ['review_google_reviewer_name', 'Ana Pereira'], ['review_google_review_link', LINK], ['customerEmail', 'nojs.two@example.com'], ['_section', '2'], ['_intent', 'stay']];
    for (const [k, v] of fields) form.set(k, v);
    form.set('file:review_google_screenshot', new File([new Uint8Array(await png('#3366aa'))], 'review.png', { type: 'image/png' }));
    const uploaded = await run(() => publicPage.action({ request: new Request(BASE + path(), { method: 'POST', body: form }), context: on('a'), params: params() }));
    const states = (uploaded.body as SurveyPageData).step.states;
    expect(states.google).toMatchObject({ status: 'verified' });
    // The page's submission key (made by the first post, ADR 081) goes with every post, as the form's hidden field.
    const key = (uploaded.body as SurveyPageData).step.key!;
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const submitPost: Array<[string, string]> = [...carry(uploaded.body), ['_section', '2'], ['_intent', 'submit'], ['_key', key]];
    const done = await post('b', submitPost);
    expect((done.body as SurveyPageData).step.done).toBeTruthy();
    // Its answer was lost; the customer presses Submit again and the balancer sends it to A: the same Thank You.
    const again = await post('a', submitPost);
    expect((again.body as SurveyPageData).step.done).toEqual((done.body as SurveyPageData).step.done);
    const rows = await query<{ id: string; total_points: number }>(a, `select id, total_points from survey_responses where customer_email = 'nojs.two@example.com'`);
    expect(rows).toHaveLength(1);
  });

  it('with JavaScript: a proof verified on one instance is submitted on the other; the owner sees the screenshot and the CSV on either', async () => {
    const screenshot = `data:image/png;base64,${(await png('#aa3366')).toString('base64')}`;
    const verified = await run(() =>
      verifyScreenshot({
        request: jsonRequest('/api/verify-screenshot', { ...params(), platform: 'google', reviewerName: 'Bea Santos', reviewLink: LINK, screenshot }),
        context: on('a'),
        params: {},
      }),
    );
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const { verificationId } = verified.body as { verificationId: string; isValid: boolean };
    const submitted = await run(() =>
      submitApi({
        request: jsonRequest(`/api/survey/submit/${shop.businessId}/${shop.surveyId}`, {
          responses: { ...SILVER_ANSWERS, review_google_screenshot: verificationId, review_google_reviewer_name: 'Bea Santos', review_google_review_link: LINK },
          customerEmail: 'js.two@example.com',
          customerName: 'Bea',
        }),
        context: on('b'),
        params: params(),
      }),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    for (const instance of ['a', 'b'] as const) {
      const image = await run(() => screenshotView({ request: getRequest(`/survey-analytics/screenshots/${verificationId}`, shop.jar), context: on(instance), params: { verificationId } }));
      expect(image.status).toBe(200);
      expect(image.headers.get('Content-Type')).toMatch(/^image\//);
      const csv = await run(() => exportCsv({ request: getRequest(`/survey-analytics/export/responses?survey=${shop.surveyId}`, shop.jar), context: on(instance), params: { kind: 'responses' } }));
      expect(csv.status).toBe(200);
      expect(String(csv.body)).toContain('js.two@example.com');
      expect(String(csv.body)).toContain('nojs.two@example.com');
    }
  });
});

describe('the account doors count attempts across instances', () => {
  it('a wrong password tried on alternating instances is throttled after the free ones, as on one', async () => {
    const owner = await signedInOwner(a, 'Throttle Cafe');
    const login = (instance: 'a' | 'b', ip: string) =>
      run(() => loginApi({ request: jsonRequest('/api/auth/login', { email: owner.email, password: 'not-the-password-1' }), context: (instance === 'a' ? a : b).context(ip), params: {} }));
    // Five failures (the free ones), from five addresses, on A and B in turn.
    for (let i = 0; i < 5; i += 1) expect((await login(i % 2 === 0 ? 'a' : 'b', `10.211.0.${i + 1}`)).status).toBe(401);
    const sixth = await login('b', '10.211.0.9');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('sign-ups from one address are limited per deployment, not per instance', async () => {
    const signup = (instance: 'a' | 'b', i: number) =>
      run(() =>
        signupApi({
          request: jsonRequest('/api/auth/signup', { email: `limit-${i}-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: `Limit ${i}`, terms: true }),
          context: (instance === 'a' ? a : b).context('10.212.0.1'),
          params: {},
        }),
      );
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await signup(i % 2 === 0 ? 'a' : 'b', i)).status);
    // AUTH_RATE_RULES.signUpPerIp: 10 an hour.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
  });
});

