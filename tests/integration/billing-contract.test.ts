import { setupServer } from 'msw/node';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBilling } from '../../adapters/billing/FakeBilling.ts';
import { StripeBilling, type StripePrices } from '../../adapters/billing/StripeBilling.ts';
import { BillingError, type Billing } from '../../modules/billing/index.ts';
import { action as fakeConfirm } from '#app/routes/api+/billing.fake.confirm-setup.ts';
import { action as createExisting } from '#app/routes/api+/create-subscription-existing.ts';
import { action as portalApi } from '#app/routes/api+/stripe.create-portal-session.ts';
import { action as webhookApi } from '#app/routes/api+/stripe.webhook.ts';
import { action as completeApi } from '#app/routes/api+/subscription-complete.ts';
import { loader as checkoutPage } from '#app/routes/_billing+/stripe-checkout.tsx';
import type { Root } from '../../server/composition.ts';
import { contentSecurityPolicy } from '../../server/http.ts';
import { signedInOwner } from '../setup/factories.ts';
import { getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { createStripeMock, STRIPE_TEST_KEY, stripeTestEnv } from '../mocks/stripe.ts';
import { deferredDemoStore } from '../setup/demo-store.ts';

const stripe = createStripeMock();
const server = setupServer(...stripe.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => {
  server.close();
});

const SECRET = 'whsec_contract_0123456789abcdef';
const PRICES: StripePrices = {
  starter: { month: 'price_starter_month', year: 'price_starter_year' },
  growth: { month: 'price_growth_month', year: 'price_growth_year' },
  pro: { month: 'price_pro_month', year: 'price_pro_year' },
};
// The fake's objects live in the DemoStore (ADR 073): a database of its own, opened before the tests run.
const demoStore = deferredDemoStore();
beforeAll(() => demoStore.open(), 60_000);
afterAll(() => demoStore.close());
const fake = new FakeBilling({ store: demoStore.store, webhookSecret: SECRET });

const adapters: Array<{ name: string; billing: Billing; confirm: (intent: { id: string; clientSecret: string }, card: string) => Promise<void> }> = [
  {
    name: 'StripeBilling (msw)',
    billing: new StripeBilling({ secretKey: STRIPE_TEST_KEY, publishableKey: 'pk_test_contract', webhookSecret: SECRET, prices: PRICES }),
    confirm: async (intent, card) => stripe.confirm(intent.id, card),
  },
  {
    name: 'FakeBilling',
    billing: fake,
    // As its card form does: the intent named by its client secret.
    confirm: async (intent, card) => void (await fake.confirmSetupIntent(intent.clientSecret, { number: card })),
  },
];

const DAY = 86_400_000;

/** One contract for both adapters, so the fake cannot drift from Stripe's behaviour. */
describe.each(adapters)('Billing contract: $name', ({ billing, confirm }) => {
  async function savedCard(businessId: string, card = '4242 4242 4242 4242') {
    const customerId = await billing.createCustomer({ businessId, email: `${businessId}@example.com`, name: 'Crumb & Co' });
    const intent = await billing.createSetupIntent({ customerId, businessId });
    await confirm(intent, card);
    return { customerId, intent: await billing.retrieveSetupIntent(intent.id) };
  }

  it('a SetupIntent starts without a card and succeeds with 4242 4242 4242 4242', async () => {
    const customerId = await billing.createCustomer({ businessId: 'b-1', email: 'b1@example.com', name: 'Crumb & Co' });
    expect(customerId).toMatch(/^cus_/);
    const intent = await billing.createSetupIntent({ customerId, businessId: 'b-1' });
    expect(intent).toMatchObject({ id: expect.stringMatching(/^seti_/), status: 'requires_payment_method', customerId, paymentMethodId: null, lastError: null });
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_`));
    await confirm(intent, '4242 4242 4242 4242');
    expect(await billing.retrieveSetupIntent(intent.id)).toMatchObject({ status: 'succeeded', paymentMethodId: expect.stringMatching(/^pm_/), lastError: null });
  });

  it("declines 4000 0000 0000 0002 with Stripe's words", async () => {
    const { intent } = await savedCard('b-2', '4000 0000 0000 0002');
    expect(intent).toMatchObject({ status: 'requires_payment_method', paymentMethodId: null, lastError: 'Your card was declined.' });
  });

  it('subscribes with a trial (idempotent per key), or without one as active; cancels at once', async () => {
    const { customerId, intent } = await savedCard('b-3');
    const input = { customerId, planId: 'growth' as const, interval: 'year' as const, trialDays: 14, paymentMethodId: intent.paymentMethodId!, businessId: 'b-3', idempotencyKey: `k-${intent.id}` };
    const sub = await billing.createSubscription(input);
    expect(sub).toMatchObject({ id: expect.stringMatching(/^sub_/), customerId, status: 'trialing', planId: 'growth', interval: 'year', canceledAt: null });
    expect(Math.abs(sub.trialEnd!.getTime() - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
    expect(sub.currentPeriodEnd!.getTime()).toBe(sub.trialEnd!.getTime());
    expect((await billing.createSubscription(input)).id).toBe(sub.id);
    expect(await billing.retrieveSubscription(sub.id)).toMatchObject({ id: sub.id, status: 'trialing' });
    const canceled = await billing.cancelSubscription(sub.id);
    expect(canceled).toMatchObject({ id: sub.id, status: 'canceled', canceledAt: expect.any(Date) });
    expect((await billing.retrieveSubscription(sub.id)).status).toBe('canceled');

    const paid = await billing.createSubscription({ ...input, planId: 'starter', interval: 'month', trialDays: 0, idempotencyKey: `k2-${intent.id}` });
    expect(paid).toMatchObject({ status: 'active', trialEnd: null, planId: 'starter', interval: 'month' });
  });

  it('unknown objects are BillingError not_found', async () => {
    await expect(billing.retrieveSubscription('sub_missing')).rejects.toMatchObject({ name: 'BillingError', code: 'not_found' });
    await expect(billing.retrieveSetupIntent('seti_missing')).rejects.toBeInstanceOf(BillingError);
  });

  it('opens a portal session for a customer', async () => {
    const { customerId } = await savedCard('b-4');
    const { url } = await billing.createPortalSession({ customerId, returnUrl: 'http://localhost:3000/subscription-details' });
    expect(url).toMatch(/^(https:\/\/billing\.stripe\.com\/|\/billing-portal\?session=bps_fake_)/);
  });

  it('verifies webhook signatures made by the SDK test helper, and refuses others', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_1', object: 'subscription', customer: 'cus_1' } } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    expect(billing.parseWebhook(payload, header)).toEqual({ id: 'evt_1', type: 'customer.subscription.updated', customerId: 'cus_1', subscriptionId: 'sub_1' });
    const invoice = JSON.stringify({ id: 'evt_2', object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1', object: 'invoice', customer: 'cus_1', subscription: 'sub_2' } } });
    expect(billing.parseWebhook(invoice, Stripe.webhooks.generateTestHeaderString({ payload: invoice, secret: SECRET }))).toMatchObject({ subscriptionId: 'sub_2' });
    expect(() => billing.parseWebhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }))).toThrow(BillingError);
    expect(() => billing.parseWebhook(payload, null)).toThrow(BillingError);
  });
});

describe('StripeBilling sends what Stripe expects', () => {
  it('customer, SetupIntent and subscription bodies: metadata, off-session card, the configured price, the trial, an idempotency key', async () => {
    const billing = adapters[0]!.billing;
    stripe.requests.length = 0;
    const customerId = await billing.createCustomer({ businessId: 'b-9', email: 'b9@example.com', name: 'Crumb & Co' });
    const intent = await billing.createSetupIntent({ customerId, businessId: 'b-9' });
    stripe.confirm(intent.id, '4242424242424242');
    const pm = (await billing.retrieveSetupIntent(intent.id)).paymentMethodId!;
    await billing.createSubscription({ customerId, planId: 'pro', interval: 'month', trialDays: 7, paymentMethodId: pm, businessId: 'b-9', idempotencyKey: 'rewardloop-checkout-x' });
    const [customer, setup, , sub] = stripe.requests;
    expect(customer).toMatchObject({ method: 'POST', path: '/v1/customers', body: { email: 'b9@example.com', name: 'Crumb & Co', 'metadata[businessId]': 'b-9' } });
    expect(customer!.headers.authorization).toBe(`Bearer ${STRIPE_TEST_KEY}`);
    expect(setup).toMatchObject({ method: 'POST', path: '/v1/setup_intents', body: { customer: customerId, usage: 'off_session', 'automatic_payment_methods[enabled]': 'true' } });
    expect(sub).toMatchObject({
      method: 'POST',
      path: '/v1/subscriptions',
      body: {
        customer: customerId,
        'items[0][price]': 'price_pro_month',
        default_payment_method: pm,
        trial_period_days: '7',
        'trial_settings[end_behavior][missing_payment_method]': 'cancel',
        'metadata[businessId]': 'b-9',
      },
    });
    expect(sub!.headers['idempotency-key']).toBe('rewardloop-checkout-x');
  });
});

describe('with BILLING=stripe (Stripe at the network edge)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(stripeTestEnv('pk_test_rewardloop_contract'));
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('the checkout page gets the Payment Element’s keys; completion subscribes at Stripe to the configured price with the trial', async () => {
    const owner = await signedInOwner(app, 'Stripe Cafe');
    const started = await run(() => createExisting({ request: jsonRequest('/api/create-subscription-existing', { planId: 'growth', isYearly: true, price: 1 }, owner.jar), context: app.context(), params: {} }));
    expect(started.status).toBe(201);
    const { setupIntentId, clientSecret } = started.body as { setupIntentId: string; clientSecret: string };
    const page = await run(() => checkoutPage({ request: getRequest(`/stripe-checkout?setupIntentId=${setupIntentId}`, owner.jar), context: app.context(), params: {} }));
    expect(page.body).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_rewardloop_contract', clientSecret, details: { price: 490, trialDays: 14 } });
    // The fake's card form is not there with Stripe.
    expect((await run(() => fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { setupIntentId, cardNumber: '4242424242424242' }), context: app.context(), params: {} }))).status).toBe(404);
    const early = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, owner.jar), context: app.context(), params: {} }));
    expect(early).toMatchObject({ status: 402, body: { title: 'Setup Failed', message: 'Payment setup was not completed successfully.' } });
    stripe.confirm(setupIntentId, '4242424242424242');
    stripe.requests.length = 0;
    const done = await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, owner.jar), context: app.context(), params: {} }));
    expect(done).toMatchObject({ status: 200, body: { status: 'trialing', redirectTo: '/' } });
    const sub = stripe.requests.find((r) => r.path === '/v1/subscriptions' && r.method === 'POST')!;
    expect(sub.body).toMatchObject({ 'items[0][price]': 'price_growth_year', trial_period_days: '14', 'metadata[businessId]': owner.id });
    expect(sub.headers['idempotency-key']).toBe(`rewardloop-checkout-${setupIntentId}`);
    const portal = await run(() => portalApi({ request: jsonRequest('/api/stripe/create-portal-session', {}, owner.jar), context: app.context(), params: {} }));
    expect((portal.body as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    const webhook = await run(() =>
      webhookApi({ request: new Request('http://localhost:3000/api/stripe/webhook', { method: 'POST', headers: { 'Stripe-Signature': 't=1,v1=x' }, body: '{}' }), context: app.context(), params: {} }),
    );
    expect(webhook.status).toBe(503);
  });

  it('the CSP lets Stripe.js in on the checkout page only, and only with BILLING=stripe', () => {
    const csp = (billing: string, path: string) => contentSecurityPolicy('n', { config: { BILLING: billing } } as unknown as Root, false, path);
    expect(csp('stripe', '/stripe-checkout')).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' https://js.stripe.com");
    expect(csp('stripe', '/stripe-checkout')).toContain('frame-src https://js.stripe.com https://hooks.stripe.com');
    for (const [billing, path] of [['stripe', '/subscription-plans'], ['stripe', '/'], ['fake', '/stripe-checkout']]) {
      expect(csp(billing!, path!), `${billing} ${path}`).not.toContain('stripe.com');
    }
  });
});
