import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/server.ts';
import { canUseFreeTrial, findPlan, subscriptionState, usageFromCount, usagePlanWindow } from '../../modules/billing/index.ts';
import { posStatus } from '../../modules/pos/index.ts';
import { homeSurveyStatus } from '../../modules/surveys/index.ts';

/**
 * Everything the owner's home shows (issue 27, ADR 083), from real state: the owner (read once per
 * request by `getOwner`), one analytics statement (surveys with this week's responses, this week's
 * cards, held rewards, the cards of the plan's billing month for its usage) and the budget (a
 * statement only when the owner set one). Every status word comes from the surveys module.
 */
export async function dashboardData(owner: Business, context: AppLoadContext) {
  const pos = posStatus(owner);
  const billing = subscriptionState(owner);
  const hasPlan = billing.hasActiveSubscription || billing.hasActiveTrial;
  // The plan's usage is counted in the same statement as the home's figures (one round trip).
  const usageWindow = usagePlanWindow(owner);
  const [home, budget] = await Promise.all([context.analytics.home(owner.id, { issuedWindow: usageWindow }), context.billing.budget(owner)]);
  const usage = usageWindow && home.issuedInWindow !== null ? usageFromCount(usageWindow, home.issuedInWindow) : null;
  const surveys = home.surveys.map((s) => ({ id: s.id, title: s.title, responsesThisWeek: s.responsesThisWeek, status: homeSurveyStatus(s, { hasPlan, posConnected: pos.isConnected }) }));
  const current = surveys.filter((s) => s.status.key !== 'archived');
  return {
    displayName: owner.displayName,
    email: owner.email,
    isEmailVerified: owner.isEmailVerified,
    pos,
    billing,
    /** The plan's name when one is chosen (a trial has one too). */
    planName: hasPlan ? (findPlan(owner.subscriptionPlan)?.name ?? null) : null,
    /** A free trial can still be started (none in the last six months): the dashboard offers it only then. */
    trialAvailable: canUseFreeTrial(owner),
    /** Surveys not archived (the archived ones are in `surveys` too, last). */
    surveyCount: current.length,
    /** Getting Started's last step ("Set up reward campaigns") is done once a survey is published (issue 27 item 14). */
    published: current.some((s) => s.status.key !== 'draft'),
    surveys,
    week: {
      from: home.week.from,
      responses: home.responsesThisWeek,
      rewardsIssued: home.rewardsIssuedThisWeek,
      /** Cents. */
      rewardValue: home.rewardValueThisWeek,
    },
    heldRewards: home.heldRewards,
    usage,
    budget,
  };
}

export type DashboardData = Awaited<ReturnType<typeof dashboardData>>;
