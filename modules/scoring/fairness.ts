import {
  effectiveTemplate,
  isSharing,
  sectionBranches,
  TIER_NAMES,
  type PlatformSelection,
  type Question,
  type SurveyTemplate,
  type TierName,
} from '../surveys/index.ts';
import { maxPoints } from './points.ts';
import { goldUnreachableMessage, reachableTiers } from './reachability.ts';
import { tierFor, tierThresholds, type TierOverride } from './tiers.ts';

/**
 * Tier fairness (issue 14, ADR 041), a pure check run when a survey is saved. A survey is fair when:
 *
 * 1. reward values rise with the tier: Bronze <= Silver <= Gold;
 * 2. tier minimums rise strictly: Bronze < Silver < Gold (else a lower tier can outrank a higher one);
 * 2b. Gold can be reached at all with the survey's most points (its questions, platforms and policy;
 *    issue 16), said on the owner's questions;
 * 3. Gold needs sharing: on every path a customer can take through the survey (one path under "Ask
 *    every customer"; one per rating branch when rating-routed), every question that shares nothing
 *    (no review, follow or tag) answered in full stays below Gold;
 * 4. no path outranks another: answering everything plus sharing reaches the same tier on every path,
 *    so a low rating can never earn more (or less) than a high one at the top;
 * 5. answering everything without sharing reaches the same tier on every path (the bug it guards:
 *    a 2-star complaint earned Gold while a 5-star full answer earned Silver).
 *
 * Messages are written for the owner and name the field they belong to. It runs on the survey's
 * effective questions (`surveyFairnessProblems`), inside the one survey save (`surveys.save`, ADR 089),
 * which the composition root hands this check: surveys never import scoring (scoring reads surveys'
 * template), so there is no module cycle.
 */
export type FairnessInput = PlatformSelection & {
  readonly bronzeRewardValue: number;
  readonly silverRewardValue: number;
  readonly goldRewardValue: number;
  readonly tierThresholds?: TierOverride | null;
};

/** The builder's live input: reward values not known yet (a custom amount being typed) skip the reward-order checks only. */
export type TierReportInput = Omit<FairnessInput, 'bronzeRewardValue' | 'silverRewardValue' | 'goldRewardValue'> & {
  readonly bronzeRewardValue?: number;
  readonly silverRewardValue?: number;
  readonly goldRewardValue?: number;
};

/**
 * A tier as the builder's Survey Stats shows it: reachable and fair, out of reach (the survey's most
 * points stay below it), or reachable but named by a fairness problem (Gold without sharing, a tier
 * that depends on the rating, tier points out of order): never "Reachable" in green next to a warning.
 */
export type TierState = 'reachable' | 'out_of_reach' | 'needs_fix';
export type TierStatus = { tier: string; minPoints: number; maxPoints: number; state: TierState };
/** One decision for the Survey Stats and the save's refusal (issue 27 item 5): the tiers' states and the problems, from the same check. */
export type TierReport = { tiers: TierStatus[]; problems: FairnessProblem[] };

export type FairnessField = 'bronzeRewardValue' | 'silverRewardValue' | 'goldRewardValue' | 'tierThresholds' | 'reviewPolicy' | 'customQuestions';
export type FairnessProblem = { field: FairnessField; message: string };

/** Points of one path through the survey: in full, and without any sharing question. */
export type PathPoints = { label: string; all: number; withoutSharing: number };

const sum = (qs: readonly Question[]) => qs.reduce((total, q) => total + Math.max(0, q.points), 0);

/**
 * The paths a customer can take: the cross product of every section's branches (in practice part 3's
 * one or two branches). Labels name the rating branch for the owner.
 */
export function answerPaths(template: SurveyTemplate, config: PlatformSelection): PathPoints[] {
  let paths: PathPoints[] = [{ label: 'every customer', all: 0, withoutSharing: 0 }];
  for (const section of template.sections) {
    const branches = sectionBranches(section, config);
    const named = branches.map((qs, i) => ({
      qs,
      label: branches.length === 1 ? null : i === 0 ? `customers who rate ${section.condition_value ?? 4} stars or more` : `customers who rate ${(section.condition_value ?? 4) - 1} stars or less`,
    }));
    paths = paths.flatMap((p) =>
      named.map((b) => ({
        label: b.label ?? p.label,
        all: p.all + sum(b.qs),
        withoutSharing: p.withoutSharing + sum(b.qs.filter((q) => !isSharing(q))),
      })),
    );
  }
  return paths;
}

export function tierFairnessProblems(template: SurveyTemplate, input: FairnessInput): FairnessProblem[] {
  return tierReport(template, input).problems;
}

/**
 * The one decision behind the builder's Survey Stats, its inline warnings and every save's refusal
 * (issue 27 item 5): the fairness problems, and each tier's state with the tiers those problems name.
 */
