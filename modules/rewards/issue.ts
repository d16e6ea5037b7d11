import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/port.ts';
import { posCredentials } from '../pos/credentials.ts';
import { isUuid } from '../shared/ids.ts';
import { appendAudit, holdStatus } from '../trust/server.ts';
import { GiftCardError, type GiftCardCredentials, type GiftCards, type IssuedCard } from './port.ts';
import type { GiftCardProvider } from './entities.ts';
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

type ResponseRow = {
  id: string;
  business_id: string;
  customer_email: string | null;
  customer_name: string | null;
  reward_tier: string | null;
  reward_value: number | null;
};

type RequestRow = { provider: GiftCardProvider | null; location_id: string | null; gift_card_id: string | null; gan: string | null };

type IssuanceRow = {
  id: string;
  survey_response_id: string;
  business_id: string;
  customer_email: string;
  customer_name: string | null;
  gift_card_number: string;
  gift_card_id: string | null;
  reward_value: number;
  reward_tier: string;
  is_square_gift_card: boolean;
  issued_at: Date | string;
  emailed_at: Date | string | null;
  email_failed_at: Date | string | null;
};

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export function summary(row: IssuanceRow): IssuanceSummary {
  return {
    id: row.id,
    surveyResponseId: row.survey_response_id,
    businessId: row.business_id,
    customerEmail: row.customer_email,
    customerName: row.customer_name,
    giftCardNumber: row.gift_card_number,
    giftCardId: row.gift_card_id,
    rewardValue: row.reward_value,
    rewardTier: row.reward_tier,
    isSquareGiftCard: row.is_square_gift_card,
    issuedAt: date(row.issued_at),
    emailedAt: row.emailed_at ? date(row.emailed_at) : null,
  };
}

