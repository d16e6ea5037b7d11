/**
 * A survey's display badge (spec section 4): Available = active AND a subscription or trial is
 * active AND the point-of-sale account is connected; Unavailable = active but not available;
 * Inactive = switched off. The one place this rule lives.
 */
import { subscriptionState, type BillingFields } from '../billing/status.ts';
import { posStatus, type PosFields } from '../pos/status.ts';

export type Availability = 'Available' | 'Unavailable' | 'Inactive';

export type AvailabilityInputs = { isActive: boolean; hasPlan: boolean; posConnected: boolean };

export function surveyAvailability({ isActive, hasPlan, posConnected }: AvailabilityInputs): Availability {
  if (!isActive) return 'Inactive';
  return hasPlan && posConnected ? 'Available' : 'Unavailable';
}

/** Why an active survey is unavailable, in the owner's words; null when it is available or inactive. */
export function unavailableReasons({ isActive, hasPlan, posConnected }: AvailabilityInputs): string[] {
  if (!isActive) return [];
  const reasons: string[] = [];
  if (!hasPlan) reasons.push('Start a free trial or subscribe to publish surveys.');
  if (!posConnected) reasons.push('Connect Square so rewards can be delivered.');
  return reasons;
}

/** The owner-level half of the rule, read from the business record: a plan, and Square connected. */
export function businessReadiness(business: BillingFields & PosFields, now: Date = new Date()) {
  const billing = subscriptionState(business, now);
  return { hasPlan: billing.hasActiveSubscription || billing.hasActiveTrial, posConnected: posStatus(business).isConnected, billing };
}
