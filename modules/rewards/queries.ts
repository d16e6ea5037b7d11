import { sql, type EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import type { JobQueue } from '../jobs/index.ts';
import { SurveyResponse } from '../responses/server.ts';
import { queryBuilder } from '../shared/orm.ts';
import { RewardHold } from '../trust/server.ts';
import { GiftCardIssuance, GiftCardRequest } from './entities.ts';

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

const iso = (v: Date | null | undefined): string | null => (v ? v.toISOString() : null);

/** The display names of these businesses, by id. */
async function businessNames(em: EntityManager, ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await em.find(Business, { id: { $in: unique } }, { fields: ['displayName'], disableIdentityMap: true });
  return new Map(rows.map((b) => [b.id, b.displayName]));
}

export type IssuanceListItem = IssuanceView & { businessId: string; businessName: string };

/** Issued cards, newest first: one business's (the owner's list) or every business's (support). */
export async function listIssuances(em: EntityManager, options: { businessId?: string; limit?: number } = {}): Promise<IssuanceListItem[]> {
  const limit = Math.min(Math.max(options.limit ?? 500, 1), 5000);
  const issuances = await em.find(GiftCardIssuance, options.businessId ? { businessId: options.businessId } : {}, {
    orderBy: { issuedAt: 'desc', id: 'asc' },
    limit,
    disableIdentityMap: true,
  });
  const names = await businessNames(
    em,
    issuances.map((i) => i.businessId),
  );
  return issuances.map((i) => ({
    id: i.id,
    issuedAt: i.issuedAt.toISOString(),
    customerName: i.customerName ?? null,
    customerEmail: i.customerEmail,
    giftCardNumber: i.giftCardNumber,
    rewardValue: i.rewardValue,
    rewardTier: i.rewardTier,
    isSquareGiftCard: i.isSquareGiftCard,
    surveyResponseId: i.surveyResponseId,
    emailStatus: i.emailedAt ? 'sent' : i.emailFailedAt ? 'failed' : 'sending',
    emailedAt: iso(i.emailedAt),
    cardState: i.cardState ?? null,
    cardBalanceCents: i.cardBalanceCents ?? null,
    businessId: i.businessId,
    businessName: names.get(i.businessId) ?? '',
  }));
}

/** An issued card whose email is the step left (failed or pending): the fields both lists show. */
function emailStage(i: GiftCardIssuance) {
  return {
    stage: 'email' as const,
    surveyResponseId: i.surveyResponseId,
    issuanceId: i.id,
    customerName: i.customerName ?? null,
    customerEmail: i.customerEmail,
    rewardTier: i.rewardTier,
    rewardValue: i.rewardValue,
    giftCardNumber: i.giftCardNumber,
    attempts: i.emailAttempts,
    lastError: i.emailLastError ?? null,
  };
}

/**
 * Rewards marked failed, newest first: a card that could not be issued (its request failed and no
 * issuance exists) or an email that could not be sent (issued, not emailed, email failed).
 */
export async function listFailures(em: EntityManager, options: { businessId?: string } = {}): Promise<FailedReward[]> {
  const scope = options.businessId ? { businessId: options.businessId } : {};
  const [requests, emails] = await Promise.all([
    // The card could not be issued: the request failed and no issuance exists.
    em.find(
      GiftCardRequest,
      { ...scope, failedAt: { $ne: null }, surveyResponseId: { $nin: queryBuilder(em, GiftCardIssuance, 'i').select('i.surveyResponseId').where(scope) } },
      { disableIdentityMap: true },
    ),
    // The card was issued, its email could not be sent.
    em.find(GiftCardIssuance, { ...scope, emailFailedAt: { $ne: null }, emailedAt: null }, { disableIdentityMap: true }),
  ]);
  const [responses, names] = await Promise.all([
    requests.length === 0
      ? []
      : em.find(
          SurveyResponse,
          { id: { $in: requests.map((g) => g.surveyResponseId) } },
          { fields: ['customerName', 'customerEmail', 'rewardTier', 'rewardValue'], disableIdentityMap: true },
        ),
    businessNames(em, [...requests.map((g) => g.businessId), ...emails.map((i) => i.businessId)]),
  ]);
  const response = new Map(responses.map((r) => [r.id, r]));
  const failed: FailedReward[] = [
    ...requests.flatMap((g) => {
      const r = response.get(g.surveyResponseId);
      if (!r) return [];
      return [
        {
          stage: 'issue' as const,
          surveyResponseId: g.surveyResponseId,
          issuanceId: null,
          businessId: g.businessId,
          businessName: names.get(g.businessId) ?? '',
          customerName: r.customerName ?? null,
          customerEmail: r.customerEmail ?? null,
          rewardTier: r.rewardTier ?? null,
          rewardValue: r.rewardValue ?? null,
          giftCardNumber: null,
          attempts: g.attempts,
          lastError: g.lastError ?? null,
          failedAt: g.failedAt!.toISOString(),
        },
      ];
    }),
    ...emails.map((i) => ({
      ...emailStage(i),
      businessId: i.businessId,
      businessName: names.get(i.businessId) ?? '',
      failedAt: i.emailFailedAt!.toISOString(),
    })),
  ];
  return failed.sort((a, b) => b.failedAt.localeCompare(a.failedAt));
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

/** One business's rewards still on their way (not issued or not emailed, and not failed), newest first. */
export async function listPending(em: EntityManager, options: { businessId: string; limit?: number }): Promise<PendingReward[]> {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
  const { businessId } = options;
  const [earned, emails] = await Promise.all([
    // Earned, no card yet, not failed, not held (a released hold goes on).
    em.find(
      SurveyResponse,
      {
        businessId,
        rewardTier: { $ne: null },
        rewardValue: { $gt: 0 },
        customerEmail: { $ne: null },
        $and: [
          { id: { $nin: queryBuilder(em, GiftCardIssuance, 'i').select('i.surveyResponseId').where({ businessId }) } },
          { id: { $nin: queryBuilder(em, GiftCardRequest, 'g').select('g.surveyResponseId').where({ businessId, failedAt: { $ne: null } }) } },
          { id: { $nin: queryBuilder(em, RewardHold, 'h').select('h.surveyResponseId').where({ businessId, status: { $ne: 'released' } }) } },
        ],
      },
      { fields: ['customerName', 'customerEmail', 'rewardTier', 'rewardValue', 'submittedAt'], orderBy: { submittedAt: 'desc' }, limit, disableIdentityMap: true },
    ),
    // A card whose email is not sent yet, and not failed.
    em.find(GiftCardIssuance, { businessId, emailedAt: null, emailFailedAt: null }, { orderBy: { issuedAt: 'desc' }, limit, disableIdentityMap: true }),
  ]);
  // A retry in progress shows its attempts and last error.
  const requests =
    earned.length === 0 ? [] : await em.find(GiftCardRequest, { surveyResponseId: { $in: earned.map((r) => r.id) } }, { fields: ['attempts', 'lastError'], disableIdentityMap: true });
  const request = new Map(requests.map((g) => [g.surveyResponseId, g]));
  const pending: PendingReward[] = [
    ...earned.map((r) => ({
      stage: 'issue' as const,
      surveyResponseId: r.id,
      issuanceId: null,
      customerName: r.customerName ?? null,
      customerEmail: r.customerEmail!,
      rewardTier: r.rewardTier!,
      rewardValue: r.rewardValue!,
      giftCardNumber: null,
      attempts: request.get(r.id)?.attempts ?? 0,
      lastError: request.get(r.id)?.lastError ?? null,
      since: r.submittedAt.toISOString(),
    })),
    ...emails.map((i) => ({
      ...emailStage(i),
      since: i.issuedAt.toISOString(),
    })),
  ];
  // The newest `limit` of both lists together, as one list ordered by `since`.
  return pending.sort((a, b) => b.since.localeCompare(a.since)).slice(0, limit);
}

/** One business's issued cards in numbers: every card, not only the listed ones. Cents. */
export type IssuanceTotals = { cards: number; cents: number; squareCards: number; squareCents: number; testCards: number; testCents: number };

export async function issuanceTotals(em: EntityManager, businessId: string): Promise<IssuanceTotals> {
  // Aggregates with FILTER: no ORM method says them, so they are SQL fragments in the ORM's query.
  const row = await queryBuilder(em, GiftCardIssuance)
    .select([
      sql`count(*)`.as('cards'),
      sql`coalesce(sum(reward_value), 0)`.as('cents'),
      sql`count(*) filter (where is_square_gift_card)`.as('squareCards'),
      sql`coalesce(sum(reward_value) filter (where is_square_gift_card), 0)`.as('squareCents'),
    ])
    .where({ businessId })
    .execute<{ cards: string | number; cents: string | number; squareCards: string | number; squareCents: string | number } | undefined>('get');
  // count and sum are bigint: the driver hands them over as strings.
  const cards = Number(row?.cards ?? 0);
  const cents = Number(row?.cents ?? 0);
  const squareCards = Number(row?.squareCards ?? 0);
  const squareCents = Number(row?.squareCents ?? 0);
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
      const stamp = new Date(f.failedAt).getTime();
      if (f.stage === 'issue') {
        const cleared = await tx.nativeUpdate(GiftCardRequest, { surveyResponseId: f.surveyResponseId, failedAt: { $ne: null } }, { failedAt: null });
        if (cleared > 0) await jobs.send('reward-issue', { responseId: f.surveyResponseId }, { em: tx, key: `${f.surveyResponseId}:retry:${stamp}` });
      } else {
        const cleared = await tx.nativeUpdate(GiftCardIssuance, { id: f.issuanceId!, emailFailedAt: { $ne: null } }, { emailFailedAt: null });
        if (cleared > 0) await jobs.send('reward-email', { issuanceId: f.issuanceId }, { em: tx, key: `${f.issuanceId}:retry:${stamp}` });
      }
    });
  }
  if (failed.some((f) => f.stage === 'issue')) jobs.wake('reward-issue');
  if (failed.some((f) => f.stage === 'email')) jobs.wake('reward-email');
  return failed;
}
