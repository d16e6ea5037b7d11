import type { RewardTierDef, SurveyTemplate, TierName } from '../surveys/index.ts';

/** An owner's per-survey minimums (survey_configs.tier_thresholds); missing tiers keep the template's. */
export type TierOverride = Readonly<Partial<Record<TierName, number>>>;

/**
 * The tiers of a survey, lowest minimum first: the template's reward_tiers (ADR 008), with any
 * override value that is a non-negative integer replacing that tier's min_points.
 */
export function tierThresholds(template: SurveyTemplate, override?: TierOverride | null): RewardTierDef[] {
  return template.reward_tiers
    .map((t) => {
      const min = override?.[t.tier];
      return typeof min === 'number' && Number.isInteger(min) && min >= 0 ? { tier: t.tier, min_points: min } : t;
    })
    .sort((a, b) => a.min_points - b.min_points);
}

/** The highest tier whose minimum is met, else null (shown as "None"). */
export function tierFor(points: number, tiers: readonly RewardTierDef[]): TierName | null {
  let best: RewardTierDef | undefined;
  for (const t of tiers) if (points >= t.min_points && (!best || t.min_points >= best.min_points)) best = t;
  return best?.tier ?? null;
}

export type TierRange = { tier: TierName; min_points: number; max_points: number | null };

/** Each tier's points range, derived from the thresholds: Bronze 5-7, Silver 8-16, Gold 17+. */
export function tierRanges(tiers: readonly RewardTierDef[]): TierRange[] {
  const sorted = [...tiers].sort((a, b) => a.min_points - b.min_points);
  return sorted.map((t, i) => {
    const next = sorted[i + 1];
    return { tier: t.tier, min_points: t.min_points, max_points: next ? Math.max(t.min_points, next.min_points - 1) : null };
  });
}

/** '5-7', '17+' (or '8' when a range holds one value). */
export function tierRangeLabel(range: TierRange): string {
  if (range.max_points === null) return `${range.min_points}+`;
  return range.max_points === range.min_points ? `${range.min_points}` : `${range.min_points}-${range.max_points}`;
}