export function tierReport(template: SurveyTemplate, input: TierReportInput): TierReport {
  const tiers = tierThresholds(template, input.tierThresholds);
  const most = maxPoints(template, input);
  const named = new Set<string>();
  const problems = fairnessProblems(template, input, tiers, most, (...t) => t.forEach((x) => x && named.add(x)));
  return {
    problems,
    tiers: reachableTiers(tiers, most).map((t) => ({
      tier: t.tier,
      minPoints: t.minPoints,
      maxPoints: most,
      state: !t.reachable ? 'out_of_reach' : named.has(t.tier) ? 'needs_fix' : 'reachable',
    })),
  };
}

function fairnessProblems(
  template: SurveyTemplate,
  input: TierReportInput,
  tiers: ReturnType<typeof tierThresholds>,
  most: number,
  name: (...tiers: Array<string | null | undefined>) => void,
): FairnessProblem[] {
  const problems: FairnessProblem[] = [];
  const { bronzeRewardValue: bronze, silverRewardValue: silver, goldRewardValue: gold } = input;
  if (bronze !== undefined && silver !== undefined && silver < bronze) problems.push({ field: 'silverRewardValue', message: 'Silver must be at least the Bronze reward' });
  if (silver !== undefined && gold !== undefined && gold < silver) problems.push({ field: 'goldRewardValue', message: 'Gold must be at least the Silver reward' });

  const min = (t: TierName) => tiers.find((x) => x.tier === t)?.min_points;
  const ordered = TIER_NAMES.map(min);
  if (ordered.some((m) => m === undefined) || !ordered.every((m, i) => i === 0 || m! > ordered[i - 1]!)) {
    problems.push({ field: 'tierThresholds', message: 'Tier points must rise: Bronze below Silver, Silver below Gold' });
    name(...TIER_NAMES);
    return problems;
  }
  // Gold can be reached at all with the survey's questions and platforms (issue 16, ADR 035).
  const unreachable = goldUnreachableMessage(tiers, most);
  if (unreachable) {
    problems.push({ field: 'customQuestions', message: unreachable });
    name('Gold');
    return problems;
  }
  const goldMin = min('Gold')!;
  const paths = answerPaths(template, input);
  const label = (t: TierName | null) => t ?? 'no reward';
  const rank = (t: TierName | null) => (t ? TIER_NAMES.indexOf(t) : -1);

  const freeGold = paths.find((p) => p.withoutSharing >= goldMin);
  if (freeGold) {
    name('Gold');
    problems.push({
      field: 'tierThresholds',
      message: `Gold must need sharing: ${freeGold.label} can reach ${freeGold.withoutSharing} points without a review, follow or post, and Gold starts at ${goldMin}. Raise Gold above ${freeGold.withoutSharing} points.`,
    });
  }

  if (paths.length > 1) {
    const top = paths.map((p) => ({ ...p, tier: tierFor(p.all, tiers) }));
    const best = top.reduce((a, b) => (rank(b.tier) > rank(a.tier) ? b : a));
    const worst = top.reduce((a, b) => (rank(b.tier) < rank(a.tier) ? b : a));
    if (rank(best.tier) !== rank(worst.tier)) {
      name(best.tier, worst.tier);
      problems.push({
        field: 'reviewPolicy',
        message: `Rating-routed, ${worst.label} can reach at most ${label(worst.tier)} (${worst.all} points) while ${best.label} can reach ${label(best.tier)}: choose "Ask every customer", or add social platforms so both can reach the same tier.`,
      });
    }
    const plain = paths.map((p) => ({ ...p, tier: tierFor(p.withoutSharing, tiers) }));
    const high = plain.reduce((a, b) => (rank(b.tier) > rank(a.tier) ? b : a));
    const low = plain.reduce((a, b) => (rank(b.tier) < rank(a.tier) ? b : a));
    if (rank(high.tier) !== rank(low.tier)) {
      name(high.tier, low.tier);
      problems.push({
        field: 'tierThresholds',
        message: `Answering every question without sharing earns ${label(high.tier)} for ${high.label} (${high.withoutSharing} points) but ${label(low.tier)} for ${low.label} (${low.withoutSharing} points): a reward must not depend on the rating. Choose "Ask every customer" or change the tier points.`,
      });
    }
  }
  return problems;
}

/** A survey as saved (template id, the owner's questions, rewards, platforms, policy, thresholds): its questions as the customer sees them, then checked. */
export function surveyFairnessProblems(survey: FairnessInput & { readonly surveyTemplateId: string; readonly customQuestions?: readonly unknown[] }): FairnessProblem[] {
  return surveyTierReport(survey).problems;
}

/** `tierReport` of a survey (saved or as the builder holds it): the builder's Survey Stats and its warnings. */
export function surveyTierReport(survey: TierReportInput & { readonly surveyTemplateId: string; readonly customQuestions?: readonly unknown[] }): TierReport {
  return tierReport(effectiveTemplate({ surveyTemplateId: survey.surveyTemplateId, customQuestions: survey.customQuestions ?? [] }), survey);
}

/** Problems by field, the JSON API's `fieldErrors` shape. */
export function fairnessFieldErrors(problems: readonly FairnessProblem[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of problems) (out[p.field] ??= []).push(p.message);
  return out;
}
