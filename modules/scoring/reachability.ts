import type { RewardTierDef, TierName } from '../surveys/index.ts';

/**
 * Which tiers a survey can reach with its most points (issue 16, ADR 035). Pure: the builder shows
 * it live and the save refuses a survey whose Gold cannot be reached. Other save-time tier checks
 * (Bronze <= Silver <= Gold, Gold needs sharing) sit beside this one and do not depend on it.
 */
export type TierReach = { tier: TierName; minPoints: number; reachable: boolean };

export function reachableTiers(tiers: readonly RewardTierDef[], maxPoints: number): TierReach[] {
  return [...tiers].sort((a, b) => a.min_points - b.min_points).map((t) => ({ tier: t.tier, minPoints: t.min_points, reachable: maxPoints >= t.min_points }));
}

/** Why Gold cannot be reached, or null when it can: the builder's and the API's refusal. */
export function goldUnreachableMessage(tiers: readonly RewardTierDef[], maxPoints: number): string | null {
  const gold = tiers.find((t) => t.tier === 'Gold');
  if (!gold || maxPoints >= gold.min_points) return null;
  const short = gold.min_points - maxPoints;
  return `Gold needs ${gold.min_points} points but this survey gives at most ${maxPoints}: add questions or points worth ${short} more, restore removed questions, or select more review and social platforms.`;
}
