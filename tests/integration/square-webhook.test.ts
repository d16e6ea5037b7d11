import { WebhooksHelper } from 'square';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, loader } from '#app/routes/api+/square.webhook.ts';
import { isValidSquareSignature, squareSignature } from '../../modules/rewards/webhooks.ts';
import { BASE, run } from '../setup/http.ts';
import { query, rewardingBusiness } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

const KEY = 'whsec-test-signature-key';
const URL_SIGNED = 'http://localhost:3000/api/square/webhook';

let app: TestApp;
let businessId: string;
let issuanceId: string;

/** A request as Square sends it: the raw JSON, signed over the notification URL + body. */
function squarePost(body: string, signature: string | null = squareSignature(KEY, URL_SIGNED, body)) {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (signature !== null) headers.set('x-square-hmacsha256-signature', signature);
  return new Request(`${BASE}/api/square/webhook`, { method: 'POST', headers, body });
}
const post = (request: Request, on: TestApp = app) => run(() => action({ request, context: on.context(), params: {} }));

let eventNo = 0;
function activityEvent(options: { giftCardId?: string; balance: number; createdAt?: string; merchantId?: string; eventId?: string }) {
  eventNo += 1;
  return JSON.stringify({
    merchant_id: options.merchantId ?? 'TEST-MERCHANT',
    type: 'gift_card.activity.created',
    event_id: options.eventId ?? `evt-${eventNo}-${Date.now()}`,
    created_at: options.createdAt ?? new Date().toISOString(),
    data: {
      type: 'gift_card_activity',
      id: `gcact-${eventNo}`,
      object: {
        gift_card_activity: {
          id: `gcact-${eventNo}`,
          type: 'REDEEM',
          location_id: 'TEST-LOCATION',
          created_at: options.createdAt ?? new Date().toISOString(),
          gift_card_id: options.giftCardId ?? 'gftc:webhook-card',
          gift_card_gan: '7783320000000001',
          gift_card_balance_money: { amount: options.balance, currency: 'USD' },
        },
      },
    },
  });
}

const card = async () =>
  (await query<{ card_state: string | null; card_balance_cents: number | null }>(app, `select card_state, card_balance_cents from gift_card_issuances where id = ?`, [issuanceId]))[0]!;

beforeAll(async () => {
  app = await createTestApp({ SQUARE_WEBHOOK_SIGNATURE_KEY: KEY });
  const shop = await rewardingBusiness(app, 'Webhook Cafe', { square: true });
  businessId = shop.businessId;
  const [response] = await query<{ id: string }>(
    app,
    `insert into survey_responses (business_id, customer_email, responses, reward_tier, reward_value) values (?, 'hook@example.com', '{}', 'Gold', 800) returning id`,
    [businessId],
  );
  const [issuance] = await query<{ id: string }>(
    app,
    `insert into gift_card_issuances (business_id, survey_response_id, customer_email, gift_card_number, gift_card_id, reward_value, reward_tier, is_square_gift_card, card_state, card_balance_cents)
     values (?, ?, 'hook@example.com', '7783320000000001', 'gftc:webhook-card', 800, 'Gold', true, 'ACTIVE', 800) returning id`,
    [businessId, response!.id],
  );
  issuanceId = issuance!.id;
});
afterAll(async () => {
  await app?.close();
});

