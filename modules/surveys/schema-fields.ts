/**
 * The survey builder's single fields and reward rules, shared by the form schema and the JSON API's
 * (`schema.ts`): reward modes and minimums, presets, links and handles, title, template, frequency,
 * review policy, tier points. Split from schema.ts (issue 28 item 4).
 */
import { z } from 'zod';
import { DEFAULT_TEMPLATE_ID, getTemplate, REVIEW_PLATFORMS, REVIEW_POLICIES, SOCIAL_PLATFORMS, type PresetId, type TierName } from './template.ts';

export const REVIEW_PLATFORM_IDS = REVIEW_PLATFORMS;
export const SOCIAL_PLATFORM_IDS = SOCIAL_PLATFORMS;
export const REWARD_MODES = ['preset_1', 'preset_2', 'preset_3', 'custom'] as const;
export const FREQUENCY_DAYS = [90, 180, 365] as const;

export type RewardMode = (typeof REWARD_MODES)[number];

/** Minimum reward per tier in cents: $1 / $2 / $3 (ARCHITECTURE.md: 100/200/300 everywhere). */
export const REWARD_MINIMUM_CENTS = { bronze: 100, silver: 200, gold: 300 } as const;
export const REWARD_MAXIMUM_CENTS = 100_000;
export const REWARD_MINIMUMS_MESSAGE = 'Bronze must be at least $1, Silver at least $2, and Gold at least $3';

/** A preset's cents per tier, from the survey's template (spec section 9: Low, Middle, High). */
export function presetRewards(templateId: string, mode: PresetId): { bronze: number; silver: number; gold: number } {
  const values = (getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!).preset_rewards[mode].values;
  return { bronze: values.Bronze, silver: values.Silver, gold: values.Gold };
}

export const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** Accepts "crumbandco.com" as well as "https://crumbandco.com/": owners rarely type the scheme. */
export function normaliseUrl(value: string): string {
  const v = value.trim();
  if (!v) return v;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`;
}

export function isWebUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.includes('.') && !/\s/.test(value);
  } catch {
    return false;
  }
}

/** A social handle: "@crumbandco", "crumbandco", or a profile URL. */
export function isHandle(value: string): boolean {
  if (/^https?:\/\//i.test(value)) return isWebUrl(value);
  return /^@?[A-Za-z0-9._-]{1,60}$/.test(value);
}

export const title = z.preprocess(
  trimmed,
  z.string({ error: 'Title is required' }).min(1, 'Title is required').max(255, 'Title must be at most 255 characters'),
);
export const surveyTemplateId = z.preprocess(
  trimmed,
  z
    .string({ error: 'Survey template is required' })
    .min(1, 'Survey template is required')
    .refine((id) => getTemplate(id) !== undefined, 'Unknown survey template'),
);
export const rewardMode = z.enum(REWARD_MODES, { error: 'Choose a reward package' });
export const redemptionWebsite = z.preprocess(
  (v) => (typeof v === 'string' ? normaliseUrl(v) : v),
  z
    .string({ error: 'Redemption website is required' })
    .min(1, 'Redemption website is required')
    .max(500, 'Website must be at most 500 characters')
    .refine(isWebUrl, 'Please enter a valid website URL'),
);
export const frequency = z.coerce
  .number({ error: 'Must be 90, 180, or 365 days' })
  .refine((v): v is 90 | 180 | 365 => (FREQUENCY_DAYS as readonly number[]).includes(v), 'Must be 90, 180, or 365 days');

export const reviewPolicy = z.enum(REVIEW_POLICIES, { error: 'Choose "Ask every customer" or "Rating-routed"' });

/** Per-survey tier minimums: whole points, 0 to 1000; in the JSON API any tier left out keeps the template's. */
const tierPoints = z.number({ error: 'Tier points must be whole numbers from 0 to 1000' }).int('Tier points must be whole numbers from 0 to 1000').min(0, 'Tier points must be whole numbers from 0 to 1000').max(1000, 'Tier points must be whole numbers from 0 to 1000');
export const tierThresholdsInput = z
  .strictObject(
    { Bronze: tierPoints.optional(), Silver: tierPoints.optional(), Gold: tierPoints.optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'tierThresholds takes Bronze, Silver and Gold only' : 'tierThresholds must be an object like {"Gold": 25}') },
  )
  .nullable();

const TIER_POINTS_MESSAGE = 'Tier points must be whole numbers from 0 to 1000';
/** The builder's tier point fields (tierBronze, tierSilver, tierGold): a whole number, or absent (keep what is stored). */
export const tierPointsField = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN),
  z.number({ error: TIER_POINTS_MESSAGE }).int(TIER_POINTS_MESSAGE).min(0, TIER_POINTS_MESSAGE).max(1000, TIER_POINTS_MESSAGE).optional(),
);

/**
 * The builder's tier points as stored: null when they are the template's own (the survey follows the
 * template), undefined when the form did not send all three (an older draft: keep what is stored).
 */
export function formTierThresholds(templateId: string, v: { tierBronze?: number; tierSilver?: number; tierGold?: number }): Record<TierName, number> | null | undefined {
  if (v.tierBronze === undefined || v.tierSilver === undefined || v.tierGold === undefined) return undefined;
  const chosen: Record<TierName, number> = { Bronze: v.tierBronze, Silver: v.tierSilver, Gold: v.tierGold };
  const template = getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  return template.reward_tiers.every((t) => chosen[t.tier] === t.min_points) ? null : chosen;
}

export function checkRewardOrder(cents: { bronze: number; silver: number; gold: number }, ctx: z.RefinementCtx, path: (t: 'silver' | 'gold') => PropertyKey[]) {
  if (cents.silver < cents.bronze) ctx.addIssue({ code: 'custom', path: path('silver'), message: 'Silver must be at least the Bronze reward' });
  if (cents.gold < cents.silver) ctx.addIssue({ code: 'custom', path: path('gold'), message: 'Gold must be at least the Silver reward' });
}

export const dollars = (min: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: `Minimum $${min}.00` })
      .int('Use whole dollars')
      .min(min, `Minimum $${min}.00`)
      .max(REWARD_MAXIMUM_CENTS / 100, `Maximum $${(REWARD_MAXIMUM_CENTS / 100).toLocaleString('en-US')}.00`)
      .optional(),
  );
