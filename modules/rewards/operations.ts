import { sendRewardEmail } from './email.ts';
import { recordIssueFailure, rewardIssued, type IssueOutcome, type RewardDeps } from './issue.ts';
import { issueRewardNow } from './after-issue.ts';
import type { Mailer } from '../mail/index.ts';
import { listFailures, listIssuances, retryFailed } from './queries.ts';
import { decideHold, listHolds } from './holds.ts';

/**
 * The operator's reward use cases (`reward-cli rewards`, ADR 056), over every business or one:
 * the same functions as the jobs and the owner's pages, reached through one object instead of bare
 * functions taking an EntityManager. `jobs` may be null for the read-only ones.
 */
export function createRewardOperations(deps: Omit<RewardDeps, 'jobs'> & { jobs: RewardDeps['jobs'] | null; mailer: Mailer; appUrl: string }) {
  const withJobs = (): RewardDeps => {
    if (!deps.jobs) throw new Error('This reward operation needs the job queue: create the root with jobs: true.');
    return { ...deps, jobs: deps.jobs };
  };
  return {
    /** Issued cards, newest first. */
    list: (options: { businessId?: string; limit?: number }) => listIssuances(deps.em.fork(), options),
    /** Rewards that failed after every retry. */
    failures: (options: { businessId?: string }) => listFailures(deps.em.fork(), options),
    /** Queues every failed reward again (a retry never issues a second card). */
    retryFailed: (options: { businessId?: string }) => retryFailed(deps.em.fork(), withJobs().jobs, options),
    /**
     * Issues a response's card now, with the job's code (idempotent), usage emails included. A
     * failure is recorded on the reward, as the job would, and thrown.
     */
    async issue(responseId: string): Promise<IssueOutcome> {
      const run = withJobs();
      try {
        return await issueRewardNow({ ...run, mailer: deps.mailer, appUrl: deps.appUrl }, responseId);
      } catch (error) {
        await recordIssueFailure(deps.em, responseId, error, false).catch(() => undefined);
        throw error;
      }
    },
    /** Sends an issuance's email now (throws RewardEmailBusyError while a worker holds it). */
    sendEmail: (issuanceId: string) => sendRewardEmail({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl, logger: deps.logger }, issuanceId),
    /** Rewards held for review (ADR 050), oldest first; `all` adds decided ones. */
    holds: (options: { businessId?: string; all?: boolean }) => listHolds(deps.em.fork(), options),
    /** Releases or rejects a held reward (audited; a release queues the card once). */
    decideHold: (input: Parameters<typeof decideHold>[1]) => decideHold({ em: deps.em, jobs: withJobs().jobs }, input),
    /** Whether a card was issued (or is being issued) for the response. */
    issued: (responseId: string) => rewardIssued(deps.em.fork(), responseId),
  };
}

export type RewardOperations = ReturnType<typeof createRewardOperations>;
