import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/server.ts';
import { canUseFreeTrial, subscriptionState } from '../../modules/billing/index.ts';
import { posStatus } from '../../modules/pos/index.ts';

/** Everything the dashboard shows for one owner, from real state. */
export async function dashboardData(owner: Business, context: AppLoadContext) {
  const pos = posStatus(owner);
  const billing = subscriptionState(owner);
  const surveyCount = await context.surveys.countForBusiness(owner.id);
  // Getting Started's last step ("Set up reward campaigns") is done once a survey is published (issue 27 item 14).
  const published = surveyCount > 0 && (await context.surveys.list(owner.id)).some((s) => s.isPublished);
  const usage = await context.billing.usage(owner);
  const budget = await context.billing.budget(owner);
  return {
    displayName: owner.displayName,
    email: owner.email,
    isEmailVerified: owner.isEmailVerified,
    pos,
    billing,
    /** A free trial can still be started (none in the last six months): the dashboard offers it only then. */
    trialAvailable: canUseFreeTrial(owner),
    surveyCount,
    published,
    usage,
    budget,
  };
}

export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;
