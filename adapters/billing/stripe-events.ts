import Stripe from 'stripe';
import { BillingError, type BillingEvent } from '../../modules/billing/index.ts';

/** Stripe's default: a signature older than five minutes is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

type Obj = Record<string, unknown>;

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Obj).id === 'string' ? ((v as Obj).id as string) : null);

/**
 * Verifies a `Stripe-Signature` header with the stripe SDK (HMAC over the exact bytes, timestamp
 * within tolerance) and reduces the event to what the billing service needs: its id, type, customer
 * and subscription. Invoices name their subscription at `subscription` (API versions before
 * 2025-03-31) or at `parent.subscription_details.subscription` (since).
 */
export function verifyStripeSignedEvent(payload: string, signature: string | null, secret: string): BillingEvent {
  if (!signature) throw new BillingError('signature', 'Missing Stripe-Signature header.');
  let event: { id: string; type: string; data: { object: Obj } };
  try {
    event = Stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS) as unknown as typeof event;
  } catch (error) {
    throw new BillingError('signature', error instanceof Error ? error.message : 'The webhook signature is not valid.');
  }
  const object = (event.data?.object ?? {}) as Obj;
  let subscriptionId: string | null = null;
  if (object.object === 'subscription') subscriptionId = idOf(object.id);
  else if (object.object === 'invoice') {
    const parent = object.parent as Obj | null | undefined;
    const details = parent?.subscription_details as Obj | null | undefined;
    subscriptionId = idOf(object.subscription) ?? idOf(details?.subscription);
  }
  return { id: event.id, type: event.type, customerId: idOf(object.customer), subscriptionId };
}
