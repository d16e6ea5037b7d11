import { isLastAttempt, withRequestId, type JobHandler } from '../jobs/index.ts';
import type { Mailer } from '../mail/index.ts';
import { sendConfirmEmail } from './confirm-email.ts';
import { recordEmailFailure, sendRewardEmail } from './email.ts';
import { errorText, recordIssueFailure, type RewardDeps } from './issue.ts';
import { issueRewardNow } from './after-issue.ts';
import { GiftCardError } from './port.ts';

export type RewardJobDeps = RewardDeps & {
  mailer: Mailer;
  appUrl: string;
  emailLeaseSeconds?: number;
};

/** A failure that another attempt cannot fix (Square refused the request): no retry, failed at once. */
const permanent = (error: unknown) => error instanceof GiftCardError && !error.retryable;

/**
 * The handlers of `reward-issue` {responseId} and `reward-email` {issuanceId} (ADR 018). A throw
 * fails the attempt and the queue retries it with backoff; before that the error is recorded, and
 * on the last attempt (or a permanent failure) the reward is marked failed, which the owner's list
 * and `reward-cli rewards failed` show.
 */
export function rewardJobHandlers(deps: RewardJobDeps): {
  issue: JobHandler<{ responseId: string }>;
  email: JobHandler<{ issuanceId: string }>;
  confirmEmail: JobHandler<{ responseId: string }>;
} {
  // A job's lines name the request that queued its work, and so do the jobs it queues (issue 26).
  const scoped = (job: { requestId: string | null }) =>
    job.requestId ? { logger: deps.logger.child({ requestId: job.requestId }), jobs: withRequestId(deps.jobs, job.requestId) } : { logger: deps.logger, jobs: deps.jobs };
  return {
    issue: async (job) => {
      const { responseId } = job.data;
      const { logger, jobs } = scoped(job);
      try {
        const outcome = await issueRewardNow({ ...deps, logger, jobs }, responseId);
        // The email job is committed with the issuance: start on it now rather than at the next poll.
        if (outcome.status === 'issued') deps.jobs.wake('reward-email');
        if (outcome.status === 'not-found' || outcome.status === 'not-eligible') logger.info({ responseId, outcome }, 'reward-issue: nothing to issue');
      } catch (error) {
        const final = permanent(error) || isLastAttempt(job);
        // The message only: a vendor error object can carry a whole HTTP response.
        logger.warn({ error: errorText(error), responseId, attempt: job.retryCount + 1, final }, 'reward-issue attempt failed');
        await recordIssueFailure(deps.em, responseId, error, final).catch((e: unknown) => logger.error({ err: e, responseId }, 'could not record a reward failure'));
        if (permanent(error)) return; // failed for good: nothing for the queue to retry
        throw error;
      }
    },
    email: async (job) => {
      const { logger } = scoped(job);
      const { issuanceId } = job.data;
      try {
        await sendRewardEmail({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl, logger, leaseSeconds: deps.emailLeaseSeconds }, issuanceId);
      } catch (error) {
        const final = isLastAttempt(job);
        logger.warn({ error: errorText(error), issuanceId, attempt: job.retryCount + 1, final }, 'reward-email attempt failed');
        await recordEmailFailure(deps.em, issuanceId, error, final).catch((e: unknown) => logger.error({ err: e, issuanceId }, 'could not record a reward email failure'));
        throw error;
      }
    },
    /** The customer's "confirm your email" link before a held reward is sent (ADR 050); a failure is retried. */
    confirmEmail: async (job) => {
      const { logger } = scoped(job);
      try {
        await sendConfirmEmail({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl }, { responseId: job.data.responseId });
      } catch (error) {
        logger.warn({ error: errorText(error), responseId: job.data.responseId, attempt: job.retryCount + 1 }, 'reward-confirm-email attempt failed');
        throw error;
      }
    },
  };
}
