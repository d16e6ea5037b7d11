import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { SurveyResponse } from '../responses/server.ts';

const now = () => new Date();

/**
 * A gift card issued for one survey response (spec `gift_card_issuances`); at most one per response
 * (unique `survey_response_id`). Written in one transaction with the response's gift card fields and
 * the `reward-email` job, once the card holds its value. The email and Square state columns are
 * ours (ADR 018).
 */
export const GiftCardIssuance = defineEntity({
  name: 'GiftCardIssuance',
  tableName: 'gift_card_issuances',
  indexes: [{ properties: ['businessId', 'issuedAt'] }, { properties: ['giftCardId'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    surveyResponseId: p
      .manyToOne(SurveyResponse)
      .mapToPk()
      .fieldName('survey_response_id')
      .unique()
      .deleteRule('cascade'),
    customerEmail: p.string().length(255),
    customerName: p.string().length(255).nullable(),
    giftCardNumber: p.string().length(64),
    giftCardId: p.string().length(255).nullable(),
    rewardValue: p.integer(),
    rewardTier: p.string().length(20),
    isSquareGiftCard: p.boolean().default(false),
    issuedAt: p.datetime().defaultRaw('now()').onCreate(now),
    /** When the reward email was accepted by the mail server (or written to the outbox); null until then. */
    emailedAt: p.datetime().nullable(),
    /** A sender holds the email until this time (a lease): no second sender starts meanwhile. */
    emailClaimedUntil: p.datetime().nullable(),
    emailAttempts: p.integer().default(0),
    emailLastError: p.text().nullable(),
    /** Set when the last retry of the email failed: the reward shows as failed until it is retried. */
    emailFailedAt: p.datetime().nullable(),
    /** Square's state of the card (ACTIVE, DEACTIVATED, BLOCKED, ...), from the issue and webhooks. */
    cardState: p.string().length(20).nullable(),
    /** Square's balance of the card in cents, from the issue and webhooks. */
    cardBalanceCents: p.integer().nullable(),
    /** Time of the newest Square event applied: an older event arriving late changes nothing. */
    cardUpdatedAt: p.datetime().nullable(),
  },
});
export type GiftCardIssuance = InferEntity<typeof GiftCardIssuance>;

/** Who provides a reward's card. Pinned at the first attempt: a retry never switches provider. */
export type GiftCardProvider = 'square' | 'test';

/**
 * The reward-issue job's progress for one response, before an issuance exists (ADR 018): which
 * provider and location it uses, the card once created (saved before it is activated, so a crash
 * between the two resumes with the same card), attempts and the last error, and `failedAt` when the
 * last retry failed.
 */
export const GiftCardRequest = defineEntity({
  name: 'GiftCardRequest',
  tableName: 'gift_card_requests',
  indexes: [{ properties: ['businessId', 'failedAt'] }],
  properties: {
    surveyResponseId: p.manyToOne(SurveyResponse).mapToPk().fieldName('survey_response_id').primary().deleteRule('cascade'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    provider: p.string().length(10).$type<GiftCardProvider>().nullable(),
    locationId: p.string().length(255).nullable(),
    giftCardId: p.string().length(255).nullable(),
    gan: p.string().length(64).nullable(),
    attempts: p.integer().default(0),
    lastError: p.text().nullable(),
    lastAttemptAt: p.datetime().nullable(),
    failedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type GiftCardRequest = InferEntity<typeof GiftCardRequest>;

/** A Square webhook event we have handled, by its `event_id`: a redelivery is recognised and skipped. */
export const SquareWebhookEvent = defineEntity({
  name: 'SquareWebhookEvent',
  tableName: 'square_webhook_events',
  properties: {
    eventId: p.string().length(255).primary(),
    type: p.string().length(100),
    merchantId: p.string().length(255).nullable(),
    receivedAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type SquareWebhookEvent = InferEntity<typeof SquareWebhookEvent>;
