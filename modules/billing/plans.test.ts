import { describe, expect, it } from 'vitest';
import { findPlan, PLANS, TRIAL_DAYS, yearlyPerMonth, yearlySavings } from './plans.ts';

describe('plans (spec section 9)', () => {
  it('prices, limits, cost per engagement; yearly per month = yearly / 12 rounded; savings = 12 x monthly - yearly', () => {
    expect(PLANS.map((p) => [p.id, p.monthlyPrice, p.yearlyPrice, p.rewardLimit, p.costPerEngagement])).toEqual([
      ['starter', 19, 190, 30, 0.64],
      ['growth', 49, 490, 100, 0.49],
      ['pro', 99, 990, 1000, 0.1],
    ]);
    expect(PLANS.map(yearlyPerMonth)).toEqual([16, 41, 83]);
    expect(PLANS.map(yearlySavings)).toEqual([38, 98, 198]);
    expect(PLANS.filter((p) => p.mostPopular).map((p) => p.id)).toEqual(['growth']);
    expect(TRIAL_DAYS).toEqual({ month: 7, year: 14 });
    expect(findPlan('enterprise')).toBeNull();
    expect(findPlan({ id: 'growth' })).toBeNull();
  });
});
