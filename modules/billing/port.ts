import type { SubscriptionState } from './status.ts';

/** The plans of spec section 9; prices in whole dollars. */
export type PlanId = 'starter' | 'growth' | 'pro';

export type BillingAccount = {
  id: string;
  subscriptionStatus: string;
  subscriptionPlan?: string | null;
  trialEndsAt?: Date | null;
  trialUsedAt?: Date | null;
  lastTrialEndedAt?: Date | null;
};

export type StartTrialResult = { ok: true; trialEndsAt: Date } | { ok: false; message: string };

/**
 * The Billing port: subscription and trial state, and starting a trial. The demo adapter starts a
 * trial in one click; the Stripe adapter of the billing issue collects a payment method first.
 */
export interface Billing {
  readonly id: 'demo' | 'stripe';
  startTrial(account: BillingAccount, plan: PlanId, isYearly: boolean): Promise<StartTrialResult>;
}

export type { SubscriptionState };
