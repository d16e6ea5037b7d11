/**
 * What the billing service does with one verified webhook event (ADR 022): the events RewardLoop
 * acts on, the business they name, the subscription re-read from the provider and written onto it,
 * and the email the owner gets (trial ending, payment failed). Split from service.ts (issue 28
 * item 4); `handleWebhook` there records the event id and sends the email.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { findPlan } from './plans.ts';
import { BillingError, type Billing, type BillingEvent, type ProviderSubscription } from './port.ts';

const PAYMENT_FAILED_STATUSES = new Set<ProviderSubscription['status']>(['past_due', 'unpaid', 'incomplete']);

export type EventOutcome = { ignored: string | null; mail: { business: Business; subject: string; lines: string[] } | null };

export async function handleEvent(
  tx: EntityManager,
  event: BillingEvent,
  { billing, logger, apply }: { billing: Billing; logger: Logger; apply: (business: Business, sub: ProviderSubscription) => void },
): Promise<EventOutcome> {
  const handled = [
    'customer.subscription.created',
    'customer.subscription.updated',
    'customer.subscription.deleted',
    'customer.subscription.trial_will_end',
    'invoice.payment_failed',
    'invoice.paid',
  ];
  const ignore = (reason: string): EventOutcome => {
    logger.info({ eventId: event.id, type: event.type, reason }, 'billing webhook ignored');
    return { ignored: reason, mail: null };
  };
  if (!handled.includes(event.type)) return ignore('not an event RewardLoop acts on.');
  if (!event.subscriptionId) return ignore('the event names no subscription.');
  const business =
    (await tx.findOne(Business, { stripeSubscriptionId: event.subscriptionId })) ??
    (event.customerId ? await tx.findOne(Business, { stripeCustomerId: event.customerId }) : null);
  if (!business) return ignore('no business has this subscription or customer.');
  // An older subscription's late event never overwrites the one the business has now.
  if (business.stripeSubscriptionId && business.stripeSubscriptionId !== event.subscriptionId) return ignore('the business has a newer subscription.');
  let sub: ProviderSubscription;
  try {
    sub = await billing.retrieveSubscription(event.subscriptionId);
  } catch (error) {
    // Unknown at the provider (a test event, a deleted object): nothing to apply. Unreachable: rethrown, 503.
    if (error instanceof BillingError && (error.code === 'not_found' || error.code === 'invalid')) return ignore(`the provider does not know this subscription (${error.code}).`);
    throw error;
  }
  apply(business, sub);
  await tx.flush();
  const day = (d: Date | null) => (d ? d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : 'soon');
  if (event.type === 'customer.subscription.trial_will_end' && sub.status === 'trialing') {
    const plan = findPlan(sub.planId);
    return {
      ignored: null,
      mail: {
        business,
        subject: 'Your RewardLoop free trial ends soon',
        lines: [
          `Your free trial ends on ${day(sub.trialEnd)}.`,
          `After that your ${plan?.name ?? ''} plan continues on the card you saved. To stop, cancel before then from your subscription page.`.replace('  ', ' '),
        ],
      },
    };
  }
  // Only while the provider still says the subscription is unpaid: a forged or stale
  // invoice.payment_failed (or one whose retry has since paid) emails nobody.
  if (event.type === 'invoice.payment_failed' && PAYMENT_FAILED_STATUSES.has(sub.status)) {
    return {
      ignored: null,
      mail: {
        business,
        subject: 'Your RewardLoop payment failed',
        lines: [
          'We could not charge your card for your RewardLoop subscription.',
          'Please update your payment method from your subscription page (Manage Subscription) so your surveys stay available.',
        ],
      },
    };
  }
  return { ignored: null, mail: null };
}
