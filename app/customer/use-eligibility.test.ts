import { describe, expect, it } from 'vitest';
import { ELIGIBILITY_ERROR, eligibilityFrom, knownEligible, UNCHECKED } from './use-eligibility.ts';

describe('the email eligibility check (spec 4)', () => {
  it("reads the server's answer, and a failed request as not eligible with a retry message", () => {
    expect(eligibilityFrom({ eligible: true }, 'a@b.co')).toEqual({ checking: false, eligible: true, message: null, email: 'a@b.co' });
    expect(eligibilityFrom({ eligible: false, message: 'You can take this survey again in 3 days.' }, 'a@b.co')).toMatchObject({ eligible: false, message: 'You can take this survey again in 3 days.' });
    expect(eligibilityFrom(null, 'a@b.co')).toEqual({ checking: false, eligible: false, message: ELIGIBILITY_ERROR, email: 'a@b.co' });
  });

  it("keeps the repeat window's days left, so the page can word it in the customer's language (ADR 084)", () => {
    expect(eligibilityFrom({ eligible: false, message: 'x', daysRemaining: 3 }, 'a@b.co')).toMatchObject({ eligible: false, daysRemaining: 3 });
    expect(eligibilityFrom({ eligible: true, daysRemaining: 0 }, 'a@b.co')).not.toHaveProperty('daysRemaining');
  });

  it('asks again on submit unless this very email was found eligible', () => {
    const ok = eligibilityFrom({ eligible: true }, 'a@b.co');
    expect(knownEligible(ok, 'a@b.co')).toBe(ok);
    expect(knownEligible(ok, 'other@b.co')).toBeNull();
    expect(knownEligible(eligibilityFrom({ eligible: false }, 'a@b.co'), 'a@b.co')).toBeNull();
    expect(knownEligible(UNCHECKED, 'a@b.co')).toBeNull();
  });
});
