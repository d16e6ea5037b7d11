import type { EntityManager } from '@mikro-orm/core';
import type { JobQueue } from '../jobs/port.ts';
import { sqlOn } from './issue.ts';

/** Spec "Gift card issuance (client)", plus the email's state and Square's card state. */
export type IssuanceView = {
  id: string;
  issuedAt: string;
  customerName: string | null;
  customerEmail: string;
  giftCardNumber: string;
  /** Cents. */
  rewardValue: number;
  rewardTier: string;
  /** true: shown as Square; false: shown as Test. */
  isSquareGiftCard: boolean;
  surveyResponseId: string;
  emailStatus: 'sent' | 'sending' | 'failed';
  emailedAt: string | null;
  cardState: string | null;
  cardBalanceCents: number | null;
};

/** A reward that did not reach the customer after every retry: no card (`issue`), or no email (`email`). */
export type FailedReward = {
  stage: 'issue' | 'email';
  surveyResponseId: string;
  issuanceId: string | null;
  businessId: string;
  businessName: string;
  customerName: string | null;
  customerEmail: string | null;
  rewardTier: string | null;
  rewardValue: number | null;
  giftCardNumber: string | null;
  attempts: number;
  lastError: string | null;
  failedAt: string;
};

const iso = (v: Date | string | null): string | null => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

type IssuanceRow = {
  id: string;
  issued_at: Date;
  customer_name: string | null;
  customer_email: string;
  gift_card_number: string;
  reward_value: number;
  reward_tier: string;
  is_square_gift_card: boolean;
  survey_response_id: string;
  emailed_at: Date | null;
  email_failed_at: Date | null;
  card_state: string | null;
  card_balance_cents: number | null;
  business_id: string;
  display_name: string;
};

export type IssuanceListItem = IssuanceView & { businessId: string; businessName: string };

/** Issued cards, newest first: one business's (the owner's list) or every business's (support). */
export async function listIssuances(em: EntityManager, options: { businessId?: string; limit?: number } = {}): Promise<IssuanceListItem[]> {
  const limit = Math.min(Math.max(options.limit ?? 500, 1), 5000);
  const rows = await sqlOn(em)<IssuanceRow>(
    `select i.id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier, i.is_square_gift_card,
            i.survey_response_id, i.emailed_at, i.email_failed_at, i.card_state, i.card_balance_cents, i.business_id, b.display_name
       from gift_card_issuances i join businesses b on b.id = i.business_id
      ${options.businessId ? 'where i.business_id = ?' : ''}
      order by i.issued_at desc, i.id limit ${limit}`,
    options.businessId ? [options.businessId] : [],
  );
  return rows.map((r) => ({
    id: r.id,
    issuedAt: iso(r.issued_at)!,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    giftCardNumber: r.gift_card_number,
    rewardValue: r.reward_value,
    rewardTier: r.reward_tier,
    isSquareGiftCard: r.is_square_gift_card,
    surveyResponseId: r.survey_response_id,
    emailStatus: r.emailed_at ? 'sent' : r.email_failed_at ? 'failed' : 'sending',
    emailedAt: iso(r.emailed_at),
    cardState: r.card_state,
    cardBalanceCents: r.card_balance_cents,
    businessId: r.business_id,
    businessName: r.display_name,
  }));
}

type FailedRow = {
  stage: 'issue' | 'email';
  survey_response_id: string;
  issuance_id: string | null;
  business_id: string;
  display_name: string;
  customer_name: string | null;
  customer_email: string | null;
  reward_tier: string | null;
  reward_value: number | null;
  gift_card_number: string | null;
  attempts: number;
  last_error: string | null;
  failed_at: Date;
};

/**
 * Rewards marked failed, newest first: a card that could not be issued (its request failed and no
 * issuance exists) or an email that could not be sent (issued, not emailed, email failed).
 */
export async function listFailures(em: EntityManager, options: { businessId?: string } = {}): Promise<FailedReward[]> {
  const byBusiness = options.businessId ? 'and x.business_id = ?' : '';
  const rows = await sqlOn(em)<FailedRow>(
    `select * from (
       select 'issue' as stage, g.survey_response_id, null::uuid as issuance_id, g.business_id, r.customer_name, r.customer_email,
              r.reward_tier, r.reward_value, null as gift_card_number, g.attempts, g.last_error, g.failed_at
         from gift_card_requests g join survey_responses r on r.id = g.survey_response_id
        where g.failed_at is not null and not exists (select 1 from gift_card_issuances i where i.survey_response_id = g.survey_response_id)
       union all
       select 'email', i.survey_response_id, i.id, i.business_id, i.customer_name, i.customer_email,
              i.reward_tier, i.reward_value, i.gift_card_number, i.email_attempts, i.email_last_error, i.email_failed_at
         from gift_card_issuances i
        where i.email_failed_at is not null and i.emailed_at is null
     ) x join (select id, display_name from businesses) b on b.id = x.business_id
     where true ${byBusiness}
     order by x.failed_at desc`,
    options.businessId ? [options.businessId] : [],
  );
  return rows.map((r) => ({
    stage: r.stage,
    surveyResponseId: r.survey_response_id,
    issuanceId: r.issuance_id,
    businessId: r.business_id,
    businessName: r.display_name,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    rewardTier: r.reward_tier,
    rewardValue: r.reward_value,
    giftCardNumber: r.gift_card_number,
    attempts: r.attempts,
    lastError: r.last_error,
    failedAt: iso(r.failed_at)!,
  }));
}

