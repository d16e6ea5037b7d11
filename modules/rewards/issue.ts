import { raw, type EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/index.ts';
import { posCredentials } from '../pos/server.ts';
import { SurveyResponse } from '../responses/server.ts';
import { isUuid } from '../shared/ids.ts';
import { queryBuilder } from '../shared/orm.ts';
import { appendAudit, holdStatus } from '../trust/server.ts';
import { GiftCardError, type GiftCardCredentials, type GiftCards, type IssuedCard } from './port.ts';
import { GiftCardIssuance, GiftCardRequest } from './entities.ts';
import { giftCardProviderFor } from './card-provider.ts';

/** What the reward jobs and `reward-cli rewards` need; the composition root builds it. */
export type RewardDeps = {
  /** The root EntityManager: every run forks its own. */
  em: EntityManager;
  jobs: JobQueue;
  /** The adapters: `square` only when GIFT_CARDS=square. */
  giftCards: { square: GiftCards | null; test: GiftCards };
  /** Decrypts the business's Square token (TOKEN_ENCRYPTION_KEY). */
  tokenKey: string;
  logger: Logger;
};

/** What an owner, support and the email see of an issued card. */
export type IssuanceSummary = {
  id: string;
  surveyResponseId: string;
  businessId: string;
  customerEmail: string;
  customerName: string | null;
  giftCardNumber: string;
  giftCardId: string | null;
  rewardValue: number;
  rewardTier: string;
  isSquareGiftCard: boolean;
  issuedAt: Date;
  emailedAt: Date | null;
};

export type IssueOutcome =
  | { status: 'not-found' }
  | { status: 'not-eligible'; reason: string }
  | { status: 'already-issued'; issuance: IssuanceSummary }
  | { status: 'issued'; issuance: IssuanceSummary };

export function summary(issuance: GiftCardIssuance): IssuanceSummary {
  return {
    id: issuance.id,
    surveyResponseId: issuance.surveyResponseId,
    businessId: issuance.businessId,
    customerEmail: issuance.customerEmail,
    customerName: issuance.customerName ?? null,
    giftCardNumber: issuance.giftCardNumber,
    giftCardId: issuance.giftCardId ?? null,
    rewardValue: issuance.rewardValue,
    rewardTier: issuance.rewardTier,
    isSquareGiftCard: issuance.isSquareGiftCard,
    issuedAt: issuance.issuedAt,
    emailedAt: issuance.emailedAt ?? null,
  };
}

/** The request row's columns the job works with. */
const REQUEST_FIELDS = ['provider', 'locationId', 'giftCardId', 'gan'] as const;

/**
 * The reward-issue job (ADR 018), idempotent: run it any number of times, concurrently or after a
 * crash anywhere, and the response gets at most one card and one issuance row.
 *
 * 1. A response without a tier or an email earns nothing: done.
 * 2. An issuance exists: done (its email job is queued again, keyed, in case it was lost).
 * 3. The `gift_card_requests` row is taken (created on the first attempt, which pins the provider:
 *    Square when GIFT_CARDS=square and the business has a token and a location, else Test; and the
 *    location), and the attempt counted.
 * 4. The provider issues the card with idempotency keys derived from the response id; the created
 *    card is saved on the request row before it is activated, and passed back on later attempts.
 * 5. One transaction: the issuance row (unique per response), the response's giftCard fields, and
 *    the keyed `reward-email` job.
 */
export async function issueReward(deps: RewardDeps, responseId: string): Promise<IssueOutcome> {
  if (!isUuid(responseId)) return { status: 'not-found' };
  const em = deps.em.fork();
  const response = await em.findOne(
    SurveyResponse,
    { id: responseId },
    { fields: ['businessId', 'customerEmail', 'customerName', 'rewardTier', 'rewardValue'], disableIdentityMap: true },
  );
  if (!response) return { status: 'not-found' };
  const { businessId, customerEmail, rewardTier, rewardValue } = response;
  if (!rewardTier || !rewardValue || rewardValue <= 0) return { status: 'not-eligible', reason: 'no reward tier was earned' };
  if (!customerEmail) return { status: 'not-eligible', reason: 'the response has no email address' };
  // A held reward waits for the owner (or the customer's confirmation); a rejected one never issues (ADR 050).
  const hold = await holdStatus(em, responseId);
  if (hold === 'rejected') return { status: 'not-eligible', reason: 'the owner rejected this reward' };
  if (hold === 'held' || hold === 'awaiting_email') return { status: 'not-eligible', reason: 'the reward is held for review' };

  const existing = await findIssuance(em, { surveyResponseId: responseId });
  if (existing) {
    if (!existing.emailedAt && !existing.emailFailedAt) await queueEmail(deps, em, existing.id);
    return { status: 'already-issued', issuance: summary(existing) };
  }

  // Take the request row: one statement, created on the first attempt, the attempt counted on every one.
  const taken = await queryBuilder(em, GiftCardRequest)
    .insert({ surveyResponseId: responseId, businessId, attempts: 1, lastAttemptAt: raw('now()') })
    .onConflict('surveyResponseId')
    .merge({ attempts: raw('gift_card_requests.attempts + 1'), lastAttemptAt: raw('now()') })
    .returning([...REQUEST_FIELDS])
    .execute<Pick<GiftCardRequest, (typeof REQUEST_FIELDS)[number]>>('get');
  let request = taken;

  let squareAccount: GiftCardCredentials | null = null;
  if (request.provider == null || request.provider === 'square') {
    const pos = deps.giftCards.square ? await posCredentials(em, businessId, deps.tokenKey) : null;
    if (request.provider == null) {
      // The first attempt to get this far pins the provider and location; a retry never switches.
      const provider = giftCardProviderFor({ squareCards: deps.giftCards.square !== null }, { squareConnected: pos !== null, locationId: pos?.locationId ?? null });
      await em.nativeUpdate(GiftCardRequest, { surveyResponseId: responseId, provider: null }, { provider, locationId: provider === 'square' ? pos!.locationId : null });
      request = (await em.findOne(GiftCardRequest, { surveyResponseId: responseId }, { fields: [...REQUEST_FIELDS], disableIdentityMap: true }))!;
    }
    if (request.provider === 'square') {
      if (!deps.giftCards.square) {
        throw new GiftCardError('This reward was started on Square, but Square gift cards are switched off (GIFT_CARDS).', { retryable: false, code: 'SQUARE_OFF' });
      }
      if (!pos) {
        throw new GiftCardError('This reward was started on Square, but the business is no longer connected to Square.', { retryable: false, code: 'SQUARE_DISCONNECTED' });
      }
      squareAccount = { accessToken: pos.accessToken, locationId: request.locationId ?? pos.locationId };
    }
  }
  const giftCards = request.provider === 'square' ? deps.giftCards.square! : deps.giftCards.test;

  const card: IssuedCard = await giftCards.issue({
    rewardKey: responseId,
    amountCents: rewardValue,
    currency: 'USD',
    credentials: squareAccount,
    created: request.giftCardId && request.gan ? { giftCardId: request.giftCardId, gan: request.gan } : null,
    onCreated: async (created) => {
      // coalesce: the first card saved wins; a second runner's different card is refused below.
      const saved = await queryBuilder(em, GiftCardRequest)
        .update({ giftCardId: raw('coalesce(gift_card_id, ?)', [created.giftCardId]), gan: raw('coalesce(gan, ?)', [created.gan]) })
        .where({ surveyResponseId: responseId })
        .returning('giftCardId')
        .execute<Pick<GiftCardRequest, 'giftCardId'> | undefined>('get');
      if (saved?.giftCardId !== created.giftCardId) {
        throw new GiftCardError(`Another card (${saved?.giftCardId}) was already saved for this reward.`, { retryable: false, code: 'CARD_MISMATCH' });
      }
    },
  });

  const issuanceId = await em.transactional(async (tx) => {
    // on conflict do nothing: the unique survey_response_id lets one runner's row in.
    const inserted = await queryBuilder(tx, GiftCardIssuance)
      .insert({
        businessId,
        surveyResponseId: responseId,
        customerEmail,
        customerName: response.customerName ?? null,
        giftCardNumber: card.gan,
        giftCardId: card.giftCardId,
        rewardValue,
        rewardTier,
        isSquareGiftCard: card.isSquareGiftCard,
        cardState: card.isSquareGiftCard ? 'ACTIVE' : null,
        cardBalanceCents: card.isSquareGiftCard ? rewardValue : null,
      })
      .onConflict('surveyResponseId')
      .ignore()
      .returning('id')
      .execute<Pick<GiftCardIssuance, 'id'> | undefined>('get');
    if (!inserted) return null; // a concurrent run wrote it first (with the same card)
    await tx.nativeUpdate(SurveyResponse, { id: responseId }, { giftCardNumber: card.gan, giftCardId: card.giftCardId, isSquareGiftCard: card.isSquareGiftCard });
    await tx.nativeUpdate(GiftCardRequest, { surveyResponseId: responseId }, { failedAt: null, lastError: null });
    await deps.jobs.send('reward-email', { issuanceId: inserted.id }, { em: tx, key: inserted.id });
    await appendAudit(tx, {
      responseId,
      businessId,
      event: 'issued',
      actor: 'system',
      details: { issuanceId: inserted.id, provider: request.provider, giftCardId: card.giftCardId, cardEnding: card.gan.slice(-4), rewardValueCents: rewardValue, rewardTier },
    });
    return inserted.id;
  });

  const issuance = (await findIssuance(em, issuanceId ? { id: issuanceId } : { surveyResponseId: responseId }))!;
  if (!issuanceId) return { status: 'already-issued', issuance: summary(issuance) };
  deps.logger.info({ responseId, issuanceId, businessId, provider: request.provider, giftCardId: card.giftCardId, rewardValue }, 'gift card issued');
  return { status: 'issued', issuance: summary(issuance) };
}

/** The issuance by its id or its response, read from the database (never from an identity map). */
export async function findIssuance(em: EntityManager, where: { id: string } | { surveyResponseId: string }): Promise<GiftCardIssuance | null> {
  return em.findOne(GiftCardIssuance, where, { disableIdentityMap: true });
}

/** Whether a gift card was issued (or is being issued) for the survey response. */
export async function rewardIssued(em: EntityManager, surveyResponseId: string): Promise<boolean> {
  return (await em.count(GiftCardIssuance, { surveyResponseId })) > 0;
}

/** Queues the issuance's email (keyed by its id: at most one such job). */
async function queueEmail(deps: RewardDeps, em: EntityManager, issuanceId: string): Promise<void> {
  await em.transactional(async (tx) => {
    await deps.jobs.send('reward-email', { issuanceId }, { em: tx, key: issuanceId });
  });
}

/** The text stored as a reward's last error: the failure's message, bounded, never a stack. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
  return text.slice(0, 500);
}

/**
 * Records a failed attempt of reward-issue: its error, and `failed_at` when no retry follows (the
 * last attempt, or a failure a retry cannot fix). The reward then shows as failed. Nothing is
 * recorded for a response that does not exist.
 */
export async function recordIssueFailure(em: EntityManager, responseId: string, error: unknown, final: boolean): Promise<void> {
  if (!isUuid(responseId)) return;
  const fork = em.fork();
  const response = await fork.findOne(SurveyResponse, { id: responseId }, { fields: ['businessId'], disableIdentityMap: true });
  if (!response) return;
  const lastError = errorText(error);
  await queryBuilder(fork, GiftCardRequest)
    .insert({ surveyResponseId: responseId, businessId: response.businessId, attempts: 1, lastAttemptAt: raw('now()'), lastError, failedAt: final ? raw('now()') : null })
    .onConflict('surveyResponseId')
    .merge(final ? { lastError, failedAt: raw('now()') } : { lastError })
    .execute('run');
}
