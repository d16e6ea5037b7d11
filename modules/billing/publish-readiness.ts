import type { BillingAccount } from './port.ts';
import { subscriptionState, type SubscriptionStatus } from './status.ts';

const DAY_MS = 86_400_000;
/** No free trial again within six months of the last one (spec section 9). */
export const TRIAL_COOLDOWN_DAYS = 182;

export type PublishAction = 'publish' | 'trial' | 'subscribe';

/** GET /api/survey/publish-status (spec section 3 "Publish status"). */
export type PublishStatus = {
  action: PublishAction;
  subscriptionStatus: SubscriptionStatus;
  message: string;
  trialEndsAt: string | null;
  canUseFreeTrial: boolean;
};

/** The spec's notice when the free trial was used within the last six months. */
export const TRIAL_USED_NOTICE = 'You used your free trial within the last 6 months, so a paid subscription is required to publish.';

export function canUseFreeTrial(account: BillingAccount, now: Date = new Date()): boolean {
  const last = account.trialUsedAt ?? account.lastTrialEndedAt;
  if (!last) return true;
  return now.getTime() - last.getTime() >= TRIAL_COOLDOWN_DAYS * DAY_MS;
}

/** What an owner must do before a survey can go live: publish now, start a trial, or subscribe. */
export function publishStatus(account: BillingAccount, now: Date = new Date()): PublishStatus {
  const state = subscriptionState(account, now);
  const trial = canUseFreeTrial(account, now);
  const trialEndsAt = account.trialEndsAt ? account.trialEndsAt.toISOString() : null;
  if (state.hasActiveSubscription) {
    return { action: 'publish', subscriptionStatus: state.status, message: 'Your subscription is active. You can publish now.', trialEndsAt, canUseFreeTrial: trial };
  }
  if (state.hasActiveTrial) {
    const days = state.trialDaysRemaining;
    return {
      action: 'publish',
      subscriptionStatus: state.status,
      message: `Your free trial is active (${days} day${days === 1 ? '' : 's'} left). You can publish now.`,
      trialEndsAt,
      canUseFreeTrial: false,
    };
  }
  if (trial) {
    return {
      action: 'trial',
      subscriptionStatus: state.status,
      message: 'Start your free trial to publish this survey. Try every feature free for up to 14 days.',
      trialEndsAt,
      canUseFreeTrial: true,
    };
  }
  return {
    action: 'subscribe',
    subscriptionStatus: state.status,
    message: TRIAL_USED_NOTICE,
    trialEndsAt,
    canUseFreeTrial: false,
  };
}
