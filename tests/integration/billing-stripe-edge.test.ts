import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { action as createExisting } from '#app/routes/api+/create-subscription-existing.ts';
import { action as webhookApi } from '#app/routes/api+/stripe.webhook.ts';
import { action as completeApi } from '#app/routes/api+/subscription-complete.ts';
import { action as trialSignupAction } from '#app/routes/_auth+/trial-signup.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { createStripeMock, STRIPE_API, stripeTestEnv } from '../mocks/stripe.ts';
import { signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { query } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 25, items 4 and 6: Stripe's webhooks never answer 500 and never fail open. Events are signed with the
// SDK's own helper; Stripe's API is mocked at its HTTP edge (msw), the adapter is the real one.

const SECRET = 'whsec_rewardloop_webhooks_0123456789';
const stripe = createStripeMock();
const server = setupServer(...stripe.handlers);
let app: TestApp;

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  app = await createTestApp({ ...stripeTestEnv('pk_test_rewardloop_webhooks'), STRIPE_WEBHOOK_SECRET: SECRET });
}, 60_000);
afterEach(() => server.resetHandlers());
afterAll(async () => {
  await app?.close();
  server.close();
});

const send = (payload: string) =>
  run(() =>
    webhookApi({
      request: new Request('http://localhost:3000/api/stripe/webhook', {
        method: 'POST',
        headers: { 'Stripe-Signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }), 'Content-Type': 'application/json' },
        body: payload,
      }),
      context: app.context(),
      params: {},
    }),
  );
const recorded = async (id: string) => (await query<{ n: number }>(app, 'select count(*)::int as n from billing_webhook_events where event_id = ?', [id]))[0]!.n;

/** An owner on a Stripe trial: the checkout through the routes, the card confirmed as Stripe.js does. */
async function subscribedOwner(name: string) {
  const owner = await signedInOwner(app, name);
  const started = await run(() => createExisting({ request: jsonRequest('/api/create-subscription-existing', { planId: 'starter', isYearly: true }, owner.jar), context: app.context(), params: {} }));
  const { setupIntentId } = started.body as { setupIntentId: string };
  stripe.confirm(setupIntentId, '4242424242424242');
  expect((await run(() => completeApi({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, owner.jar), context: app.context(), params: {} }))).status).toBe(200);
  const [row] = await query<{ stripe_subscription_id: string; stripe_customer_id: string }>(app, 'select stripe_subscription_id, stripe_customer_id from businesses where id = ?', [owner.id]);
  return { ...owner, subscriptionId: row!.stripe_subscription_id, customerId: row!.stripe_customer_id };
}

const failedInvoice = (eventId: string, sub: string, customer: string) =>
  JSON.stringify({ id: eventId, object: 'event', type: 'invoice.payment_failed', data: { object: { id: `in_${eventId}`, object: 'invoice', customer, parent: { subscription_details: { subscription: sub } } } } });

