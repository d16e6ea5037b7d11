/**
 * The billing module's public face: app/ imports billing only from here. Plans (spec section 9),
 * subscription state, publish readiness, the Billing port and the billing service.
 */
export {
  PLANS,
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
export { subscriptionState, type SubscriptionState, type SubscriptionStatus } from './status.ts';
export { canUseFreeTrial, publishStatus, TRIAL_USED_NOTICE, type PublishStatus } from './publish-readiness.ts';
export * from './port.ts';
export {
  BILLING_MESSAGES,
  createBillingService,
  portalErrorTitle,
  selectionFailedMessage,
  type BillingService,
  type CheckoutView,
  type PlanDetails,
  type SubscriptionDetails,
} from './service.ts';
export { BILLING_SYNC_CRON, BILLING_SYNC_QUEUE, registerBillingSync, syncEndedSubscriptions } from './sync.ts';
export { BUDGET_MESSAGE, checkUsageAlerts, parseBudget, rewardBudget, usageFor, usageWindow, type RewardBudget, type Usage } from './usage.ts';
