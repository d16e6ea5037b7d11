/**
 * modules/billing, the browser-safe face (ADR 058): plans (spec section 9), subscription state,
 * publish readiness, the Billing port and the billing pages' wording. No ORM, no entity: route
 * components import it. The billing service, the sync job and the usage emails are in `./server.ts`.
 */
export {
  PLANS,
  dailyRewardsCopy,
  PLAN_NOT_FOUND,
  TRIAL_DAYS,
  dollars,
  findPlan,
  intervalFromYearly,
  isPlanId,
  parseInterval,
  periodPrice,
  yearlyPerMonth,
  yearlySavings,
  type BillingInterval,
  type Plan,
  type PlanId,
} from './plans.ts';
export { subscriptionState, type BillingFields, type SubscriptionState, type SubscriptionStatus } from './status.ts';
export { canUseFreeTrial, publishStatus, TRIAL_USED_NOTICE, type PublishStatus } from './publish-readiness.ts';
export * from './port.ts';
export { BILLING_MESSAGES, portalErrorTitle, selectionFailedMessage } from './messages.ts';
export type { RewardBudget } from './usage.ts';
export { usageFromCount, usagePlanWindow, type Usage, type UsagePlanWindow } from './usage-window.ts';
export type { BillingService, CheckoutView, PlanDetails, SubscriptionDetails } from './service.ts';
