/**
 * A survey's display badge (spec section 4): Available = active AND a subscription or trial is
 * active AND the point-of-sale account is connected; Unavailable = active but not available;
 * Inactive = switched off. The one place this rule lives.
 */
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
