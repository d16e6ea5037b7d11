import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/entities.ts';
import { subscriptionState } from '../../modules/billing/status.ts';
import { posStatus } from '../../modules/pos/status.ts';

/** Everything the dashboard shows for one owner, from real state. */
export async function dashboardData(owner: Business, context: AppLoadContext) {
  const pos = posStatus(owner);
  const billing = subscriptionState(owner);
  const surveyCount = await context.surveys.countForBusiness(owner.id);
  return {
    displayName: owner.displayName,
    email: owner.email,
    isEmailVerified: owner.isEmailVerified,
    pos,
    billing,
    surveyCount,
  };
}

export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;
