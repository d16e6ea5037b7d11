/**
 * A survey's status, the one word every owner page shows for it (spec section 4, issue 15): Draft =
 * never published (customers cannot open it; the owner's preview can); Inactive = switched off;
 * Available = active AND a subscription or trial is active AND the point-of-sale account is
 * connected; Unavailable = published and active but not available, with the reasons and their fixes.
 * The one place this rule lives: customers reach exactly the Available surveys.
 */
import { subscriptionState, type BillingFields } from '../billing/index.ts';
import { posStatus, type PosFields } from '../pos/index.ts';

export type Availability = 'Draft' | 'Available' | 'Unavailable' | 'Inactive';

export type AvailabilityInputs = { isActive: boolean; isPublished: boolean; hasPlan: boolean; posConnected: boolean };

export function surveyAvailability({ isActive, isPublished, hasPlan, posConnected }: AvailabilityInputs): Availability {
  if (!isPublished) return 'Draft';
  if (!isActive) return 'Inactive';
  return hasPlan && posConnected ? 'Available' : 'Unavailable';
}

/** What keeps a published, active survey from customers, and the page that fixes it. */
export type UnavailableFix = { reason: string; label: string; href: string };

export function unavailableFixes(inputs: AvailabilityInputs): UnavailableFix[] {
  if (surveyAvailability(inputs) !== 'Unavailable') return [];
  const fixes: UnavailableFix[] = [];
  if (!inputs.hasPlan) fixes.push({ reason: 'Start a free trial or subscribe to publish surveys.', label: 'Start Free Trial', href: '/subscription-plans' });
  if (!inputs.posConnected) fixes.push({ reason: 'Connect Square so rewards can be delivered.', label: 'Connect Square', href: '/api/square/auth' });
  return fixes;
}

/**
 * Square connected without a location: the survey is Available, but its rewards are Test cards
 * (ADR 018) until the owner chooses one. Said beside the status, with the fix.
 */
export function locationNotice(readiness: { needsLocation: boolean }): UnavailableFix | null {
  return readiness.needsLocation
    ? { reason: 'Rewards are Test cards until you choose a Square location.', label: 'Choose Location', href: '/square-location-selection' }
    : null;
}

/** Why a published, active survey is unavailable, in the owner's words; empty otherwise. */
export function unavailableReasons(inputs: AvailabilityInputs): string[] {
  return unavailableFixes(inputs).map((f) => f.reason);
}

/** The owner-level half of the rule, read from the business record: a plan, and Square connected. */
export function businessReadiness(business: BillingFields & PosFields, now: Date = new Date()) {
  const billing = subscriptionState(business, now);
  const pos = posStatus(business);
  return { hasPlan: billing.hasActiveSubscription || billing.hasActiveTrial, posConnected: pos.isConnected, needsLocation: pos.needsLocation, billing };
}