describe('POST /api/square/webhook', () => {
  it("signs like Square's own SDK verifies", async () => {
    const body = activityEvent({ balance: 1 });
    const signature = squareSignature(KEY, URL_SIGNED, body);
    expect(await WebhooksHelper.verifySignature({ requestBody: body, signatureHeader: signature, signatureKey: KEY, notificationUrl: URL_SIGNED })).toBe(true);
    expect(isValidSquareSignature({ key: KEY, notificationUrl: URL_SIGNED, body, signature })).toBe(true);
    expect(isValidSquareSignature({ key: KEY, notificationUrl: URL_SIGNED, body: `${body} `, signature })).toBe(false);
    expect(isValidSquareSignature({ key: 'another key', notificationUrl: URL_SIGNED, body, signature })).toBe(false);
  });

  it('updates the card balance from gift_card.activity.created, then the state from gift_card.updated', async () => {
    const res = await post(squarePost(activityEvent({ balance: 350 })));
    expect(res).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    expect(await card()).toEqual({ card_state: 'ACTIVE', card_balance_cents: 350 });

    const updated = JSON.stringify({
      merchant_id: 'TEST-MERCHANT',
      type: 'gift_card.updated',
      event_id: `evt-updated-${Date.now()}`,
      created_at: new Date().toISOString(),
      data: { type: 'gift_card', id: 'gftc:webhook-card', object: { gift_card: { id: 'gftc:webhook-card', type: 'DIGITAL', state: 'DEACTIVATED', balance_money: { amount: 0, currency: 'USD' }, gan: '7783320000000001' } } },
    });
    expect((await post(squarePost(updated))).status).toBe(200);
    expect(await card()).toEqual({ card_state: 'DEACTIVATED', card_balance_cents: 0 });
  });

  it('a redelivered event id is acknowledged and changes nothing', async () => {
    const body = activityEvent({ balance: 120, eventId: 'evt-redelivered' });
    expect((await post(squarePost(body))).body).toEqual({ received: true, duplicate: false });
    await query(app, `update gift_card_issuances set card_balance_cents = 999 where id = ?`, [issuanceId]);
    expect((await post(squarePost(body))).body).toEqual({ received: true, duplicate: true });
    expect((await card()).card_balance_cents).toBe(999);
    const [row] = await query<{ n: number }>(app, `select count(*)::int as n from square_webhook_events where event_id = 'evt-redelivered'`);
    expect(row!.n).toBe(1);
  });

  it('an event older than the last one applied, another merchant, or a card that is not ours changes nothing', async () => {
    await post(squarePost(activityEvent({ balance: 500 })));
    await post(squarePost(activityEvent({ balance: 1, createdAt: '2020-01-01T00:00:00Z' })));
    await post(squarePost(activityEvent({ balance: 2, merchantId: 'SOMEONE-ELSE' })));
    await post(squarePost(activityEvent({ balance: 3, giftCardId: 'gftc:not-ours' })));
    expect((await card()).card_balance_cents).toBe(500);
  });

  it('refuses a missing signature (401), a wrong one (403) and a malformed event (400); GET is 405', async () => {
    const body = activityEvent({ balance: 7 });
    expect((await post(squarePost(body, null))).status).toBe(401);
    expect((await post(squarePost(body, squareSignature('wrong-key', URL_SIGNED, body)))).status).toBe(403);
    expect((await post(squarePost(body, squareSignature(KEY, 'https://evil.example/api/square/webhook', body)))).status).toBe(403);
    expect((await post(squarePost('{not json'))).status).toBe(400);
    expect((await post(squarePost(JSON.stringify({ type: 'gift_card.updated' })))).status).toBe(400);
    expect((await card()).card_balance_cents).not.toBe(7);
    expect((await run(() => loader())).status).toBe(405);
  });

  it('a signed event of any shape answers 400 or 200, never 500; one for a card that is not ours is acknowledged as ignored', async () => {
    const bad = [
      JSON.stringify({ event_id: 'evt\u0000nul', type: 'gift_card.updated' }),
      JSON.stringify({ event_id: 12345, type: 'gift_card.updated' }),
      JSON.stringify({ event_id: 'e'.repeat(300), type: 'gift_card.updated' }),
      JSON.stringify({ event_id: 'evt-type', type: { nested: true } }),
      '[1,2,3]',
      'null',
      '"just text"',
    ];
    for (const body of bad) {
      const res = await post(squarePost(body));
      expect(res.status, body.slice(0, 60)).toBe(400);
    }
    const odd = [
      JSON.stringify({ event_id: `evt-far-${Date.now()}`, type: 'gift_card.updated', merchant_id: 'TEST-MERCHANT', created_at: '-100000-01-01T00:00:00Z', data: { object: { gift_card: { id: 'gftc:webhook-card', state: 'ACTIVE' } } } }),
      JSON.stringify({ event_id: `evt-num-${Date.now()}`, type: 'gift_card.updated', merchant_id: 'TEST-MERCHANT', data: { object: 7 } }),
      JSON.stringify({ event_id: `evt-nulcard-${Date.now()}`, type: 'gift_card.updated', merchant_id: 'TEST-MERCHANT', data: { object: { gift_card: { id: 'gftc:\u0000', state: 'ACTIVE' } } } }),
    ];
    for (const body of odd) expect((await post(squarePost(body))).status, body.slice(0, 80)).toBe(200);
    const notOurs = await post(squarePost(activityEvent({ balance: 3, giftCardId: 'gftc:someone-elses' })));
    expect(notOurs).toMatchObject({ status: 200, body: { received: true, duplicate: false, ignored: 'no gift card of ours matches this event' } });
  });

  it('answers 503 when no signature key is configured', async () => {
    const bare = await createTestApp();
    try {
      const res = await post(squarePost(activityEvent({ balance: 1 })), bare);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Square webhooks are not configured (SQUARE_WEBHOOK_SIGNATURE_KEY).' });
    } finally {
      await bare.close();
    }
  });
});
