import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/index.ts';
import { issuanceTotals, listFailures, listIssuances, listPending, retryFailed } from './queries.ts';
import { auditTrail, confirmCustomerEmail, decideHold, holdOf, listHolds, type HoldDecision } from './holds.ts';
import { receiveSquareWebhook } from './webhooks.ts';

/** `context.rewards`: what the owner's pages and the Square webhook reach. One instance per request. */
export function createRewards(deps: { em: EntityManager; logger: Logger; appUrl: string; squareWebhookSignatureKey: string | null; jobs: JobQueue | null }) {
  const issuances = async (businessId: string) => (await listIssuances(deps.em, { businessId })).map(({ businessId: _b, businessName: _n, ...view }) => view);
  const failures = async (businessId: string) => (await listFailures(deps.em, { businessId })).map(({ businessId: _b, businessName: _n, ...failure }) => failure);
  return {
    /** The owner's issued cards, newest first (spec "Gift card issuance (client)" and the email's state). */
    issuances,
    /** The owner's rewards that failed after every retry. */
    failures,
    /**
     * Everything the owner's /rewards page shows: totals over every card, the latest cards, the
     * rewards that failed after every retry, the ones still on their way, the held ones waiting
     * for a decision and the rejected ones.
     */
    overview: async (businessId: string) => {
      const [totals, list, failed, pending, held, rejected] = await Promise.all([
        issuanceTotals(deps.em.fork(), businessId),
        issuances(businessId),
        failures(businessId),
        listPending(deps.em.fork(), { businessId }),
        listHolds(deps.em.fork(), { businessId }),
        listHolds(deps.em.fork(), { businessId, statuses: ['rejected'] }),
      ]);
      const own = ({ businessId: _b, businessName: _n, ...hold }: (typeof held)[number]) => hold;
      // Rejected rewards stay on the page with their status (issue 27 item 13), newest first.
      return { totals, issuances: list, failed, pending, held: held.map(own), rejected: rejected.map(own).reverse() };
    },
    /**
     * The owner's Release or Reject of one of their held rewards (ADR 050). Another business's
     * reward is answered like an unknown one. Release queues the exactly-once issue job.
     */
    decideHold: (input: { businessId: string; responseId: string; decision: HoldDecision; actor: string }) =>
      decideHold({ em: deps.em, jobs: deps.jobs }, { responseId: input.responseId, businessId: input.businessId, decision: input.decision, actor: input.actor }),
    /** One response's hold and append-only audit trail, for its owner only (the response detail page). */
    trust: async (businessId: string, responseId: string) => {
      const [hold, trail] = await Promise.all([holdOf(deps.em.fork(), { businessId, responseId }), auditTrail(deps.em.fork(), { businessId, responseId })]);
      return { hold: hold ? (({ businessId: _b, businessName: _n, ...h }) => h)(hold) : null, trail };
    },
    /**
     * Queues the owner's failed rewards again (the same code as `reward-cli rewards retry-failed`,
     * for this business only; a retry never issues a second card). Returns how many were queued.
     */
    retryFailed: async (businessId: string) => {
      if (!deps.jobs) throw new Error('Retrying rewards needs the job queue.');
      return (await retryFailed(deps.em, deps.jobs, { businessId })).length;
    },
    /** The customer's click on the "confirm your email" link of a held reward (ADR 050). */
    confirmCustomerEmail: (token: string) => confirmCustomerEmail({ em: deps.em, jobs: deps.jobs }, token),
    receiveSquareWebhook: (input: { body: string; signature: string | null }) =>
      receiveSquareWebhook({ em: deps.em, signatureKey: deps.squareWebhookSignatureKey, appUrl: deps.appUrl, logger: deps.logger }, input),
  };
}

export type Rewards = ReturnType<typeof createRewards>;
