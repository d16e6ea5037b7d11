/**
 * What the customer's page checks before it submits (spec sections 4 and 5), in the spec's order and
 * wording. Pure and free of zod: the browser runs it for toasts, the page's no-JavaScript form post
 * runs it for inline errors, and the submission service re-checks everything on its own anyway.
 */
import { scoreSurvey, type Score, type Verified } from '../scoring/index.ts';
import {
  answerKey,
  customerEmailOf,
  isBlock,
  overallRatingOf,
  PART3_ID,
  PLATFORM_LABELS,
  VERIFICATION_KIND_BY_TYPE,
  visibleSections,
  type Answers,
  type Block,
  type Platform,
  type Question,
  type SurveyTemplate,
  type VerificationKind,
} from '../surveys/index.ts';
import type { ScoringConfig } from '../scoring/index.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../uploads/index.ts';

/**
 * What the page says at once about a screenshot the customer chose, before any upload: over 10 MB it
 * is refused in the browser (the server's limit stays the authority). Null when it may be sent.
 */
export function chosenScreenshotProblem(file: { size: number }): string | null {
  return file.size > MAX_UPLOAD_BYTES ? UPLOAD_MESSAGES.tooLarge : null;
}

export type BlockStatus = 'idle' | 'verifying' | 'verified' | 'failed';
/**
 * `checking`: a verified screenshot the verifier was unsure of (needs_review, ADR 077): it counts,
 * and the page says the business will check it by hand (`NEEDS_REVIEW_MESSAGE`).
 */
export type BlockState = { status: BlockStatus; error?: string | null; checking?: boolean };
export { NEEDS_REVIEW_MESSAGE } from '../verification/index.ts';
/** Verification state per part-3 block, keyed as the spec keys it (see `blockStateKey`). */
export type BlockStates = Readonly<Record<string, BlockState | undefined>>;

/**
 * A refusal in English. `key` and `params`, when the message has words from the survey in it, let
 * the page say it in the customer's language (`key` is the catalog's, ADR 084).
 */
/** The catalog key of the repeat window's message (eligibility.ts), said in the customer's language by the page with `daysRemaining` as its count (ADR 084). */
export const WINDOW_MESSAGE_KEY = 'This email has already been used for a reward here. You can take the survey again in {{count}} days.';

export type Problem = { title: string; message: string; field?: string; key?: string; params?: Record<string, string> };

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

/** The spec's state key of a part-3 block: a review by its platform ('google'); follows and tags as '{platform}_follow', '{platform}_tag'. */
export function blockKey(q: Block): string {
  const kind = VERIFICATION_KIND_BY_TYPE[q.type];
  return kind === 'review' ? q.platform : `${q.platform}_${kind}`;
}

/** `blockKey` for any question: null unless it is a part-3 block. */
export function blockStateKey(q: Question): string | null {
  return isBlock(q) ? blockKey(q) : null;
}

/** The answer key of a block's screenshot (e.g. review_google_screenshot), which holds the verification id. */
export function screenshotKey(q: Question): string | null {
  const field = q.fields?.find((f) => f.type === 'image_upload');
  return field ? answerKey(q.id, field.id) : null;
}

/** A block's screenshot key; every template block has one (an empty key, never matching an answer, if not). */
export const blockScreenshotKey = (q: Block): string => screenshotKey(q) ?? '';

/**
 * What a block's screenshot is checked against, from the answers: the kind and platform, the
 * reviewer's name and review link of a review, the customer's handle of a follow or tag. The page's
 * request to /api/verify-* and its no-JavaScript form post both send this.
 */
export type BlockEvidence = { kind: VerificationKind; platform: Platform; reviewerName?: string; reviewLink?: string; userHandle?: string };

export function blockEvidence(q: Block, answers: Answers): BlockEvidence {
  const text = (field: string) => String(answers[answerKey(q.id, field)] ?? '');
  const kind = VERIFICATION_KIND_BY_TYPE[q.type];
  if (kind === 'review') return { kind, platform: q.platform, reviewerName: text('reviewer_name'), reviewLink: text('review_link') };
  return { kind, platform: q.platform, userHandle: text(HANDLE_FIELD[kind]) };
}

/** The customer's own handle in a follow or tag block (answer keys social_{platform}_handle, tag_us_{platform}_social_handle). */
const HANDLE_FIELD = { follow: 'handle', tag: 'social_handle' } as const;

/** The part-3 blocks the survey shows for the answers so far. */
export function visibleBlocks(template: SurveyTemplate, config: ScoringConfig, answers: Answers): Block[] {
  const rating = overallRatingOf(template, answers);
  return visibleSections(template, config, rating).flatMap((s) => s.questions.filter(isBlock));
}

/** Which blocks count as verified, for scoring. */
export function verifiedFlags(template: SurveyTemplate, states: BlockStates): Verified {
  const verified: Record<VerificationKind, Partial<Record<Platform, boolean>>> = { review: {}, follow: {}, tag: {} };
  for (const section of template.sections) {
    for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
      if (!isBlock(q) || states[blockKey(q)]?.status !== 'verified') continue;
      verified[VERIFICATION_KIND_BY_TYPE[q.type]][q.platform] = true;
    }
  }
  return verified;
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
      if (!isBlock(q)) continue;
      const key = blockKey(q);
      const state = states[key];
      if (!state) continue;
      (VERIFICATION_KIND_BY_TYPE[q.type] === 'review' ? screenshot : social)[key] = state.status === 'verified';
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
      if (!filled(answers[q.id])) return { title: 'Required Field Missing', message: `Please answer: ${q.text}`, field: q.id, key: 'Please answer: {{question}}', params: { question: q.text } };
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
    const label = PLATFORM_LABELS[q.platform];
    if (count > 0 && count < (q.fields ?? []).length) {
      return {
        title: 'Incomplete Review Submission',
        message: `Please complete all fields for your ${label} review or remove what you've entered.`,
        key: "Please complete all fields for your {{platform}} review or remove what you've entered.",
        params: { platform: label },
        field: q.id,
      };
    }
    if (count === 0) continue;
    const state = states[blockKey(q)];
    if (state?.status === 'verifying') {
      return {
        title: 'Verification In Progress',
        message: `Please wait for your ${label} screenshot to be verified before submitting.`,
        field: q.id,
        key: 'Please wait for your {{platform}} screenshot to be verified before submitting.',
        params: { platform: label },
      };
    }
    if (state?.status === 'failed') {
      // A rejected screenshot won't change by waiting: say why, and what the customer can do.
      const why = state.error ? `${state.error.trim().replace(/([^.!?])$/, '$1.')} ` : '';
      return {
        title: 'Screenshot Not Verified',
        message: `Your ${label} screenshot wasn't accepted. ${why}Upload a different screenshot, or remove it and clear this block to submit without it.`,
        key: "Your {{platform}} screenshot wasn't accepted. {{why}}Upload a different screenshot, or remove it and clear this block to submit without it.",
        params: { platform: label, why },
        field: q.id,
      };
    }
    if (state?.status !== 'verified') {
      return {
        title: 'Screenshot Not Verified',
        message: `Your ${label} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.`,
        key: 'Your {{platform}} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.',
        params: { platform: label },
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
