import type { EntityManager } from '@mikro-orm/core';
import { CustomerSubmission } from './entities.ts';
export { WINDOW_MESSAGE_KEY } from './customer-checks.ts';

const DAY_MS = 86_400_000;

/** POST /api/survey/check-email-eligibility/{businessId} (spec section 3 "Email eligibility"). */
export type Eligibility = { eligible: boolean; message: string | null; daysRemaining: number };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The repeat-submission window, per business and customer email: eligible when there is no earlier
 * submission or the last one is at least `frequencyDays` old.
 */
export function eligibilityFrom(lastSubmissionAt: Date | null, frequencyDays: number, now: Date): Eligibility {
  if (!lastSubmissionAt) return { eligible: true, message: null, daysRemaining: 0 };
  const nextAllowed = lastSubmissionAt.getTime() + frequencyDays * DAY_MS;
  if (now.getTime() >= nextAllowed) return { eligible: true, message: null, daysRemaining: 0 };
  const daysRemaining = Math.max(1, Math.ceil((nextAllowed - now.getTime()) / DAY_MS));
  return {
    eligible: false,
    message: `This email has already been used for a reward here. You can take the survey again in ${daysRemaining} day${daysRemaining === 1 ? '' : 's'}.`,
    daysRemaining,
  };
}

export async function checkEligibility(
  em: EntityManager,
  input: { businessId: string; email: string; frequencyDays: number; now?: Date },
): Promise<Eligibility> {
  const row = await em.findOne(CustomerSubmission, { businessId: input.businessId, customerEmail: normaliseEmail(input.email) });
  return eligibilityFrom(row?.lastSubmissionAt ?? null, input.frequencyDays, input.now ?? new Date());
}
