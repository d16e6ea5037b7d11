/**
 * What the customer's page checks before it submits (spec sections 4 and 5), in the spec's order and
 * wording. Pure and free of zod: the browser runs it for toasts, the page's no-JavaScript form post
 * runs it for inline errors, and the submission service re-checks everything on its own anyway.
 */
import { scoreSurvey, type Score, type Verified } from '../scoring/index.ts';
import {
  answerKey,
  customerEmailOf,
  overallRatingOf,
  PART3_ID,
  PLATFORM_LABELS,
  visibleSections,
  type Answers,
  type Platform,
  type Question,
  type SurveyTemplate,
} from '../surveys/template.ts';
import type { ScoringConfig } from '../scoring/index.ts';

export type BlockStatus = 'idle' | 'verifying' | 'verified' | 'failed';
export type BlockState = { status: BlockStatus; error?: string | null };
/** Verification state per part-3 block, keyed as the spec keys it (see `blockStateKey`). */
export type BlockStates = Readonly<Record<string, BlockState | undefined>>;

export type Problem = { title: string; message: string; field?: string };

export const RATING_REQUIRED: Problem = {
  title: 'Required Field Missing',
  message: 'Please rate your overall experience to continue.',
  field: 'overall_rating',
};

export const EMAIL_REQUIRED: Problem = {
  title: 'Email Required for Reward',
  message: 'Please provide your email address to receive your gift card reward.',
  field: 'customerEmail',
};

export const IMPROVEMENT_MIN_CHARS = 40;

const isBlock = (q: Question) => q.type === 'review_submission' || q.type === 'social_submission' || q.type === 'social_tag_submission';

/** The spec's state keys: a review by its platform ('google'); social blocks as '{platform}_follow' and '{platform}_tag'. */
export function blockStateKey(q: Question): string | null {
  if (!q.platform || !isBlock(q)) return null;
  if (q.type === 'review_submission') return q.platform;
  return `${q.platform}_${q.type === 'social_submission' ? 'follow' : 'tag'}`;
}

/** The answer key of a block's screenshot (e.g. review_google_screenshot), which holds the verification id. */
export function screenshotKey(q: Question): string | null {
  const field = q.fields?.find((f) => f.type === 'image_upload');
  return field ? answerKey(q.id, field.id) : null;
}

/** The part-3 blocks the survey shows for the answers so far. */
export function visibleBlocks(template: SurveyTemplate, config: ScoringConfig, answers: Answers): Question[] {
  const rating = overallRatingOf(template, answers);
  return visibleSections(template, config, rating).flatMap((s) => s.questions.filter(isBlock));
}

/** Which blocks count as verified, for scoring. */
export function verifiedFlags(template: SurveyTemplate, states: BlockStates): Verified {
  const review: Partial<Record<Platform, boolean>> = {};
  const follow: Partial<Record<Platform, boolean>> = {};
  const tag: Partial<Record<Platform, boolean>> = {};
  for (const section of template.sections) {
    for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
      const key = blockStateKey(q);
      if (!key || !q.platform || states[key]?.status !== 'verified') continue;
      const target = q.type === 'review_submission' ? review : q.type === 'social_submission' ? follow : tag;
      target[q.platform] = true;
    }
  }
  return { review, follow, tag };
}

/**
 * The submission body's informational `verificationStatus` (spec 7): `screenshot` by review platform,
 * `social` by '{platform}_follow' / '{platform}_tag', true when verified. The server trusts only its
 * own verification records.
 */
export function verificationStatus(template: SurveyTemplate, states: BlockStates) {
  const screenshot: Record<string, boolean> = {};
  const social: Record<string, boolean> = {};
  for (const section of template.sections) {
    for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
      const key = blockStateKey(q);
      const state = key ? states[key] : undefined;
      if (!key || !state) continue;
      (q.type === 'review_submission' ? screenshot : social)[key] = state.status === 'verified';
    }
  }
  return { screenshot, social };
}

/** Live points and tier, as the page shows them (the server computes its own on submit). */
export function liveScore(template: SurveyTemplate, config: ScoringConfig, answers: Answers, states: BlockStates): Score {
  return scoreSurvey({ template, config, answers, verified: verifiedFlags(template, states) });
}

const filled = (value: unknown) => (typeof value === 'string' ? value.trim() !== '' : typeof value === 'number');

