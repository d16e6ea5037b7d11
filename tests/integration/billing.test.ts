import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBilling } from '../../adapters/billing/FakeBilling.ts';
import { action as fakeConfirm } from '#app/routes/api+/billing.fake.confirm-setup.ts';
import { action as createNew } from '#app/routes/api+/create-subscription.ts';
import { action as createExisting } from '#app/routes/api+/create-subscription-existing.ts';
import { action as cancelApi } from '#app/routes/api+/stripe.cancel-subscription.ts';
import { action as portalApi } from '#app/routes/api+/stripe.create-portal-session.ts';
import { loader as statusApi } from '#app/routes/api+/stripe.subscription-status.ts';
import { action as webhookApi } from '#app/routes/api+/stripe.webhook.ts';
import { action as completeApi } from '#app/routes/api+/subscription-complete.ts';
import { loader as publishStatusLoader } from '#app/routes/api+/survey.publish-status.ts';
import { loader as publicSurvey } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { action as portalPageAction, loader as portalPage } from '#app/routes/_billing+/billing-portal.tsx';
import { loader as checkoutPage } from '#app/routes/_billing+/stripe-checkout.tsx';
import { action as detailsAction, loader as detailsPage } from '#app/routes/_billing+/subscription-details.tsx';
import { action as plansAction, loader as plansPage } from '#app/routes/_billing+/subscription-plans.tsx';
import { action as trialSignupAction, loader as trialSignupPage } from '#app/routes/_auth+/trial-signup.tsx';
import { DECLINED_CARD, GOOD_CARD, startTrialForTest, subscribeWithFake } from '../setup/billing.ts';
import { connectSquareForTest, createSurvey, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { query } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

const WEBHOOK_SECRET = 'whsec_test_rewardloop_billing_0123456789';
const DAY = 86_400_000;

let app: TestApp;
let ipCount = 0;
const ctx = () => {
  ipCount += 1;
  return app.context(`10.17.${Math.floor(ipCount / 250) % 250}.${ipCount % 250}`);
};
beforeAll(async () => {
  app = await createTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const business = async (id: string) => (await query<Record<string, unknown>>(app, `select * from businesses where id = ?`, [id]))[0]!;

async function startExisting(jar: CookieJar, body: Record<string, unknown>) {
  return run(() => createExisting({ request: jsonRequest('/api/create-subscription-existing', body, jar), context: ctx(), params: {} }));
}

describe('plans (spec section 9, once in modules/billing)', () => {
  it('shows yearly by default, monthly on the toggle link, with the figures of the spec', async () => {
    const yearly = await run(() => plansPage({ request: getRequest('/subscription-plans'), context: ctx(), params: {} }));
    expect(yearly.body).toMatchObject({ interval: 'year', signedIn: false, trialAvailable: true });
    const monthly = await run(() => plansPage({ request: getRequest('/subscription-plans?billing=monthly'), context: ctx(), params: {} }));
    expect(monthly.body).toMatchObject({ interval: 'month' });
  });

  it('sends a visitor who picks a plan to the trial sign-up with that plan', async () => {
    const res = await run(() => plansAction({ request: formRequest('/subscription-plans', { planId: 'growth', billing: 'yearly' }), context: ctx(), params: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/trial-signup?planId=growth&billing=yearly');
  });
});

describe('checkout with the fake adapter', () => {
  it('takes plan, price and trial days from the server, never from the body', async () => {
    const owner = await signedInOwner(app, 'Price Cafe');
    const res = await startExisting(owner.jar, { planId: 'growth', isYearly: false, price: 1, trialDays: 365 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      planDetails: { id: 'growth', name: 'Growth', price: 49, period: 'month', trialDays: 7 },
      businessId: owner.id,
      hasSetupIntent: true,
      clientSecret: expect.stringMatching(/^seti_fake_\w+_secret_\w+$/),
    });
    const yearly = await startExisting(owner.jar, { planId: 'pro', isYearly: true, price: 0 });
    expect(yearly.body).toMatchObject({ planDetails: { price: 990, period: 'year', trialDays: 14 } });
  });

  it("answers 404 'Plan not found' for an unknown plan and 401 with the spec's words when signed out", async () => {
    const owner = await signedInOwner(app, 'Unknown Plan Cafe');
    for (const planId of ['enterprise', '', 42, null, { id: 'growth' }]) {
      const res = await startExisting(owner.jar, { planId, isYearly: true });
      expect(res, JSON.stringify(planId)).toMatchObject({ status: 404, body: { message: 'Plan not found' } });
    }
    const out = await startExisting(new CookieJar(), { planId: 'growth', isYearly: true });
    expect(out).toMatchObject({ status: 401, body: { message: 'Please log in to continue with your subscription' } });
    const page = await run(() => plansAction({ request: formRequest('/subscription-plans', { planId: 'gold', billing: 'yearly' }, owner.jar), context: ctx(), params: {} }));
    expect(page.status).toBe(404);
    expect(page.body).toMatchObject({ error: { title: 'Plan not found' } });
    expect((await business(owner.id)).subscription_status).toBe('none');
  });

  it('a declined card: Setup Failed with Stripe’s words, no subscription stored', async () => {
    const owner = await signedInOwner(app, 'Declined Cafe');
    const { setupIntentId, clientSecret, confirmed, completed } = await subscribeWithFake(app, owner, { card: DECLINED_CARD });
    expect(confirmed.body).toEqual({ id: setupIntentId, status: 'requires_payment_method', error: { message: 'Your card was declined.' } });
    expect(completed).toMatchObject({ status: 402, body: { title: 'Setup Failed', message: 'Your card was declined.' } });
    const row = await business(owner.id);
    expect(row).toMatchObject({ subscription_status: 'none', stripe_subscription_id: null, trial_used_at: null, has_payment_method: false });
    // Without JavaScript: the form post comes back to the checkout page, which shows the refusal.
    const form = await run(() => fakeConfirm({ request: formRequest('/api/billing/fake/confirm-setup', { setupIntentId, clientSecret, cardNumber: DECLINED_CARD }), context: ctx(), params: {} }));
    expect(form.status).toBe(303);
    const back = form.headers.get('Location')!;
    expect(back).toBe(`/stripe-checkout?setupIntentId=${setupIntentId}&redirect_status=failed`);
    const page = await run(() => checkoutPage({ request: getRequest(back, owner.jar), context: ctx(), params: {} }));
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ setupError: false, failure: 'Your card was declined.' });
    // A query string claiming success changes nothing: the server asks the provider.
    const lie = await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${setupIntentId}&redirect_status=succeeded`, owner.jar), context: ctx(), params: {} }));
    expect(lie.body).toMatchObject({ failure: 'Your card was declined.' });
    expect((await business(owner.id)).subscription_status).toBe('none');
  });

  it('without JavaScript: plans form -> checkout page -> card form -> trial, the carried survey next', async () => {
    const owner = await signedInOwner(app, 'No Script Cafe');
    const survey = await createSurvey(app, owner.jar);
    const chosen = await run(() => plansAction({ request: formRequest('/subscription-plans', { planId: 'starter', billing: 'monthly', surveyId: survey.id }, owner.jar), context: ctx(), params: {} }));
    expect(chosen.status).toBe(302);
    const checkoutUrl = chosen.headers.get('Location')!;
    expect(checkoutUrl).toMatch(/^\/stripe-checkout\?setupIntentId=seti_fake_\w+$/);
    const page = await run(() => checkoutPage({ request: getRequest(checkoutUrl, owner.jar), context: ctx(), params: {} }));
    expect(page.body).toMatchObject({ setupError: false, provider: 'fake', details: { name: 'Starter', price: 19, period: 'month', trialDays: 7 }, failure: null });
    const setupIntentId = new URL(checkoutUrl, 'http://x').searchParams.get('setupIntentId')!;
    const { clientSecret } = page.body as { clientSecret: string };
    const confirm = await run(() =>
      fakeConfirm({ request: formRequest('/api/billing/fake/confirm-setup', { setupIntentId, clientSecret, cardNumber: GOOD_CARD, expiry: '12/34', cvc: '123' }), context: ctx(), params: {} }),
    );
    expect(confirm.status).toBe(303);
    const back = await run(() => checkoutPage({ request: getRequest(confirm.headers.get('Location')!, owner.jar), context: ctx(), params: {} }));
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe(`/subscription-check?surveyId=${survey.id}`);
    const row = await business(owner.id);
    expect(row).toMatchObject({ subscription_status: 'trialing', subscription_plan: 'starter', billing_interval: 'month', has_payment_method: true });
    const trialDays = (new Date(row.trial_ends_at as string).getTime() - Date.now()) / DAY;
    expect(trialDays).toBeGreaterThan(6.99);
    expect(trialDays).toBeLessThanOrEqual(7);
    const status = await run(() => publishStatusLoader({ request: getRequest('/api/survey/publish-status', owner.jar), context: ctx(), params: {} }));
    expect(status.body).toMatchObject({ action: 'publish', subscriptionStatus: 'trialing' });
    // Completing again (a reload of the return page) is a no-op that lands in the same place.
    const again = await run(() => checkoutPage({ request: getRequest(checkoutUrl, owner.jar), context: ctx(), params: {} }));
    expect(again.headers.get('Location')).toBe(`/subscription-check?surveyId=${survey.id}`);
    expect((await query(app, `select count(*)::int as n from billing_checkouts where business_id = ? and subscription_id is not null`, [owner.id]))[0]).toEqual({ n: 1 });
  });

  it("a second checkout while subscribed is 409 'Subscription Already Exists'; the plans form goes to the details page", async () => {
    const owner = await signedInOwner(app, 'Twice Cafe');
    await startTrialForTest(app, owner);
    const res = await startExisting(owner.jar, { planId: 'growth', isYearly: true });
    expect(res).toMatchObject({ status: 409, body: { title: 'Subscription Already Exists', message: 'You already have an active subscription. Redirecting to manage your plan.' } });
    const page = await run(() => plansAction({ request: formRequest('/subscription-plans', { planId: 'growth', billing: 'yearly' }, owner.jar), context: ctx(), params: {} }));
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toBe('/subscription-details');
  });

  it('one owner can never see, complete or pay for another owner’s checkout', async () => {
    const a = await signedInOwner(app, 'Owner A Cafe');
    const b = await signedInOwner(app, 'Owner B Cafe');
    const started = await startExisting(a.jar, { planId: 'growth', isYearly: true });
    const setupIntentId = (started.body as { setupIntentId: string }).setupIntentId;
    const page = await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${setupIntentId}`, b.jar), context: ctx(), params: {} }));
    expect(page).toMatchObject({ status: 404, body: { setupError: true } });
    const { clientSecret } = started.body as { clientSecret: string };
    // Owner B, who knows A's SetupIntent id but not its client secret, cannot confirm it (Stripe.js needs the secret too).
    const guessed = await run(() =>
      fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { setupIntentId, clientSecret: `${setupIntentId}_secret_guessed000000`, cardNumber: GOOD_CARD }, b.jar), context: ctx(), params: {} }),
    );
    expect(guessed.status).toBe(404);
    const noSecret = await run(() => fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { setupIntentId, cardNumber: GOOD_CARD }, b.jar), context: ctx(), params: {} }));
    expect(noSecret).toMatchObject({ status: 400, body: { fieldErrors: { clientSecret: ['clientSecret is required'] } } });
    const otherSecret = await run(() =>
      fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { setupIntentId: 'seti_fake_000000000000000000000000', clientSecret, cardNumber: GOOD_CARD }, b.jar), context: ctx(), params: {} }),
    );
    expect(otherSecret.status).toBe(404);
    expect((await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${setupIntentId}`, a.jar), context: ctx(), params: {} }))).body).toMatchObject({ failure: null });
    const confirmed = await run(() => fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { setupIntentId, clientSecret, cardNumber: GOOD_CARD }), context: ctx(), params: {} }));
    expect(confirmed.body).toMatchObject({ status: 'succeeded' });
    const stolen = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, b.jar), context: ctx(), params: {} }));
    expect(stolen.status).toBe(404);
    const otherBusiness = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId, businessId: b.id }, a.jar), context: ctx(), params: {} }));
    expect(otherBusiness.status).toBe(403);
    expect((await business(b.id)).subscription_status).toBe('none');
    expect((await business(a.id)).subscription_status).toBe('none');
    const mine = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId, businessId: a.id }, a.jar), context: ctx(), params: {} }));
    expect(mine).toMatchObject({ status: 200, body: { status: 'trialing', redirectTo: '/' } });
    // The portal session of A is not B's.
    const portal = await run(() => portalApi({ request: jsonRequest('/api/stripe/create-portal-session', {}, a.jar), context: ctx(), params: {} }));
    const url = (portal.body as { url: string }).url;
    expect(url).toMatch(/^\/billing-portal\?session=bps_fake_[0-9a-f]{24}$/);
    expect((await run(() => portalPage({ request: getRequest(url, b.jar), context: ctx(), params: {} }))).status).toBe(404);
    expect((await run(() => portalPageAction({ request: formRequest(url, { intent: 'cancel' }, b.jar), context: ctx(), params: {} }))).status).toBe(404);
    expect((await run(() => cancelApi({ request: jsonRequest('/api/stripe/cancel-subscription', {}, b.jar), context: ctx(), params: {} }))).status).toBe(404);
    expect((await business(a.id)).subscription_status).toBe('trialing');
    // A missing or unknown checkout: the Setup Error page; none at all: the plans.
    expect(await run(() => checkoutPage({ request: getRequest('/stripe-checkout?setupIntentId=seti_fake_000000000000000000000000', a.jar), context: ctx(), params: {} }))).toMatchObject({ status: 404, body: { setupError: true } });
    expect((await run(() => checkoutPage({ request: getRequest('/stripe-checkout', a.jar), context: ctx(), params: {} }))).headers.get('Location')).toBe('/subscription-plans');
  });
});

describe('new owners: /trial-signup and POST /api/create-subscription', () => {
  it('the trial sign-up form checks the fields with the trial form’s words', async () => {
    const res = await run(() =>
      trialSignupAction({
        request: formRequest('/trial-signup', { businessName: '', email: 'not-an-email', password: 'short', confirmPassword: 'other' }),
        context: ctx(),
        params: {},
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errors: {
        businessName: ['Business name is required'],
        email: ['Please enter a valid email address'],
        password: expect.arrayContaining(['Password must be at least 8 characters']),
        agreeToTerms: ['You must agree to the Terms of Service and Privacy Policy'],
      },
    });
    const page = await run(() => trialSignupPage({ request: getRequest('/trial-signup?planId=pro&billing=monthly'), context: ctx(), params: {} }));
    expect(page.body).toMatchObject({ plan: { id: 'pro', interval: 'month', price: 99, trialDays: 7 } });
  });

  it('creates the account, signs in, carries the builder draft and goes to checkout with the chosen plan', async () => {
    const email = `trial-${Date.now()}@example.com`;
    const draft = JSON.stringify(surveyBody({ title: 'Draft from the builder' }));
    const res = await run(() =>
      trialSignupAction({
        request: formRequest('/trial-signup', {
          businessName: 'Trial Bakery',
          email,
          password: 'sesame-street-42',
          confirmPassword: 'sesame-street-42',
          agreeToTerms: 'on',
          planId: 'growth',
          billing: 'yearly',
          surveyBuilderConfig: draft,
        }),
        context: ctx(),
        params: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toMatch(/^\/stripe-checkout\?setupIntentId=seti_fake_\w+&handover=1$/);
    const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
    const [row] = await query<{ id: string }>(app, `select id from businesses where email = ?`, [email]);
    const [survey] = await query<{ id: string; title: string }>(app, `select id, title from survey_configs where business_id = ?`, [row!.id]);
    expect(survey!.title).toBe('Draft from the builder');
    const setupIntentId = new URL(res.headers.get('Location')!, 'http://x').searchParams.get('setupIntentId')!;
    const page = await run(() => checkoutPage({ request: getRequest(res.headers.get('Location')!, jar), context: ctx(), params: {} }));
    const { clientSecret } = page.body as { clientSecret: string };
    await run(() => fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { clientSecret, cardNumber: GOOD_CARD }), context: ctx(), params: {} }));
    const done = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, jar), context: ctx(), params: {} }));
    expect(done).toMatchObject({ status: 200, body: { status: 'trialing', redirectTo: `/subscription-check?surveyId=${survey!.id}` } });
  });

  it('POST /api/create-subscription: account and checkout together; Plan not found before any account', async () => {
    const email = `api-${Date.now()}@example.com`;
    const bad = await run(() => createNew({ request: jsonRequest('/api/create-subscription', { businessName: 'Api Cafe', email, password: 'sesame-street-42', planId: 'platinum', isYearly: true }), context: ctx(), params: {} }));
    expect(bad).toMatchObject({ status: 404, body: { message: 'Plan not found' } });
    expect(await query(app, `select id from businesses where email = ?`, [email])).toEqual([]);
    const res = await run(() =>
      createNew({ request: jsonRequest('/api/create-subscription', { businessName: 'Api Cafe', email, password: 'sesame-street-42', planId: 'pro', isYearly: false, price: 5, trialDays: 90, surveyBuilderConfig: null }), context: ctx(), params: {} }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ planDetails: { id: 'pro', price: 99, period: 'month', trialDays: 7 }, hasSetupIntent: true, clientSecret: expect.any(String) });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('rl_session='))).toBe(true);
    const taken = await run(() => createNew({ request: jsonRequest('/api/create-subscription', { businessName: 'Api Cafe', email, password: 'sesame-street-42', planId: 'pro', isYearly: false }), context: ctx(), params: {} }));
    expect(taken.status).toBe(409);
  });
});

describe('subscription details, portal, cancel, trial rules', () => {
  it('answers both status shapes, cancels after the confirmation dialog, and the survey becomes Unavailable with nothing lost', async () => {
    const owner = await signedInOwner(app, 'Cancel Cafe');
    const survey = await createSurvey(app, owner.jar);
    await connectSquareForTest(app, owner.id);
    const first = await subscribeWithFake(app, owner, { planId: 'growth', isYearly: true });
    await publishForTest(app, owner.jar, survey.id);
    const status = await run(() => statusApi({ request: getRequest('/api/stripe/subscription-status', owner.jar), context: ctx(), params: {} }));
    expect(status.body).toMatchObject({
      hasActiveSubscription: false,
      hasActiveTrial: true,
      status: 'trialing',
      trialDaysRemaining: 14,
      subscriptionType: 'yearly',
      plan: 'growth',
      nextBillingDate: expect.any(String),
      canManageSubscription: true,
    });
    const open = () => run(() => publicSurvey({ request: getRequest(`/api/survey/public/${owner.id}/${survey.id}`), context: ctx(), params: { businessId: owner.id, surveyId: survey.id } }));
    expect((await open()).status).toBe(200);
    const dialog = await run(() => detailsPage({ request: getRequest('/subscription-details?confirm=cancel', owner.jar), context: ctx(), params: {} }));
    expect(dialog.body).toMatchObject({ confirmCancel: true, details: { status: 'trialing' } });
    const canceled = await run(() => detailsAction({ request: formRequest('/subscription-details', { intent: 'cancel' }, owner.jar), context: ctx(), params: {} }));
    expect(canceled.status).toBe(302);
    expect(canceled.headers.get('Location')).toBe('/subscription-details');
    expect((await business(owner.id)).subscription_status).toBe('canceled');
    expect(await open()).toMatchObject({ status: 404, body: { message: 'Survey Not Found' } });
    expect(await query(app, `select id from survey_configs where id = ?`, [survey.id])).toHaveLength(1);
    const after = await run(() => statusApi({ request: getRequest('/api/stripe/subscription-status', owner.jar), context: ctx(), params: {} }));
    expect(after.body).toMatchObject({ hasActiveSubscription: false, hasActiveTrial: false, status: 'canceled', nextBillingDate: null });
    // Cancelling again: 'Cancellation Failed'.
    const again = await run(() => cancelApi({ request: jsonRequest('/api/stripe/cancel-subscription', {}, owner.jar), context: ctx(), params: {} }));
    expect(again).toMatchObject({ status: 404, body: { title: 'Cancellation Failed' } });
    // The trial was used: the next checkout has no trial, with the spec's notice on the plans page.
    const plans = await run(() => plansPage({ request: getRequest('/subscription-plans', owner.jar), context: ctx(), params: {} }));
    expect(plans.body).toMatchObject({ trialAvailable: false, hasPlan: false });
    const paid = await subscribeWithFake(app, owner, { planId: 'starter', isYearly: false });
    expect(paid.started.body).toMatchObject({ planDetails: { trialDays: 0, price: 19 } });
    expect(paid.completed.body).toMatchObject({ status: 'active', trialEndsAt: null });
    expect((await open()).status).toBe(200);
    // The old (canceled) checkout's return page, reloaded later, never overwrites the new subscription.
    const old = await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${first.setupIntentId}&redirect_status=succeeded`, owner.jar), context: ctx(), params: {} }));
    expect(old.status).toBe(302);
    expect((await business(owner.id)).subscription_status).toBe('active');
  });

  it("portal errors by cause: no customer is 'No Subscription Found', a customer without a subscription 'Trial Setup Incomplete'", async () => {
    const owner = await signedInOwner(app, 'Portal Cafe');
    const none = await run(() => portalApi({ request: jsonRequest('/api/stripe/create-portal-session', {}, owner.jar), context: ctx(), params: {} }));
    expect(none).toMatchObject({ status: 404, body: { title: 'No Subscription Found', message: 'No Stripe customer found for this account.' } });
    await startExisting(owner.jar, { planId: 'starter', isYearly: true });
    const incomplete = await run(() => detailsAction({ request: formRequest('/subscription-details', { intent: 'portal' }, owner.jar), context: ctx(), params: {} }));
    expect(incomplete).toMatchObject({ status: 400, body: { error: { title: 'Trial Setup Incomplete' } } });
    const signedOut = await run(() => statusApi({ request: getRequest('/api/stripe/subscription-status'), context: ctx(), params: {} }));
    expect(signedOut.status).toBe(401);
  });

  it('an expired trial makes surveys Unavailable by the clock alone; data stays', async () => {
    const owner = await signedInOwner(app, 'Clock Cafe');
    const survey = await createSurvey(app, owner.jar);
    await connectSquareForTest(app, owner.id);
    await startTrialForTest(app, owner);
    await publishForTest(app, owner.jar, survey.id);
    const open = () => run(() => publicSurvey({ request: getRequest(`/api/survey/public/${owner.id}/${survey.id}`), context: ctx(), params: { businessId: owner.id, surveyId: survey.id } }));
    expect((await open()).status).toBe(200);
    await query(app, `update businesses set trial_ends_at = now() - interval '1 minute' where id = ?`, [owner.id]);
    expect(await open()).toMatchObject({ status: 404, body: { message: 'Survey Not Found' } });
    const status = await run(() => statusApi({ request: getRequest('/api/stripe/subscription-status', owner.jar), context: ctx(), params: {} }));
    expect(status.body).toMatchObject({ status: 'trial_expired', hasActiveTrial: false, hasActiveSubscription: false });
    expect(await query(app, `select id from survey_configs where id = ?`, [survey.id])).toHaveLength(1);
  });
});