/** Runs SQL on `em`'s connection, inside its transaction when it has one. */
export function sqlOn(em: EntityManager) {
  return <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    em.getConnection().execute(query, params, 'all', em.getTransactionContext()) as Promise<T[]>;
}

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
  const sql = sqlOn(em);
  const [response] = await sql<ResponseRow>(
    `select id, business_id, customer_email, customer_name, reward_tier, reward_value from survey_responses where id = ?`,
    [responseId],
  );
  if (!response) return { status: 'not-found' };
  if (!response.reward_tier || !response.reward_value || response.reward_value <= 0) return { status: 'not-eligible', reason: 'no reward tier was earned' };
  if (!response.customer_email) return { status: 'not-eligible', reason: 'the response has no email address' };
  // A held reward waits for the owner (or the customer's confirmation); a rejected one never issues (ADR 050).
  const hold = await holdStatus(sql, responseId);
  if (hold === 'rejected') return { status: 'not-eligible', reason: 'the owner rejected this reward' };
  if (hold === 'held' || hold === 'awaiting_email') return { status: 'not-eligible', reason: 'the reward is held for review' };

  const existing = await findIssuance(em, { surveyResponseId: responseId });
  if (existing) {
    if (!existing.emailed_at && !existing.email_failed_at) await queueEmail(deps, em, existing.id);
    return { status: 'already-issued', issuance: summary(existing) };
  }

  const [taken] = await sql<RequestRow>(
    `insert into gift_card_requests (survey_response_id, business_id, attempts, last_attempt_at) values (?, ?, 1, now())
     on conflict (survey_response_id) do update set attempts = gift_card_requests.attempts + 1, last_attempt_at = now()
     returning provider, location_id, gift_card_id, gan`,
    [responseId, response.business_id],
  );
  let request = taken!;

  let squareAccount: GiftCardCredentials | null = null;
  if (request.provider === null || request.provider === 'square') {
    const pos = deps.giftCards.square ? await posCredentials(em, response.business_id, deps.tokenKey) : null;
    if (request.provider === null) {
      // The first attempt to get this far pins the provider and location; a retry never switches.
      const provider = giftCardProviderFor({ squareCards: deps.giftCards.square !== null }, { squareConnected: pos !== null, locationId: pos?.locationId ?? null });
      await sql(`update gift_card_requests set provider = ?, location_id = ? where survey_response_id = ? and provider is null`, [
        provider,
        provider === 'square' ? pos!.locationId : null,
        responseId,
      ]);
      [request] = (await sql<RequestRow>(`select provider, location_id, gift_card_id, gan from gift_card_requests where survey_response_id = ?`, [responseId])) as [RequestRow];
    }
    if (request.provider === 'square') {
      if (!deps.giftCards.square) {
        throw new GiftCardError('This reward was started on Square, but Square gift cards are switched off (GIFT_CARDS).', { retryable: false, code: 'SQUARE_OFF' });
      }
      if (!pos) {
        throw new GiftCardError('This reward was started on Square, but the business is no longer connected to Square.', { retryable: false, code: 'SQUARE_DISCONNECTED' });
      }
      squareAccount = { accessToken: pos.accessToken, locationId: request.location_id ?? pos.locationId };
    }
  }
  const giftCards = request.provider === 'square' ? deps.giftCards.square! : deps.giftCards.test;

  const card: IssuedCard = await giftCards.issue({
    rewardKey: responseId,
    amountCents: response.reward_value,
    currency: 'USD',
    credentials: squareAccount,
    created: request.gift_card_id && request.gan ? { giftCardId: request.gift_card_id, gan: request.gan } : null,
    onCreated: async (created) => {
      const [saved] = await sql<{ gift_card_id: string }>(
        `update gift_card_requests set gift_card_id = coalesce(gift_card_id, ?), gan = coalesce(gan, ?) where survey_response_id = ? returning gift_card_id`,
        [created.giftCardId, created.gan, responseId],
      );
      if (saved?.gift_card_id !== created.giftCardId) {
        throw new GiftCardError(`Another card (${saved?.gift_card_id}) was already saved for this reward.`, { retryable: false, code: 'CARD_MISMATCH' });
      }
    },
  });

  const issuanceId = await em.transactional(async (tx) => {
    const q = sqlOn(tx);
    const [inserted] = await q<{ id: string }>(
      `insert into gift_card_issuances (business_id, survey_response_id, customer_email, customer_name, gift_card_number, gift_card_id,
         reward_value, reward_tier, is_square_gift_card, card_state, card_balance_cents)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (survey_response_id) do nothing returning id`,
      [
        response.business_id,
        responseId,
        response.customer_email,
        response.customer_name,
        card.gan,
        card.giftCardId,
        response.reward_value,
        response.reward_tier,
        card.isSquareGiftCard,
        card.isSquareGiftCard ? 'ACTIVE' : null,
        card.isSquareGiftCard ? response.reward_value : null,
      ],
    );
    if (!inserted) return null; // a concurrent run wrote it first (with the same card)
    await q(`update survey_responses set gift_card_number = ?, gift_card_id = ?, is_square_gift_card = ? where id = ?`, [
      card.gan,
      card.giftCardId,
      card.isSquareGiftCard,
      responseId,
    ]);
    await q(`update gift_card_requests set failed_at = null, last_error = null where survey_response_id = ?`, [responseId]);
    await deps.jobs.send('reward-email', { issuanceId: inserted.id }, { em: tx, key: inserted.id });
    await appendAudit(q, {
      responseId,
      businessId: response.business_id,
      event: 'issued',
      actor: 'system',
      details: { issuanceId: inserted.id, provider: request.provider, giftCardId: card.giftCardId, cardEnding: card.gan.slice(-4), rewardValueCents: response.reward_value, rewardTier: response.reward_tier },
    });
    return inserted.id;
  });

  const row = (await findIssuance(em, issuanceId ? { id: issuanceId } : { surveyResponseId: responseId }))!;
  if (!issuanceId) return { status: 'already-issued', issuance: summary(row) };
  deps.logger.info(
    { responseId, issuanceId, businessId: response.business_id, provider: request.provider, giftCardId: card.giftCardId, rewardValue: response.reward_value },
    'gift card issued',
  );
  return { status: 'issued', issuance: summary(row) };
}

export async function findIssuance(em: EntityManager, where: { id: string } | { surveyResponseId: string }): Promise<IssuanceRow | null> {
  const [column, value] = 'id' in where ? ['id', where.id] : ['survey_response_id', where.surveyResponseId];
  const [row] = await sqlOn(em)<IssuanceRow>(
    `select id, survey_response_id, business_id, customer_email, customer_name, gift_card_number, gift_card_id, reward_value, reward_tier,
            is_square_gift_card, issued_at, emailed_at, email_failed_at
       from gift_card_issuances where ${column} = ?`,
    [value],
  );
  return row ?? null;
}

/** Whether a gift card was issued (or is being issued) for the survey response. */
export async function rewardIssued(em: EntityManager, surveyResponseId: string): Promise<boolean> {
  return (await findIssuance(em, { surveyResponseId })) !== null;
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
 * last attempt, or a failure a retry cannot fix). The reward then shows as failed.
 */
export async function recordIssueFailure(em: EntityManager, responseId: string, error: unknown, final: boolean): Promise<void> {
  if (!isUuid(responseId)) return;
  await sqlOn(em.fork())(
    `insert into gift_card_requests (survey_response_id, business_id, attempts, last_attempt_at, last_error, failed_at)
     select r.id, r.business_id, 1, now(), ?, case when ? then now() end from survey_responses r where r.id = ?
     on conflict (survey_response_id) do update set last_error = excluded.last_error,
       failed_at = case when ? then now() else gift_card_requests.failed_at end`,
    [errorText(error), final, responseId, final],
  );
}
