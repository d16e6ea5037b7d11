import Stripe from 'stripe';
import { BillingError, type BillingEvent } from '../../modules/billing/index.ts';

/** Stripe's default: a signature older than five minutes is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

type Obj = Record<string, unknown>;

const idOf = (v: unknown): string | null => {
  const id = typeof v === 'string' ? v : v && typeof v === 'object' ? (v as Obj).id : null;
  return isStorableId(id, 255) ? id : null;
};

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
  // A signed event is still checked for shape before it is used: an id we can store (Stripe's are
  // `evt_…`; at most 255 printable characters), a type, and `data.object` an object. Anything else is
  // a 400 (`invalid`), never a crash and never an effect.
  const envelope = event as unknown as Obj | null;
  if (!envelope || typeof envelope !== 'object' || Array.isArray(envelope)) throw new BillingError('invalid', 'The event is not a JSON object.');
  if (!isStorableId(envelope.id, 255)) throw new BillingError('invalid', 'The event has no valid id (a string of 1 to 255 printable characters).');
  if (!isStorableId(envelope.type, 100)) throw new BillingError('invalid', 'The event has no valid type.');
  const data = envelope.data as Obj | null | undefined;
  const object = data && typeof data === 'object' ? (data.object as Obj | null | undefined) : undefined;
  if (!object || typeof object !== 'object' || Array.isArray(object)) throw new BillingError('invalid', 'The event has no data.object.');
  let subscriptionId: string | null = null;
  if (object.object === 'subscription') subscriptionId = idOf(object.id);
  else if (object.object === 'invoice') {
    const parent = object.parent as Obj | null | undefined;
    const details = parent && typeof parent === 'object' ? (parent.subscription_details as Obj | null | undefined) : undefined;
    subscriptionId = idOf(object.subscription) ?? idOf(details?.subscription);
  }
  return { id: envelope.id, type: envelope.type, customerId: idOf(object.customer), subscriptionId };
}

/** A provider's id we can store and look up: 1 to `max` printable ASCII characters (no NUL, no spaces). */
function isStorableId(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= max && /^[\x21-\x7e]+$/.test(value);
}
