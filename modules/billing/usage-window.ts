/**
 * The billing month and the Usage built from a count (issue 17), with no I/O: `usageFor` counts in
 * SQL; the owner's home (ADR 083) gets the count from its one analytics statement instead.
 */
import { findPlan, type Plan } from './plans.ts';
import { subscriptionState, type BillingFields } from './status.ts';

/**
 * Usage against the plan (issue 17): rewards issued in the current billing month against the plan's
 * monthly reward limit. A monthly plan's billing month is its billing period; a yearly plan's is
 * the month of its period that contains today (anchored on the period start's day); without a
 * period, the calendar month (UTC). Over the limit, every promised reward is still issued: the
 * overage is counted at the plan's cost per engagement.
 */
export type Usage = {
  windowStart: string;
  windowEnd: string;
  issued: number;
  limit: number;
  /** 0-100+, whole percent of the limit. */
  percent: number;
  over: number;
  /** Dollars: over x the plan's cost per engagement. */
  overageCost: number;
  costPerEngagement: number;
  planName: string;
};

function addMonths(d: Date, n: number): Date {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() + n);
  return r;
}

/** The billing month containing `now`. */
export function usageWindow(anchor: Date | null | undefined, now: Date): { start: Date; end: Date } {
  if (anchor && anchor <= now) {
    // Whole months counted from the anchor itself, so its day never drifts (Jan 31 -> Feb 28 -> Mar 31).
    let n = 0;
    while (addMonths(anchor, n + 1) <= now) n += 1;
    return { start: addMonths(anchor, n), end: addMonths(anchor, n + 1) };
  }
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: addMonths(start, 1) };
}

/** A live plan's billing month (the window `usageFromCount` counts rewards in); null without a live plan. */
export type UsagePlanWindow = { plan: Plan; start: Date; end: Date };

export function usagePlanWindow(business: BillingFields & { currentPeriodStart?: Date | null }, now: Date = new Date()): UsagePlanWindow | null {
  const state = subscriptionState(business, now);
  const plan = findPlan(business.subscriptionPlan);
  if (!plan || !(state.hasActiveSubscription || state.hasActiveTrial)) return null;
  return { plan, ...usageWindow(business.currentPeriodStart, now) };
}

/** Usage from the number of rewards issued in the window. */
export function usageFromCount({ plan, start, end }: UsagePlanWindow, issued: number): Usage {
  const over = Math.max(0, issued - plan.rewardLimit);
  return {
    windowStart: start.toISOString(),
    windowEnd: end.toISOString(),
    issued,
    limit: plan.rewardLimit,
    percent: Math.floor((issued * 100) / plan.rewardLimit),
    over,
    overageCost: Math.round(over * plan.costPerEngagement * 100) / 100,
    costPerEngagement: plan.costPerEngagement,
    planName: plan.name,
  };
}
