import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { Billing } from './port.ts';
import { applySubscription } from './service.ts';

export const BILLING_SYNC_QUEUE = 'billing-sync' as const;
/** Every 15 minutes (pg-boss cron, UTC). */
export const BILLING_SYNC_CRON = '*/15 * * * *';
const BATCH = 200;

/**
 * Re-reads from the provider every subscription whose trial or billing period has ended by our
 * record (a webhook may have been missed; the fake sends none) and writes what it says onto the
 * business: a trial that turned into a paid period becomes active, one the provider canceled
 * becomes canceled. Until then an ended trial reads `trial_expired` by the clock.
 */
export async function syncEndedSubscriptions(deps: { em: EntityManager; billing: Billing; logger: Logger; now?: () => Date }): Promise<{ due: number; updated: number; failed: number }> {
  const em = deps.em.fork();
  const now = deps.now?.() ?? new Date();
  const due = await em.find(
    Business,
    {
      stripeSubscriptionId: { $ne: null },
      $or: [
        { subscriptionStatus: 'trialing', trialEndsAt: { $lte: now } },
        { subscriptionStatus: { $in: ['active', 'past_due'] }, currentPeriodEnd: { $lte: now } },
      ],
    },
    { limit: BATCH, orderBy: { id: 'asc' } },
  );
  let updated = 0;
  let failed = 0;
  for (const business of due) {
    try {
      const sub = await deps.billing.retrieveSubscription(business.stripeSubscriptionId!);
      const before = `${business.subscriptionStatus}|${business.currentPeriodEnd?.toISOString()}`;
      applySubscription(business, sub, now);
      if (`${business.subscriptionStatus}|${business.currentPeriodEnd?.toISOString()}` !== before) updated += 1;
    } catch (error) {
      failed += 1;
      deps.logger.warn({ err: error, businessId: business.id }, 'billing-sync: subscription could not be read');
    }
  }
  await em.flush();
  if (due.length > 0) deps.logger.info({ due: due.length, updated, failed }, 'billing-sync');
  return { due: due.length, updated, failed };
}

/** Registers the `billing-sync` worker and its schedule (re-registering replaces the schedule). */
export async function registerBillingSync(jobs: JobQueue, deps: { em: EntityManager; billing: Billing; logger: Logger }): Promise<void> {
  await jobs.work(BILLING_SYNC_QUEUE, async () => {
    await syncEndedSubscriptions(deps);
  });
  await jobs.schedule(BILLING_SYNC_QUEUE, BILLING_SYNC_CRON);
}
