/**
 * The plans of spec section 9, once. Every page and the API read them from here; nothing the browser
 * sends (a price, a plan name, trial days) is used in their place.
 */
export type PlanId = 'starter' | 'growth' | 'pro';
export type BillingInterval = 'month' | 'year';

export type Plan = {
  id: PlanId;
  name: string;
  description: string;
  /** Whole dollars. */
  monthlyPrice: number;
  /** Whole dollars for twelve months paid at once. */
  yearlyPrice: number;
  /** Rewards a billing month includes (the upper end of the plan's range). */
  rewardLimit: number;
  /** The plan's range as the spec words it. */
  rewardRange: string;
  /** Dollars per engagement, counted for rewards over the limit. */
  costPerEngagement: number;
  features: string[];
  mostPopular: boolean;
};

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'For a single cafe or bakery getting its first reviews.',
    monthlyPrice: 19,
    yearlyPrice: 190,
    rewardLimit: 30,
    rewardRange: 'Up to 30 rewards per month',
    costPerEngagement: 0.64,
    features: ['Unlimited surveys', 'Survey analytics and CSV export', 'Gift cards through Square, emailed', 'QR code and printable flyer', 'Review and social screenshot checks'],
    mostPopular: false,
  },
  {
    id: 'growth',
    name: 'Growth',
    description: 'For a busy shop turning regulars into reviewers.',
    monthlyPrice: 49,
    yearlyPrice: 490,
    rewardLimit: 100,
    rewardRange: '31-100 rewards per month',
    costPerEngagement: 0.49,
    features: ['Everything in Starter', 'A lower cost per engagement', 'Email support'],
    mostPopular: true,
  },
  {
    id: 'pro',
    name: 'Pro',
    description: 'For restaurants and multi-location businesses.',
    monthlyPrice: 99,
    yearlyPrice: 990,
    rewardLimit: 1000,
    rewardRange: '101-1000 rewards per month',
    costPerEngagement: 0.1,
    features: ['Everything in Growth', 'The lowest cost per engagement', 'Priority support'],
    mostPopular: false,
  },
];

export const PLAN_NOT_FOUND = 'Plan not found';

export function findPlan(id: unknown): Plan | null {
  return PLANS.find((p) => p.id === id) ?? null;
}

export function isPlanId(id: unknown): id is PlanId {
  return findPlan(id) !== null;
}

/** Yearly billing shown per month: yearly / 12, rounded (spec section 9: $16, $41, $83). */
export function yearlyPerMonth(plan: Plan): number {
  return Math.round(plan.yearlyPrice / 12);
}

/** What a year paid at once saves against twelve monthly payments: 12 x monthly - yearly. */
export function yearlySavings(plan: Plan): number {
  return 12 * plan.monthlyPrice - plan.yearlyPrice;
}

/** The price of one billing period in whole dollars. */
export function periodPrice(plan: Plan, interval: BillingInterval): number {
  return interval === 'year' ? plan.yearlyPrice : plan.monthlyPrice;
}

/** `$19` or `$0.64`: whole dollars without decimals, otherwise two. */
export function dollars(amount: number): string {
  return Number.isInteger(amount) ? `$${amount.toLocaleString('en-US')}` : `$${amount.toFixed(2)}`;
}

/** Trial length per billing cycle (ARCHITECTURE.md: 7 days monthly, 14 yearly). */
export const TRIAL_DAYS: Record<BillingInterval, number> = { month: 7, year: 14 };

/** `interval` from a query or form value: `monthly`/`month` or `yearly`/`year`; anything else is the default, yearly. */
export function parseInterval(value: unknown): BillingInterval {
  return value === 'monthly' || value === 'month' ? 'month' : 'year';
}

/** The spec's `isYearly` flag, strictly: true, false, or the strings of a form. */
export function intervalFromYearly(isYearly: boolean): BillingInterval {
  return isYearly ? 'year' : 'month';
}

/**
 * What a plan's monthly rewards come to per day, from its own limit (issue 27 item 11: every plan
 * used to say "Average up to 5+ daily engagements"): 30 a month is about 1 a day, 1000 about 33.
 */
export function dailyRewardsCopy(plan: Plan): string {
  const perDay = Math.max(1, Math.round(plan.rewardLimit / 30));
  return `About ${perDay} reward${perDay === 1 ? '' : 's'} a day on average`;
}
