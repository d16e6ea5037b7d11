import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { escapeHtml, type Mailer } from '../mail/index.ts';

export { usageWindow, type Usage } from './usage-window.ts';
import { usageFromCount, usagePlanWindow, usageWindow, type Usage } from './usage-window.ts';

export type RewardBudget = { budgetCents: number; spentCents: number; reached: boolean; windowStart: string; windowEnd: string };

export const BUDGET_MAX_DOLLARS = 100_000;
export const BUDGET_MESSAGE = `Enter a whole dollar amount from $1 to $${BUDGET_MAX_DOLLARS.toLocaleString('en-US')}, or leave it empty for no budget.`;

/** The owner's form value (whole dollars, `$` and commas allowed; empty: no budget) in cents, or an error. */
export function parseBudget(raw: unknown): { ok: true; cents: number | null } | { ok: false; message: string } {
  if (raw === null || raw === undefined) return { ok: true, cents: null };
  if (typeof raw !== 'string') return { ok: false, message: BUDGET_MESSAGE };
  const text = raw.trim().replace(/^\$/, '').replaceAll(',', '');
  if (text === '') return { ok: true, cents: null };
  if (!/^\d{1,6}$/.test(text)) return { ok: false, message: BUDGET_MESSAGE };
  const dollars = Number(text);
  if (dollars < 1 || dollars > BUDGET_MAX_DOLLARS) return { ok: false, message: BUDGET_MESSAGE };
  return { ok: true, cents: dollars * 100 };
}

/**
 * The owner's monthly reward budget against the rewards promised this billing month (every
 * response that earned a reward, issued or still on its way); null without a budget.
 */
export async function rewardBudget(
  em: EntityManager,
  business: Pick<Business, 'id' | 'monthlyRewardBudgetCents' | 'currentPeriodStart'>,
  now: Date = new Date(),
): Promise<RewardBudget | null> {
  if (business.monthlyRewardBudgetCents === null || business.monthlyRewardBudgetCents === undefined) return null;
  const { start, end } = usageWindow(business.currentPeriodStart, now);
  const [row] = await em
    .getConnection()
    .execute<Array<{ cents: number }>>(
      `select coalesce(sum(reward_value), 0)::int as cents from survey_responses where business_id = ? and submitted_at >= ? and submitted_at < ? and reward_value > 0`,
      [business.id, start, end],
    );
  const spentCents = row?.cents ?? 0;
  return { budgetCents: business.monthlyRewardBudgetCents, spentCents, reached: spentCents >= business.monthlyRewardBudgetCents, windowStart: start.toISOString(), windowEnd: end.toISOString() };
}

export const USAGE_ALERT_LEVELS = [80, 100] as const;

type UsageFields = Pick<Business, 'id' | 'subscriptionStatus' | 'subscriptionPlan' | 'trialEndsAt' | 'currentPeriodStart'>;

/** The owner's usage this billing month; null without a live plan. */
export async function usageFor(em: EntityManager, business: UsageFields, now: Date = new Date()): Promise<Usage | null> {
  const window = usagePlanWindow(business, now);
  if (!window) return null;
  const [row] = await em
    .getConnection()
    .execute<Array<{ n: number }>>(`select count(*)::int as n from gift_card_issuances where business_id = ? and issued_at >= ? and issued_at < ?`, [business.id, window.start, window.end]);
  return usageFromCount(window, row?.n ?? 0);
}

/**
 * After a reward is issued: emails the owner once when this billing month's usage first reaches
 * 80% and once at 100% of the plan's limit. The level is claimed with one conditional UPDATE, so
 * two rewards issued at once never send the same email twice.
 */
export async function checkUsageAlerts(deps: { em: EntityManager; mailer: Mailer; appUrl: string; logger: Logger; now?: () => Date }, businessId: string): Promise<number | null> {
  const em = deps.em.fork();
  const now = deps.now?.() ?? new Date();
  const business = await em.findOne(Business, { id: businessId });
  if (!business) return null;
  const usage = await usageFor(em, business, now);
  if (!usage) return null;
  const level = [...USAGE_ALERT_LEVELS].reverse().find((l) => usage.issued * 100 >= l * usage.limit);
  if (!level) return null;
  const windowStart = new Date(usage.windowStart);
  // One conditional UPDATE claims the level: a new billing month (or none yet), or a higher level.
  const claimed = await em.nativeUpdate(
    Business,
    { id: businessId, $or: [{ usageAlertWindowStart: null }, { usageAlertWindowStart: { $ne: windowStart } }, { usageAlertLevel: { $lt: level } }] },
    { usageAlertLevel: level, usageAlertWindowStart: windowStart },
  );
  if (claimed === 0) return null;
  const link = new URL('/subscription-details', deps.appUrl).toString();
  const lines =
    level === 100
      ? [
          `Your customers have earned ${usage.issued} rewards this billing month: the ${usage.limit} included in your ${usage.planName} plan are used up.`,
          `Every reward you promised is still sent. Rewards over the limit are counted at $${usage.costPerEngagement.toFixed(2)} each; you can see the total, or move to a larger plan, on your subscription page.`,
        ]
      : [
          `Your customers have earned ${usage.issued} of the ${usage.limit} rewards included in your ${usage.planName} plan this billing month (${usage.percent}%).`,
          `Rewards over the limit are still sent and counted at $${usage.costPerEngagement.toFixed(2)} each. See your usage on your subscription page.`,
        ];
  try {
    await deps.mailer.send({
      to: business.email,
      subject: level === 100 ? 'You have reached your RewardLoop reward limit' : 'You have used 80% of your RewardLoop rewards',
      text: `Hello ${business.displayName},\n\n${lines.join('\n\n')}\n\n${link}\n`,
      html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>Hello ${escapeHtml(business.displayName)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">Your subscription and usage</a></p>
</body></html>`,
    });
  } catch (error) {
    deps.logger.error({ err: error, businessId, level }, 'usage alert email could not be sent');
  }
  return level;
}
