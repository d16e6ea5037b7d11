import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../../modules/accounts/entities.ts';
import type { Billing, BillingAccount, PlanId, StartTrialResult } from '../../modules/billing/port.ts';
import { canUseFreeTrial, TRIAL_DAYS } from '../../modules/billing/publish-readiness.ts';

/**
 * Demo billing: a trial starts in one click, no payment method. The default with no Stripe keys
 * outside production (refused in production unless ALLOW_DEMO_ADAPTERS).
 */
export class DemoBilling implements Billing {
  readonly id = 'demo' as const;
  private readonly em: () => EntityManager;
  private readonly now: () => Date;

  constructor(options: { em: () => EntityManager; now?: () => Date }) {
    this.em = options.em;
    this.now = options.now ?? (() => new Date());
  }

  async startTrial(account: BillingAccount, plan: PlanId, isYearly: boolean): Promise<StartTrialResult> {
    const now = this.now();
    if (account.subscriptionStatus === 'active') return { ok: false, message: 'You already have an active subscription.' };
    if (!canUseFreeTrial(account, now)) {
      return { ok: false, message: 'You used your free trial within the last 6 months, so a paid subscription is required.' };
    }
    const em = this.em();
    const business = await em.findOneOrFail(Business, { id: account.id });
    const trialEndsAt = new Date(now.getTime() + (isYearly ? TRIAL_DAYS.yearly : TRIAL_DAYS.monthly) * 86_400_000);
    business.subscriptionStatus = 'trialing';
    business.subscriptionPlan = plan;
    business.plan = plan;
    business.trialStatus = 'active';
    business.trialUsedAt = now;
    business.trialEndsAt = trialEndsAt;
    await em.flush();
    return { ok: true, trialEndsAt };
  }
}
