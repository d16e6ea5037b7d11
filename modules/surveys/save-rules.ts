import type { SurveyConfigInput } from './schema.ts';
import { DEFAULT_REVIEW_POLICY, type ReviewPolicy } from './template.ts';
import { translationProblems } from './translations.ts';

/**
 * The rules every survey save obeys (issue 28 item 1, ADR 089), checked inside `surveys.save` so the
 * builder page, the JSON API and the draft hand-over cannot skip one or apply it differently:
 *
 * 1. the hosted vision verifier can only be turned on where this server has it (ADR 066); a survey
 *    that already has it keeps it (its screenshots are read here meanwhile);
 * 2. tier fairness (ADR 041): scoring's check over the survey as it will be stored (what the body
 *    leaves out is the stored survey's, or a new survey's default);
 * 3. the owner's translations (ADR 090) name only the survey's offered languages other than its
 *    default, and only its questions and their options, as the survey will be stored.
 *
 * Browser-safe and pure. The fairness check itself is scoring's (`surveyTierReport`: the tiers'
 * states and the problems); scoring reads this module's template, so this module cannot import it:
 * the composition root hands it in as `SaveRules.tierReport`. The builder's summary runs the same
 * `tierCheck` in the browser (ADR 093), so the tiers it shows are the ones the save decides on.
 */

/** The message when an owner asks for the hosted vision verifier on a server without it (ADR 066). */
export const HOSTED_VISION_UNAVAILABLE = 'Checking screenshots with a hosted AI service is not set up on this server.';

/** The fields a refusal names: the survey's own (scoring's fairness fields are among them). */
export type SaveField = 'hostedVision' | 'bronzeRewardValue' | 'silverRewardValue' | 'goldRewardValue' | 'tierThresholds' | 'reviewPolicy' | 'customQuestions' | 'translations';
/** `path`: the exact field within `field` a problem is about (a translation's `translations.es.title`). */
export type SaveProblem = { readonly field: SaveField; readonly message: string; readonly path?: string };

/**
 * What the fairness rule reads: the survey as it will be stored. A reward is undefined only in the
 * builder's live check, while a custom amount is being typed (it skips the reward-order checks only).
 */
export type FairnessSubject = {
  surveyTemplateId: string;
  customQuestions: readonly unknown[];
  bronzeRewardValue?: number;
  silverRewardValue?: number;
  goldRewardValue?: number;
  selectedReviewPlatforms: readonly string[];
  selectedSocialPlatforms: readonly string[];
  reviewPolicy: ReviewPolicy;
  tierThresholds: Partial<Record<string, number>> | null;
};

/** A tier as the check sees it: reachable and fair, out of reach, or reachable but named by a problem. */
export type TierLine = {
  readonly tier: string;
  readonly minPoints: number;
  readonly maxPoints: number;
  readonly state: 'reachable' | 'out_of_reach' | 'needs_fix';
};
/** The fairness rule's answer: each tier's state and the problems, from one check (never "reachable" beside a problem). */
export type TierCheck = {
  readonly tiers: readonly TierLine[];
  readonly problems: readonly SaveProblem[];
};

/** What the save is given by the composition root. */
export type SaveRules = {
  /** Scoring's tier fairness check (`surveyTierReport`): each tier's state and the owner's problems, in their words. */
  tierReport: (survey: FairnessSubject) => TierCheck;
  /** The hosted vision verifier is configured on this server (ADR 066). */
  hostedVisionAvailable: boolean;
};

/** Why a save was refused: the rule, its first message (what a toast or a JSON `message` says) and every problem by field. */
export type SaveRefusal = { rule: 'hosted_vision' | 'fairness' | 'translations'; message: string; problems: SaveProblem[] };

/** The stored survey's fields an edit keeps when the body leaves them out. */
export type StoredForRules = {
  hostedVision: boolean;
  customQuestions: readonly unknown[];
  reviewPolicy: ReviewPolicy;
  tierThresholds: Partial<Record<string, number>> | null;
  languages: readonly string[];
};

/** The fields of a save's input the fairness rule reads; what is left out is the stored survey's (or a new survey's default). */
export type FairnessInputFields = Omit<FairnessSubject, 'customQuestions' | 'reviewPolicy' | 'tierThresholds'> & {
  customQuestions?: readonly unknown[];
  reviewPolicy?: ReviewPolicy;
  tierThresholds?: Partial<Record<string, number>> | null;
};

/** The survey as the fairness rule will judge it: the input, with the stored survey's fields (or a new survey's defaults) where it leaves them out. */
export function fairnessSubject(input: FairnessInputFields, stored: Pick<StoredForRules, 'customQuestions' | 'reviewPolicy' | 'tierThresholds'> | null): FairnessSubject {
  return {
    surveyTemplateId: input.surveyTemplateId,
    customQuestions: input.customQuestions ?? stored?.customQuestions ?? [],
    bronzeRewardValue: input.bronzeRewardValue,
    silverRewardValue: input.silverRewardValue,
    goldRewardValue: input.goldRewardValue,
    selectedReviewPlatforms: input.selectedReviewPlatforms,
    selectedSocialPlatforms: input.selectedSocialPlatforms,
    reviewPolicy: input.reviewPolicy ?? stored?.reviewPolicy ?? DEFAULT_REVIEW_POLICY,
    tierThresholds: input.tierThresholds === undefined ? (stored?.tierThresholds ?? null) : input.tierThresholds,
  };
}

/**
 * The tier fairness rule over a save's input: what `saveRefusal` refuses on, and what the builder's
 * summary shows, live, in the browser (one function, ADR 093: the summary cannot contradict the save).
 */
export function tierCheck(rules: Pick<SaveRules, 'tierReport'>, input: FairnessInputFields, stored: Pick<StoredForRules, 'customQuestions' | 'reviewPolicy' | 'tierThresholds'> | null): TierCheck {
  return rules.tierReport(fairnessSubject(input, stored));
}

/** The first rule a save breaks, or null. `stored`: the survey being edited (null for a new one). */
export function saveRefusal(rules: SaveRules, input: SurveyConfigInput, stored: StoredForRules | null): SaveRefusal | null {
  if (input.hostedVision && !stored?.hostedVision && !rules.hostedVisionAvailable) {
    return {
      rule: 'hosted_vision',
      message: HOSTED_VISION_UNAVAILABLE,
      problems: [{ field: 'hostedVision', message: HOSTED_VISION_UNAVAILABLE }],
    };
  }
  const { problems } = tierCheck(rules, input, stored);
  if (problems.length)
    return {
      rule: 'fairness',
      message: problems[0]!.message,
      problems: [...problems],
    };
  const untranslatable = input.translations
    ? translationProblems(input.translations, {
        surveyTemplateId: input.surveyTemplateId,
        customQuestions: input.customQuestions ?? stored?.customQuestions ?? [],
        languages: input.languages ?? stored?.languages ?? ['en'],
      })
    : [];
  if (untranslatable.length) {
    return { rule: 'translations', message: untranslatable[0]!.message, problems: untranslatable.map((p) => ({ field: 'translations', path: p.path, message: p.message })) };
  }
  return null;
}

/** A refusal's problems by field: the JSON API's `fieldErrors`. */
export function refusalFieldErrors(refusal: SaveRefusal): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of refusal.problems) (out[p.path ?? p.field] ??= []).push(p.message);
  return out;
}