/**
 * The first required question the customer is shown and left blank (the owner's required questions,
 * issue 16; the overall rating has its own message), or null.
 */
export function missingRequired(template: SurveyTemplate, config: ScoringConfig, answers: Answers): Problem | null {
  for (const section of visibleSections(template, config, overallRatingOf(template, answers))) {
    for (const q of section.questions) {
      if (!q.required || q.fields?.length || q.id === RATING_REQUIRED.field) continue;
      if (!filled(answers[q.id])) return { title: 'Required Field Missing', message: `Please answer: ${q.text}`, field: q.id };
    }
  }
  return null;
}

/**
 * The first reason not to submit yet, or null. `uploads` names the screenshot keys that have a file
 * chosen but no verification id yet (the browser's pending uploads).
 */
export function submitProblem(input: {
  template: SurveyTemplate;
  config: ScoringConfig;
  answers: Answers;
  states: BlockStates;
  uploads?: ReadonlySet<string>;
}): Problem | null {
  const { template, config, answers, states } = input;
  const rating = overallRatingOf(template, answers);
  if (rating === undefined) return RATING_REQUIRED;

  const required = missingRequired(template, config, answers);
  if (required) return required;

  const blocks = visibleBlocks(template, config, answers);
  for (const q of blocks) {
    const shot = screenshotKey(q);
    const count = (q.fields ?? []).filter((f) => {
      const key = answerKey(q.id, f.id);
      return filled(answers[key]) || (key === shot && input.uploads?.has(key));
    }).length;
    const label = PLATFORM_LABELS[q.platform!];
    if (count > 0 && count < (q.fields ?? []).length) {
      return {
        title: 'Incomplete Review Submission',
        message: `Please complete all fields for your ${label} review or remove what you've entered.`,
        field: q.id,
      };
    }
    if (count === 0) continue;
    const state = states[blockStateKey(q)!];
    if (state?.status === 'verifying') {
      return { title: 'Verification In Progress', message: `Please wait for your ${label} screenshot to be verified before submitting.`, field: q.id };
    }
    if (state?.status === 'failed') {
      // A rejected screenshot won't change by waiting: say why, and what the customer can do.
      const why = state.error ? `${state.error.trim().replace(/([^.!?])$/, '$1.')} ` : '';
      return {
        title: 'Screenshot Not Verified',
        message: `Your ${label} screenshot wasn't accepted. ${why}Upload a different screenshot, or remove it and clear this block to submit without it.`,
        field: q.id,
      };
    }
    if (state?.status !== 'verified') {
      return {
        title: 'Screenshot Not Verified',
        message: `Your ${label} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.`,
        field: q.id,
      };
    }
  }

  const improvement = answers.five_star_improvement;
  const part3 = visibleSections(template, config, rating).find((s) => s.id === PART3_ID);
  if (part3?.questions.some((q) => q.id === 'five_star_improvement') && filled(improvement)) {
    if ([...String(improvement).trim()].length < IMPROVEMENT_MIN_CHARS) {
      return { title: 'Submission Failed', message: 'Please provide at least 40 characters', field: 'five_star_improvement' };
    }
  }

  const email = customerEmailOf(answers);
  const score = liveScore(template, config, answers, states);
  if (score.points > 0 && !email) return EMAIL_REQUIRED;
  if (email && !looksLikeEmail(email)) return { title: 'Submission Failed', message: 'Please enter a valid email address', field: 'customerEmail' };
  return null;
}

/**
 * The section index a problem belongs to, so the page can take the customer there: the claim box's
 * email is in part 3; a question id or a block's answer key in its section; else `current`.
 */
export function sectionOfProblem(template: SurveyTemplate, problem: Problem, current: number): number {
  const field = problem.field;
  if (!field) return current;
  if (field === 'customerEmail' || field === 'customerName') return Math.max(0, template.sections.findIndex((s) => s.id === PART3_ID));
  const index = template.sections.findIndex((s) =>
    [...s.questions, ...(s.negative_questions ?? [])].some((q) => q.id === field || (q.fields ?? []).some((f) => answerKey(q.id, f.id) === field)),
  );
  return index >= 0 ? index : current;
}

/** A light shape check for the browser; the server validates properly. */
export function looksLikeEmail(value: string): boolean {
  return value.length <= 255 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}
