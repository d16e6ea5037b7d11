import { randomBytes } from 'node:crypto';
import { http, HttpResponse } from 'msw';

export const STRIPE_API = 'https://api.stripe.com';
export const STRIPE_TEST_KEY = 'sk_test_rewardloop_contract_0123456789';

/** The configuration of BILLING=stripe against this mock: the test key and the six price ids the mock knows. */
export function stripeTestEnv(publishableKey: string): Record<string, string> {
  return {
    BILLING: 'stripe',
    STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
    STRIPE_PUBLISHABLE_KEY: publishableKey,
    STRIPE_PRICE_STARTER_MONTHLY: 'price_starter_month',
    STRIPE_PRICE_STARTER_YEARLY: 'price_starter_year',
    STRIPE_PRICE_GROWTH_MONTHLY: 'price_growth_month',
    STRIPE_PRICE_GROWTH_YEARLY: 'price_growth_year',
    STRIPE_PRICE_PRO_MONTHLY: 'price_pro_month',
    STRIPE_PRICE_PRO_YEARLY: 'price_pro_year',
  };
}

export type RecordedStripeRequest = { method: string; path: string; headers: Record<string, string>; body: Record<string, string> };

type Obj = Record<string, unknown>;

const hex = () => randomBytes(12).toString('hex');
const nowUnix = () => Math.floor(Date.now() / 1000);

const stripeError = (status: number, type: string, message: string, extra: Obj = {}) => HttpResponse.json({ error: { type, message, ...extra } }, { status });

/**
 * Stripe's REST API at the network edge (api.stripe.com), enough for the Billing port: customers,
 * SetupIntents, subscriptions (trial, cancel), billing portal sessions. Bodies arrive form-encoded as
 * the SDK sends them and are recorded flat (`items[0][price]`) for assertions. `confirm` plays
 * Stripe.js confirming a SetupIntent in the browser with a test card.
 */
export function createStripeMock() {
  const customers = new Map<string, Obj>();
  const intents = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const idempotent = new Map<string, Obj>();
  const requests: RecordedStripeRequest[] = [];

  const record = async (request: Request) => {
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
    const entry: RecordedStripeRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body: Object.fromEntries(new URLSearchParams(text)),
    };
    requests.push(entry);
    return entry;
  };
  const missing = (kind: string, id: string) => stripeError(404, 'invalid_request_error', `No such ${kind}: '${id}'`, { code: 'resource_missing', param: 'id' });

  const handlers = [
    http.post(`${STRIPE_API}/v1/customers`, async ({ request }) => {
      const { body } = await record(request);
      const customer = { id: `cus_${hex()}`, object: 'customer', email: body.email, name: body.name, metadata: { businessId: body['metadata[businessId]'] } };
      customers.set(customer.id, customer);
      return HttpResponse.json(customer);
    }),
    http.post(`${STRIPE_API}/v1/setup_intents`, async ({ request }) => {
      const { body } = await record(request);
      if (!customers.has(body.customer!)) return missing('customer', body.customer!);
      const id = `seti_${hex()}`;
      const intent = { id, object: 'setup_intent', client_secret: `${id}_secret_${hex()}`, status: 'requires_payment_method', customer: body.customer, payment_method: null, last_setup_error: null, usage: body.usage };
      intents.set(id, intent);
      return HttpResponse.json(intent);
    }),
    http.get(`${STRIPE_API}/v1/setup_intents/:id`, async ({ request, params }) => {
      await record(request);
      const intent = intents.get(String(params.id));
      return intent ? HttpResponse.json(intent) : missing('setupintent', String(params.id));
    }),
    http.post(`${STRIPE_API}/v1/subscriptions`, async ({ request }) => {
      const entry = await record(request);
      const key = entry.headers['idempotency-key'];
      if (key && idempotent.has(key)) return HttpResponse.json(idempotent.get(key));
      const { body } = entry;
      if (!customers.has(body.customer!)) return missing('customer', body.customer!);
      const trialDays = Number(body.trial_period_days ?? 0);
      const start = nowUnix();
      const trialEnd = trialDays > 0 ? start + trialDays * 86_400 : null;
      const periodEnd = trialEnd ?? start + 30 * 86_400;
      const sub = {
        id: `sub_${hex()}`,
        object: 'subscription',
        customer: body.customer,
        status: trialEnd ? 'trialing' : 'active',
        trial_end: trialEnd,
        canceled_at: null,
        default_payment_method: body.default_payment_method,
        items: { object: 'list', data: [{ id: `si_${hex()}`, price: { id: body['items[0][price]'] }, current_period_start: start, current_period_end: periodEnd }] },
      };
      subscriptions.set(sub.id, sub);
      if (key) idempotent.set(key, sub);
      return HttpResponse.json(sub);
    }),
    http.get(`${STRIPE_API}/v1/subscriptions/:id`, async ({ request, params }) => {
      await record(request);
      const sub = subscriptions.get(String(params.id));
      return sub ? HttpResponse.json(sub) : missing('subscription', String(params.id));
    }),
    http.delete(`${STRIPE_API}/v1/subscriptions/:id`, async ({ request, params }) => {
      await record(request);
      const sub = subscriptions.get(String(params.id));
      if (!sub) return missing('subscription', String(params.id));
      sub.status = 'canceled';
      sub.canceled_at = nowUnix();
      return HttpResponse.json(sub);
    }),
    http.post(`${STRIPE_API}/v1/billing_portal/sessions`, async ({ request }) => {
      const { body } = await record(request);
      if (!customers.has(body.customer!)) return missing('customer', body.customer!);
      return HttpResponse.json({ id: `bps_${hex()}`, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url, url: `https://billing.stripe.com/p/session/test_${hex()}` });
    }),
  ];

  return {
    handlers,
    requests,
    /** Sets a subscription's status at Stripe (a failed renewal makes it `past_due`). */
    setStatus(id: string, status: string) {
      const sub = subscriptions.get(id);
      if (!sub) throw new Error(`no subscription ${id}`);
      sub.status = status;
    },
    /** The subscriptions Stripe holds for a customer (what would charge the card). */
    subscriptionsOf(customerId: string) {
      return [...subscriptions.values()].filter((sub) => sub.customer === customerId);
    },
    /** Stripe.js confirming the SetupIntent in the browser with a test card. */
    confirm(id: string, card: string) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      const digits = card.replace(/\s/g, '');
      if (digits === '4242424242424242') {
        intent.status = 'succeeded';
        intent.payment_method = `pm_${hex()}`;
        intent.last_setup_error = null;
      } else {
        intent.status = 'requires_payment_method';
        intent.last_setup_error = { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
      }
    },
  };
}