describe('POST /api/stripe/webhook (signatures by the SDK’s test helper)', () => {
  const fake = () => app.root.billing as FakeBilling;
  const send = (payload: string, header: string | null) =>
    run(() =>
      webhookApi({
        request: new Request('http://localhost:3000/api/stripe/webhook', { method: 'POST', headers: header ? { 'Stripe-Signature': header, 'Content-Type': 'application/json' } : {}, body: payload }),
        context: ctx(),
        params: {},
      }),
    );
  const event = (id: string, type: string, object: Record<string, unknown>) => JSON.stringify({ id, object: 'event', type, data: { object } });
  const signed = (payload: string, timestamp?: number) => Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });

  it('refuses a bad signature or a stale timestamp with 400 and changes nothing', async () => {
    const owner = await signedInOwner(app, 'Signed Cafe');
    await startTrialForTest(app, owner);
    const subId = String((await business(owner.id)).stripe_subscription_id);
    await fake().cancelSubscription(subId);
    const payload = event('evt_bad_1', 'customer.subscription.deleted', { id: subId, object: 'subscription', customer: 'cus_x' });
    expect((await send(payload, null)).status).toBe(400);
    expect((await send(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' }))).status).toBe(400);
    expect((await send(payload, signed(payload, Math.floor(Date.now() / 1000) - 3600))).status).toBe(400);
    expect((await send(payload.replace('deleted', 'updated'), signed(payload))).status).toBe(400);
    expect((await business(owner.id)).subscription_status).toBe('trialing');
    expect(await query(app, `select * from billing_webhook_events where event_id = 'evt_bad_1'`)).toEqual([]);
  });

  it('re-reads the subscription: out-of-order events leave the latest state; a replay has no second effect', async () => {
    const owner = await signedInOwner(app, 'Order Cafe');
    await startTrialForTest(app, owner);
    const row = await business(owner.id);
    const subId = String(row.stripe_subscription_id);
    const customer = String(row.stripe_customer_id);
    await fake().cancelSubscription(subId);
    const deleted = event('evt_order_2', 'customer.subscription.deleted', { id: subId, object: 'subscription', customer, status: 'canceled' });
    expect(await send(deleted, signed(deleted))).toMatchObject({ status: 200, body: { received: true, message: 'Handled.' } });
    expect((await business(owner.id)).subscription_status).toBe('canceled');
    // The older 'updated' (still trialing in its body) arrives late: the re-read says canceled.
    const late = event('evt_order_1', 'customer.subscription.updated', { id: subId, object: 'subscription', customer, status: 'trialing' });
    expect((await send(late, signed(late))).status).toBe(200);
    expect((await business(owner.id)).subscription_status).toBe('canceled');
    const replay = await send(deleted, signed(deleted));
    expect(replay).toMatchObject({ status: 200, body: { message: 'Already handled.' } });
    expect(await query(app, `select event_id from billing_webhook_events where event_id like 'evt_order_%' order by event_id`)).toEqual([{ event_id: 'evt_order_1' }, { event_id: 'evt_order_2' }]);
  });

  it('trial_will_end emails the owner once; invoice.payment_failed while the provider says trialing emails nobody', async () => {
    const owner = await signedInOwner(app, 'Mail Cafe');
    await startTrialForTest(app, owner);
    const row = await business(owner.id);
    const subId = String(row.stripe_subscription_id);
    const willEnd = event('evt_mail_1', 'customer.subscription.trial_will_end', { id: subId, object: 'subscription', customer: row.stripe_customer_id });
    await send(willEnd, signed(willEnd));
    await send(willEnd, signed(willEnd));
    const failed = event('evt_mail_2', 'invoice.payment_failed', { id: 'in_1', object: 'invoice', customer: row.stripe_customer_id, parent: { subscription_details: { subscription: subId } } });
    expect((await send(failed, signed(failed))).status).toBe(200);
    const mine = (await readOutbox(app.root)).filter((m) => m.to === owner.email);
    expect(mine.filter((m) => m.subject === 'Your RewardLoop free trial ends soon')).toHaveLength(1);
    expect(mine.find((m) => m.subject === 'Your RewardLoop free trial ends soon')!.text).toMatch(/Your free trial ends on \w+ \d+, \d{4}\./);
    // The fake's test card always pays: the re-read subscription is trialing, so no payment failed
    // (billing-webhooks.test.ts has the past_due case at Stripe's edge).
    expect(mine.filter((m) => m.subject === 'Your RewardLoop payment failed')).toHaveLength(0);
  });

  it('fake billing: a signed event for a subscription the fake does not know is 200 ignored, not a 500', async () => {
    const owner = await signedInOwner(app, 'Ghost Sub Cafe');
    await startTrialForTest(app, owner);
    const row = await business(owner.id);
    await query(app, `update businesses set stripe_subscription_id = null where id = ?`, [owner.id]);
    const ghost = event('evt_fake_ghost', 'customer.subscription.updated', { id: 'sub_fake_unknown', object: 'subscription', customer: row.stripe_customer_id });
    expect(await send(ghost, signed(ghost))).toMatchObject({ status: 200, body: { message: 'Ignored: the provider does not know this subscription (not_found).' } });
  });
});
