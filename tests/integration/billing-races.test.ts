import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as fakeConfirm } from '#app/routes/api+/billing.fake.confirm-setup.ts';
import { action as createExisting } from '#app/routes/api+/create-subscription-existing.ts';
import { action as cancelApi } from '#app/routes/api+/stripe.cancel-subscription.ts';
import { action as completeApi } from '#app/routes/api+/subscription-complete.ts';
import { createStripeMock, stripeTestEnv } from '../mocks/stripe.ts';
import { signedInOwner } from '../setup/factories.ts';
import { jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { query } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 25, item 1: one live subscription per business whatever the concurrency. Six checkouts of one
// owner completed at the same moment used to make six subscriptions (the business row kept the last).

const stripe = createStripeMock();
const server = setupServer(...stripe.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const STRIPE_ENV = stripeTestEnv('pk_test_rewardloop_races');

type Provider = {
  name: string;
  env: Record<string, string>;
  /** The card confirmed as the provider's own page does (the fake's form, or Stripe.js). */
  confirm(app: TestApp, checkout: { setupIntentId: string; clientSecret: string }): Promise<void>;
  /** The live (not canceled) subscriptions the provider holds for the customer. */
  liveAtProvider(app: TestApp, customerId: string): Promise<number>;
};

let ips = 0;
/** A context from an address of its own: the card form's per-address limit is not what is tested here. */
const ctx = (app: TestApp) => {
  ips += 1;
  return app.context(`10.25.${(ips >> 8) & 255}.${ips & 255}`);
};

const providers: Provider[] = [
  {
    name: 'fake billing',
    env: {},
    async confirm(app, { clientSecret }) {
      const res = await run(() => fakeConfirm({ request: jsonRequest('/api/billing/fake/confirm-setup', { clientSecret, cardNumber: '4242 4242 4242 4242' }), context: ctx(app), params: {} }));
      expect(res.status).toBe(200);
    },
    async liveAtProvider(app, customerId) {
      const rows = await query<{ n: number }>(
        app,
        `select count(*)::int as n from demo.objects where kind = 'billing-subscription' and data->>'customerId' = ? and data->>'status' <> 'canceled'`,
        [customerId],
      );
      return rows[0]!.n;
    },
  },
  {
    name: 'Stripe (msw at api.stripe.com)',
    env: STRIPE_ENV,
    async confirm(_app, { setupIntentId }) {
      stripe.confirm(setupIntentId, '4242424242424242');
    },
    async liveAtProvider(_app, customerId) {
      return stripe.subscriptionsOf(customerId).filter((s) => s.status !== 'canceled').length;
    },
  },
];

describe.each(providers)('one live subscription per business: $name', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(provider.env);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  const start = (jar: CookieJar) =>
    run(() => createExisting({ request: jsonRequest('/api/create-subscription-existing', { planId: 'growth', isYearly: true }, jar), context: ctx(app), params: {} }));
  const complete = (jar: CookieJar, setupIntentId: string) =>
    run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, jar), context: ctx(app), params: {} }));
  const row = async (id: string) =>
    (await query<{ stripe_customer_id: string; stripe_subscription_id: string | null; subscription_status: string }>(app, 'select stripe_customer_id, stripe_subscription_id, subscription_status from businesses where id = ?', [id]))[0]!;

  it('10 checkouts started at once make one provider customer', async () => {
    const owner = await signedInOwner(app, 'Ten Tabs Cafe');
    const started = await Promise.all(Array.from({ length: 10 }, () => start(owner.jar)));
    expect(started.map((r) => r.status)).toEqual(Array(10).fill(201));
    const customers = await query<{ customer_id: string }>(app, 'select distinct customer_id from billing_checkouts where business_id = ?', [owner.id]);
    expect(customers).toHaveLength(1);
  });

  it('10 confirmed checkouts completed at once, 10 rounds: exactly one subscription here and at the provider', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 10; round += 1) {
      const owner = await signedInOwner(app, `Race Cafe ${round}`);
      const checkouts: Array<{ setupIntentId: string; clientSecret: string }> = [];
      for (let i = 0; i < 10; i += 1) {
        const res = await start(owner.jar);
        expect(res.status).toBe(201);
        checkouts.push(res.body as { setupIntentId: string; clientSecret: string });
      }
      for (const c of checkouts) await provider.confirm(app, c);
      const results = await Promise.all(checkouts.map((c) => complete(owner.jar, c.setupIntentId)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, ...Array(9).fill(409)]);
      for (const r of results.filter((x) => x.status === 409)) {
        expect(r.body).toEqual({ title: 'Subscription Already Exists', message: 'You already have an active subscription. Redirecting to manage your plan.' });
      }
      const business = await row(owner.id);
      expect(business.subscription_status).toBe('trialing');
      const completed = await query<{ subscription_id: string }>(app, 'select subscription_id from billing_checkouts where business_id = ? and completed_at is not null', [owner.id]);
      expect(completed.map((c) => c.subscription_id)).toEqual([business.stripe_subscription_id]);
      expect(await provider.liveAtProvider(app, business.stripe_customer_id), `round ${round}`).toBe(1);
    }
  });

  it('a finished checkout replayed after Cancel says the checkout is used, and the status stays canceled', async () => {
    const owner = await signedInOwner(app, 'Replay Cafe');
    const started = await start(owner.jar);
    const checkout = started.body as { setupIntentId: string; clientSecret: string };
    await provider.confirm(app, checkout);
    expect((await complete(owner.jar, checkout.setupIntentId)).status).toBe(200);
    // A reload while it is live answers as before.
    expect(await complete(owner.jar, checkout.setupIntentId)).toMatchObject({ status: 200, body: { status: 'trialing' } });
    expect((await run(() => cancelApi({ request: jsonRequest('/api/stripe/cancel-subscription', {}, owner.jar), context: ctx(app), params: {} }))).status).toBe(200);
    const replay = await complete(owner.jar, checkout.setupIntentId);
    expect(replay).toMatchObject({ status: 409, body: { title: 'Checkout Already Used' } });
    expect((replay.body as { message: string }).message).not.toMatch(/publish now/i);
    expect((await row(owner.id)).subscription_status).toBe('canceled');
  });
});
