import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { queryBuilder } from '../shared/orm.ts';
import { GiftCardIssuance, SquareWebhookEvent } from './entities.ts';

/** The path Square posts to; Square signs APP_URL + this path (the notification URL of the subscription). */
export const SQUARE_WEBHOOK_PATH = '/api/square/webhook';

/**
 * Square's webhook signature: base64 of HMAC-SHA256, keyed with the subscription's signature key,
 * over the notification URL followed by the raw body. Compared in constant time.
 */
export function squareSignature(key: string, notificationUrl: string, body: string): string {
  return createHmac('sha256', key).update(notificationUrl + body).digest('base64');
}

export function isValidSquareSignature(input: { key: string; notificationUrl: string; body: string; signature: string }): boolean {
  const expected = Buffer.from(squareSignature(input.key, input.notificationUrl, input.body));
  const given = Buffer.from(input.signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export type WebhookResult =
  | { status: 503 | 401 | 403 | 400; message: string }
  | { status: 200; received: true; duplicate: boolean; applied: boolean; ignored?: string };

type Money = { amount?: unknown } | null | undefined;
type SquareEvent = {
  event_id?: unknown;
  type?: unknown;
  merchant_id?: unknown;
  created_at?: unknown;
  data?: {
    object?: {
      gift_card?: { id?: unknown; state?: unknown; balance_money?: Money };
      gift_card_activity?: { gift_card_id?: unknown; gift_card_balance_money?: Money; created_at?: unknown };
    };
  };
};

/** An id, type or state from the event: 1 to `max` printable ASCII characters (what we can store and look up), else null. */
const text = (v: unknown, max = 255): string | null => (typeof v === 'string' && v.length > 0 && v.length <= max && /^[\x21-\x7e]+$/.test(v) ? v : null);
const cents = (m: Money): number | null => {
  const amount = m && typeof m === 'object' ? m.amount : undefined;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null;
};

/**
 * POST /api/square/webhook (issue 5): checks the signature, records the event id (a redelivered
 * event is acknowledged and skipped), and keeps the state and balance of our Square gift cards
 * current from `gift_card.activity.created` and `gift_card.updated` events, for analytics. Only
 * cards issued for a business connected to the event's merchant are touched, and an event older
 * than the last one applied changes nothing (Square does not promise delivery order).
 */
export async function receiveSquareWebhook(
  deps: { em: EntityManager; signatureKey: string | null; appUrl: string; logger: Logger },
  input: { body: string; signature: string | null },
): Promise<WebhookResult> {
  if (!deps.signatureKey) return { status: 503, message: 'Square webhooks are not configured (SQUARE_WEBHOOK_SIGNATURE_KEY).' };
  if (!input.signature) return { status: 401, message: 'Missing x-square-hmacsha256-signature.' };
  const notificationUrl = new URL(SQUARE_WEBHOOK_PATH, deps.appUrl).toString();
  if (!isValidSquareSignature({ key: deps.signatureKey, notificationUrl, body: input.body, signature: input.signature })) {
    deps.logger.warn({ notificationUrl }, 'Square webhook with a bad signature');
    return { status: 403, message: 'Invalid signature.' };
  }
  let event: SquareEvent;
  try {
    event = JSON.parse(input.body) as SquareEvent;
  } catch {
    return { status: 400, message: 'Malformed JSON body.' };
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) return { status: 400, message: 'The event is not a JSON object.' };
  const eventId = text(event.event_id);
  const type = text(event.type, 100);
  if (!eventId || !type) return { status: 400, message: 'The event has no valid event_id or type (1 to 255 printable characters).' };
  const merchantId = text(event.merchant_id);
  // Square's RFC 3339 time of the event; one that does not parse or lies outside 2000 to a day from now
  // (PostgreSQL refuses far years) counts as now.
  const stamp = typeof event.created_at === 'string' ? Date.parse(event.created_at) : Number.NaN;
  const createdAt = stamp >= Date.UTC(2000, 0, 1) && stamp <= Date.now() + 86_400_000 ? new Date(stamp) : new Date();

  return deps.em.fork().transactional(async (tx) => {
    // on conflict do nothing: a redelivered event inserts nothing, and its effect is not applied twice.
    const fresh = await queryBuilder(tx, SquareWebhookEvent)
      .insert({ eventId, type, merchantId })
      .onConflict('eventId')
      .ignore()
      .returning('eventId')
      .execute<Pick<SquareWebhookEvent, 'eventId'> | undefined>('get');
    if (!fresh) return { status: 200 as const, received: true as const, duplicate: true, applied: false };

    let change: { giftCardId: string; state: string | null; balance: number | null } | null = null;
    if (type === 'gift_card.updated') {
      const card = event.data?.object?.gift_card;
      const giftCardId = text(card?.id);
      if (giftCardId) change = { giftCardId, state: text(card?.state, 20), balance: cents(card?.balance_money) };
    } else if (type === 'gift_card.activity.created') {
      const activity = event.data?.object?.gift_card_activity;
      const giftCardId = text(activity?.gift_card_id);
      if (giftCardId) change = { giftCardId, state: null, balance: cents(activity?.gift_card_balance_money) };
    }
    let applied = false;
    if (change && merchantId && (change.state !== null || change.balance !== null)) {
      // Our Square cards of the businesses connected to the event's merchant, unless a newer event was applied.
      const businesses = await tx.find(Business, { squareMerchantId: merchantId }, { fields: ['id'], disableIdentityMap: true });
      const updated =
        businesses.length === 0
          ? 0
          : await tx.nativeUpdate(
              GiftCardIssuance,
              {
                businessId: { $in: businesses.map((b) => b.id) },
                giftCardId: change.giftCardId,
                isSquareGiftCard: true,
                $or: [{ cardUpdatedAt: null }, { cardUpdatedAt: { $lte: createdAt } }],
              },
              {
                ...(change.state !== null ? { cardState: change.state } : {}),
                ...(change.balance !== null ? { cardBalanceCents: change.balance } : {}),
                cardUpdatedAt: createdAt,
              },
            );
      applied = updated > 0;
    }
    // Unknown card, merchant or event type: acknowledged (Square would only retry it) and logged.
    const ignored = applied ? undefined : !change ? 'not a gift card event RewardLoop keeps' : 'no gift card of ours matches this event';
    deps.logger.info({ eventId, type, applied, ...(ignored ? { ignored } : {}) }, 'Square webhook received');
    return { status: 200 as const, received: true as const, duplicate: false, applied, ...(ignored ? { ignored } : {}) };
  });
}