describe('POST /api/stripe/webhook: envelopes, unknown objects, outages (BILLING=stripe)', () => {
  it('a signed event with a malformed envelope is a 400 and is not recorded', async () => {
    const envelopes: Array<[string, string]> = [
      ['numeric id', JSON.stringify({ id: 12345, object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_x', object: 'subscription' } } })],
      ['id over 255 characters', JSON.stringify({ id: `evt_${'x'.repeat(300)}`, object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_x', object: 'subscription' } } })],
      ['NUL in the id', JSON.stringify({ id: 'evt_\u0000nul', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_x', object: 'subscription' } } })],
      ['no type', JSON.stringify({ id: 'evt_no_type', object: 'event', data: { object: { id: 'sub_x', object: 'subscription' } } })],
      ['numeric type', JSON.stringify({ id: 'evt_num_type', object: 'event', type: 7, data: { object: {} } })],
      ['no data.object', JSON.stringify({ id: 'evt_no_object', object: 'event', type: 'invoice.paid', data: {} })],
      ['data.object a string', JSON.stringify({ id: 'evt_string_object', object: 'event', type: 'invoice.paid', data: { object: 'sub_x' } })],
    ];
    for (const [label, payload] of envelopes) {
      const res = await send(payload);
      expect(res.status, label).toBe(400);
    }
    expect((await query<{ n: number }>(app, 'select count(*)::int as n from billing_webhook_events'))[0]!.n).toBe(0);
  });

  it('an unknown customer or subscription is 200 "ignored", recorded once', async () => {
    const payload = JSON.stringify({ id: 'evt_unknown_sub', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_nobody', object: 'subscription', customer: 'cus_nobody' } } });
    const res = await send(payload);
    expect(res).toMatchObject({ status: 200, body: { received: true, message: 'Ignored: no business has this subscription or customer.' } });
    expect(await recorded('evt_unknown_sub')).toBe(1);
    // A known customer with a subscription Stripe does not know (a deleted or test object): ignored too.
    const owner = await subscribedOwner('Unknown Sub Cafe');
    await query(app, 'update businesses set stripe_subscription_id = null where id = ?', [owner.id]);
    const ghost = JSON.stringify({ id: 'evt_ghost_sub', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_ghost', object: 'subscription', customer: owner.customerId } } });
    expect(await send(ghost)).toMatchObject({ status: 200, body: { message: 'Ignored: the provider does not know this subscription (not_found).' } });
    expect((await query<{ subscription_status: string }>(app, 'select subscription_status from businesses where id = ?', [owner.id]))[0]!.subscription_status).toBe('trialing');
  });

  it('Stripe unreachable while handling: 503 and nothing recorded, so the redelivery is handled', async () => {
    const owner = await subscribedOwner('Outage Cafe');
    const payload = JSON.stringify({ id: 'evt_outage', object: 'event', type: 'customer.subscription.deleted', data: { object: { id: owner.subscriptionId, object: 'subscription', customer: owner.customerId } } });
    server.use(http.get(`${STRIPE_API}/v1/subscriptions/:id`, () => HttpResponse.error()));
    const down = await send(payload);
    expect(down.status).toBe(503);
    expect(await recorded('evt_outage')).toBe(0);
    server.resetHandlers();
    stripe.setStatus(owner.subscriptionId, 'canceled');
    expect(await send(payload)).toMatchObject({ status: 200, body: { message: 'Handled.' } });
    expect(await recorded('evt_outage')).toBe(1);
    expect((await query<{ subscription_status: string }>(app, 'select subscription_status from businesses where id = ?', [owner.id]))[0]!.subscription_status).toBe('canceled');
  });

  it('invoice.payment_failed emails the owner only when Stripe still says the subscription is unpaid', async () => {
    const owner = await subscribedOwner('Payment Cafe');
    const mails = async () => (await readOutbox(app.root)).filter((m) => m.to === owner.email && m.subject === 'Your RewardLoop payment failed');
    // A forged or stale event while Stripe says trialing: recorded, applied, no email.
    expect((await send(failedInvoice('evt_pf_stale', owner.subscriptionId, owner.customerId))).status).toBe(200);
    expect(await mails()).toHaveLength(0);
    stripe.setStatus(owner.subscriptionId, 'past_due');
    expect((await send(failedInvoice('evt_pf_real', owner.subscriptionId, owner.customerId))).status).toBe(200);
    expect(await mails()).toHaveLength(1);
    expect((await query<{ subscription_status: string }>(app, 'select subscription_status from businesses where id = ?', [owner.id]))[0]!.subscription_status).toBe('past_due');
  });
});

describe('/trial-signup with a plan while Stripe cannot be reached', () => {
  it('creates the account and says why the checkout did not start, as the plans page does', async () => {
    server.use(http.post(`${STRIPE_API}/v1/customers`, () => HttpResponse.error()));
    const email = `down-${Date.now()}@example.com`;
    const res = await run(() =>
      trialSignupAction({
        request: formRequest('/trial-signup', { businessName: 'Down Bakery', email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', agreeToTerms: 'on', planId: 'growth', billing: 'yearly' }),
        context: app.context(),
        params: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/subscription-plans?billing=yearly');
    const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
    const { toast } = await readToast(getRequest('/subscription-plans', jar), app.context());
    expect(toast).toEqual({ title: 'Selection Failed', description: 'Your account was created, but the checkout could not start: Server error. Please try again in a moment.', type: 'error' });
    expect(await query(app, 'select id from businesses where email = ?', [email])).toHaveLength(1);
  });
});
