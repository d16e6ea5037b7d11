import { describe, expect, it } from 'vitest';
import { eligibilityFrom } from './eligibility.ts';

const now = new Date('2026-11-21T12:00:00Z');
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);

describe('eligibilityFrom', () => {
  it.each([
    [null, 90, true, 0],
    [daysAgo(90), 90, true, 0],
    [daysAgo(89.5), 90, false, 1],
    [daysAgo(1), 90, false, 89],
    [daysAgo(0), 180, false, 180],
    [daysAgo(200), 180, true, 0],
    [daysAgo(364), 365, false, 1],
  ])('last %s, every %i days -> eligible %s, %i days left', (last, days, eligible, remaining) => {
    const r = eligibilityFrom(last, days, now);
    expect(r.eligible).toBe(eligible);
    expect(r.daysRemaining).toBe(remaining);
    expect(r.message === null).toBe(eligible);
  });

  it('says when the customer can come back', () => {
    expect(eligibilityFrom(daysAgo(89), 90, now).message).toBe('This email has already been used for a reward here. You can take the survey again in 1 day.');
  });
});
