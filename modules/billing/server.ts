/** modules/billing, the server face (ADR 058): the billing service, the subscription sync job, the usage emails and the entities. */
export { createBillingService, type BillingDeps } from './service.ts';
export { BILLING_SYNC_CRON, BILLING_SYNC_QUEUE, registerBillingSync, syncEndedSubscriptions } from './sync.ts';
export { BUDGET_MESSAGE, checkUsageAlerts, parseBudget, rewardBudget, usageFor, usageWindow } from './usage.ts';
export { BillingCheckout, BillingWebhookEvent } from './entities.ts';
