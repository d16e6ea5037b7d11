/**
 * Subscription state as the dashboard and publish checks read it (spec section 3, two shapes).
 * Derived from the business record, whose `subscriptionStatus` holds the provider's status as the
 * billing service last read it (checkout, cancel, webhooks).
 */
export type BillingFields = {
  subscriptionStatus: string;
  subscriptionPlan?: string | null;
  trialEndsAt?: Date | null;
};

export type SubscriptionStatus = 'active' | 'trialing' | 'trial_expired' | 'canceled' | 'none';

export type SubscriptionState = {
  status: SubscriptionStatus;
  hasActiveSubscription: boolean;
  hasActiveTrial: boolean;
  trialDaysRemaining: number;
};

const DAY_MS = 86_400_000;

export function subscriptionState(b: BillingFields, now: Date = new Date()): SubscriptionState {
  const trialLive = Boolean(b.trialEndsAt && b.trialEndsAt > now);
  let status: SubscriptionStatus = 'none';
  // Stripe keeps a past_due subscription alive while it retries the card: it still counts as active.
  if (b.subscriptionStatus === 'active' || b.subscriptionStatus === 'past_due') status = 'active';
  else if (b.subscriptionStatus === 'trialing') status = trialLive ? 'trialing' : 'trial_expired';
  else if (b.subscriptionStatus === 'canceled' || b.subscriptionStatus === 'unpaid' || b.subscriptionStatus === 'incomplete_expired') status = 'canceled';
  else if (b.subscriptionStatus === 'trial_expired') status = 'trial_expired';
  return {
    status,
    hasActiveSubscription: status === 'active',
    hasActiveTrial: status === 'trialing',
    trialDaysRemaining: status === 'trialing' && b.trialEndsAt ? Math.ceil((b.trialEndsAt.getTime() - now.getTime()) / DAY_MS) : 0,
  };
}