/**
 * A reward on its way: earned, not failed, and either no card yet (`issue`: the reward-issue job is
 * queued or retrying) or a card whose email is not sent yet (`email`). `attempts` and `lastError`
 * show a retry in progress; `since` is when the customer submitted (`issue`) or the card was issued.
 */
export type PendingReward = {
  stage: 'issue' | 'email';
  surveyResponseId: string;
  issuanceId: string | null;
  customerName: string | null;
  customerEmail: string;
  rewardTier: string;
  rewardValue: number;
  giftCardNumber: string | null;
  attempts: number;
  lastError: string | null;
  since: string;
};

type PendingRow = {
  stage: 'issue' | 'email';
  survey_response_id: string;
  issuance_id: string | null;
  customer_name: string | null;
  customer_email: string;
  reward_tier: string;
  reward_value: number;
  gift_card_number: string | null;
  attempts: number;
  last_error: string | null;
  since: Date;
};

/** One business's rewards still on their way (not issued or not emailed, and not failed), newest first. */
export async function listPending(em: EntityManager, options: { businessId: string; limit?: number }): Promise<PendingReward[]> {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
  const rows = await sqlOn(em)<PendingRow>(
    `select * from (
       select 'issue' as stage, r.id as survey_response_id, null::uuid as issuance_id, r.customer_name, r.customer_email,
              r.reward_tier, r.reward_value, null as gift_card_number, coalesce(g.attempts, 0) as attempts, g.last_error, r.submitted_at as since
         from survey_responses r left join gift_card_requests g on g.survey_response_id = r.id
        where r.business_id = ? and r.reward_tier is not null and r.reward_value > 0 and r.customer_email is not null
          and g.failed_at is null
          and not exists (select 1 from gift_card_issuances i where i.survey_response_id = r.id)
          and not exists (select 1 from reward_holds h where h.survey_response_id = r.id and h.status <> 'released')
       union all
       select 'email', i.survey_response_id, i.id, i.customer_name, i.customer_email,
              i.reward_tier, i.reward_value, i.gift_card_number, i.email_attempts, i.email_last_error, i.issued_at
         from gift_card_issuances i
        where i.business_id = ? and i.emailed_at is null and i.email_failed_at is null
     ) x
     order by x.since desc limit ${limit}`,
    [options.businessId, options.businessId],
  );
  return rows.map((r) => ({
    stage: r.stage,
    surveyResponseId: r.survey_response_id,
    issuanceId: r.issuance_id,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    rewardTier: r.reward_tier,
    rewardValue: r.reward_value,
    giftCardNumber: r.gift_card_number,
    attempts: r.attempts,
    lastError: r.last_error,
    since: iso(r.since)!,
  }));
}

/** One business's issued cards in numbers: every card, not only the listed ones. Cents. */
export type IssuanceTotals = { cards: number; cents: number; squareCards: number; squareCents: number; testCards: number; testCents: number };

export async function issuanceTotals(em: EntityManager, businessId: string): Promise<IssuanceTotals> {
  const [row] = await sqlOn(em)<{ cards: string | number; cents: string | number; square_cards: string | number; square_cents: string | number }>(
    `select count(*) as cards, coalesce(sum(reward_value), 0) as cents,
            count(*) filter (where is_square_gift_card) as square_cards,
            coalesce(sum(reward_value) filter (where is_square_gift_card), 0) as square_cents
       from gift_card_issuances where business_id = ?`,
    [businessId],
  );
  // count and sum are bigint: the driver hands them over as strings.
  const cards = Number(row?.cards ?? 0);
  const cents = Number(row?.cents ?? 0);
  const squareCards = Number(row?.square_cards ?? 0);
  const squareCents = Number(row?.square_cents ?? 0);
  return { cards, cents, squareCards, squareCents, testCards: cards - squareCards, testCents: cents - squareCents };
}

/**
 * Queues every failed reward again (`reward-cli rewards retry-failed`): its failed mark is cleared
 * and a job is sent in the same transaction, keyed by the failure's time, so two concurrent runs
 * queue each failure once. The handlers are idempotent: a retry never issues a second card.
 */
export async function retryFailed(em: EntityManager, jobs: JobQueue, options: { businessId?: string } = {}): Promise<FailedReward[]> {
  const failed = await listFailures(em, options);
  for (const f of failed) {
    await em.fork().transactional(async (tx) => {
      const sql = sqlOn(tx);
      const stamp = new Date(f.failedAt).getTime();
      if (f.stage === 'issue') {
        const cleared = await sql(`update gift_card_requests set failed_at = null where survey_response_id = ? and failed_at is not null returning 1`, [f.surveyResponseId]);
        if (cleared.length) await jobs.send('reward-issue', { responseId: f.surveyResponseId }, { em: tx, key: `${f.surveyResponseId}:retry:${stamp}` });
      } else {
        const cleared = await sql(`update gift_card_issuances set email_failed_at = null where id = ? and email_failed_at is not null returning 1`, [f.issuanceId]);
        if (cleared.length) await jobs.send('reward-email', { issuanceId: f.issuanceId }, { em: tx, key: `${f.issuanceId}:retry:${stamp}` });
      }
    });
  }
  if (failed.some((f) => f.stage === 'issue')) jobs.wake('reward-issue');
  if (failed.some((f) => f.stage === 'email')) jobs.wake('reward-email');
  return failed;
}
