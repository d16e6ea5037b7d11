import { checkUsageAlerts } from '../billing/server.ts';
import type { Mailer } from '../mail/index.ts';
import { issueReward, type IssueOutcome, type RewardDeps } from './issue.ts';

/**
 * Issues a response's reward (`issueReward`, exactly once) and then what follows a card issued now:
 * billing's usage emails at 80% and 100% of the plan's rewards (modules/billing/usage.ts). The one
 * use case behind the `reward-issue` job and `reward-cli rewards issue` (issue 28 item 1): a card
 * issued by support counts toward the owner's alerts as one issued by the worker does. A failed usage
 * check is logged and never fails the issuance, which is committed.
 */
export async function issueRewardNow(deps: RewardDeps & { mailer: Mailer; appUrl: string }, responseId: string): Promise<IssueOutcome> {
  const outcome = await issueReward(deps, responseId);
  if (outcome.status === 'issued') {
    await checkUsageAlerts({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl, logger: deps.logger }, outcome.issuance.businessId).catch((err: unknown) =>
      deps.logger.error({ err, responseId }, 'usage alert check failed after an issued reward'),
    );
  }
  return outcome;
}
