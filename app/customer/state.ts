/**
 * The customer page's state between the server and the browser: where the customer is, what they
 * answered, which screenshots are verified, what went wrong, and the result. The loader and the
 * no-JavaScript form posts produce it; the hydrated page keeps it in React state. Pure.
 */
import { blockStateKey, type BlockState, type CustomerSurveyView } from '../../modules/responses/index.ts';
import { answerKey, type Question } from '../../modules/surveys/index.ts';
import type { ToastData } from '../components/toast.tsx';
import type { Locale, Messages } from '../../modules/i18n/index.ts';

export type SurveyDone = {
  points: number;
  tier: string | null;
  /** Cents; 0 without a tier. */
  rewardValue: number;
  email: string | null;
  /** Preview and demo only: the pretend gift card of the simulated completion. */
  demoGiftCard: string | null;
  /**
   * The reward is checked before it is sent (ADR 050): the page says it will arrive by email, and
   * with `confirmEmail` that a confirmation link is on its way first. Never why.
   */
  checking?: boolean;
  confirmEmail?: boolean;
};

export type SurveyStep = {
  section: number;
  answers: Record<string, string | number>;
  /** Verification state per part-3 block (keys: 'google', 'instagram_follow', 'x_tag', ...). */
  states: Record<string, BlockState>;
  /** Inline errors by field (answer key or question id). */
  errors: Record<string, string>;
  toast: ToastData | null;
  done: SurveyDone | null;
  /** The furthest section (1-based) this visit reached, carried by the form posts without JavaScript (ADR 026); 0 before the first post. */
  progress?: number;
  /** This visit's submission key (ADR 081), made by the loader and carried by every post: a retried Submit is answered with what was stored. */
  key?: string;
};

/**
 * What the survey routes' loaders and actions return. `view` null: 'Survey Not Found'; `custom`: the
 * draft comes from this browser. `locale` and its `messages` (only that language's, ADR 084): the
 * customer's language, read by the server and by the island alike; absent means English.
 */
export type SurveyPageData = { view: CustomerSurveyView | null; step: SurveyStep; custom?: boolean; locale?: Locale; messages?: Messages };

export const firstStep = (): SurveyStep => ({ section: 0, answers: {}, states: {}, errors: {}, toast: null, done: null });

/**
 * Form field names that are not answers (answer keys never start with '_' or contain ':').
 * `progress`: the furthest section this visit reached (the funnel, ADR 026); `remove`: a block's
 * 'Remove screenshot' button posts the screenshot's answer key in it.
 */
export const FIELD = { intent: '_intent', section: '_section', progress: '_progress', remove: '_remove', key: '_key' } as const;
export const fileField = (screenshotKey: string) => `file:${screenshotKey}`;
/**
 * Without JavaScript, a block whose screenshot was refused carries its reason into the next post
 * (`_failed:{blockKey}`), so the reason and its Remove button stay until that screenshot is removed
 * or replaced, whatever else the customer posts (another block's Remove, Continue, Back).
 */
export const failedField = (stateKey: string) => `_failed:${stateKey}`;
/**
 * Without JavaScript, a block whose screenshot the verifier sent to the owner's review (ADR 077)
 * carries that into the next post (`_checking:{blockKey}` = '1'), so the page keeps saying it will be
 * checked. Words only: the hold is decided from the stored verification, never from this field.
 */
export const checkingField = (stateKey: string) => `_checking:${stateKey}`;
/** The longest refusal reason a post may carry back (the verifier's reasons are far shorter). */
export const MAX_FAILED_REASON_CHARS = 500;

export type Intent = 'next' | 'back' | 'submit' | 'early' | 'stay';
export const INTENTS: readonly Intent[] = ['next', 'back', 'submit', 'early', 'stay'];

/** A pretend gift card number for preview and demo completions (never a real card). */
export function demoGiftCardNumber(random: () => number = Math.random): string {
  const digits = Array.from({ length: 12 }, () => Math.floor(random() * 10)).join('');
  return `DEMO-${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`;
}

/** The step after the customer changes one answer: '' removes it, and its error goes (the email's too, for the template's email question). */
export function withAnswer(step: SurveyStep, key: string, value: string | number): SurveyStep {
  const answers = { ...step.answers };
  if (value === '') delete answers[key];
  else answers[key] = value;
  const errors = { ...step.errors };
  delete errors[key];
  if (key === 'customer_email') delete errors.customerEmail;
  return { ...step, answers, errors };
}

/** What the submission answered (the JSON endpoint or the submission use case), for the Thank You. */
export type Submitted = { totalPoints: number; rewardTier: string | null; rewardValue: number; rewardChecking?: boolean; confirmEmail?: boolean };

/** A stored submission's Thank You and toast: the gift card is on its way, or (ADR 050) being checked first. */
export function submittedStep(result: Submitted, email: string | null): Pick<SurveyStep, 'done' | 'toast'> {
  const checking = Boolean(result.rewardChecking);
  return {
    done: {
      points: result.totalPoints,
      tier: result.rewardTier,
      rewardValue: result.rewardValue,
      email,
      demoGiftCard: null,
      ...(checking ? { checking, confirmEmail: Boolean(result.confirmEmail) } : {}),
    },
    toast: {
      title: 'Survey Submitted!',
      description: !result.rewardTier ? 'Thank you for your feedback.' : checking ? 'Your reward will arrive by email.' : 'Your gift card is on its way to your inbox.',
      type: 'success',
    },
  };
}

/** The simulated completion of a preview or the demo (spec 4): nothing saved, a pretend gift card for a tier. */
export function simulatedStep(mode: 'preview' | 'demo', result: Submitted, email: string | null, random?: () => number): Pick<SurveyStep, 'done' | 'toast'> {
  return {
    done: { points: result.totalPoints, tier: result.rewardTier, rewardValue: result.rewardValue, email, demoGiftCard: result.rewardTier ? demoGiftCardNumber(random) : null },
    toast: { title: mode === 'demo' ? 'Demo Survey Completed!' : 'Preview Survey Completed!', description: 'Nothing was saved.', type: 'success' },
  };
}

/**
 * Spec 8: the submission refused a block's screenshot. That block's answers (screenshot, name,
 * link, handle) go, its state says why, and a toast says so; the caller takes the customer back to
 * section index 2.
 */
export function withRejectedBlock(step: SurveyStep, q: Question | undefined, message: string): SurveyStep {
  const answers = { ...step.answers };
  const states = { ...step.states };
  if (q) {
    for (const f of q.fields ?? []) delete answers[answerKey(q.id, f.id)];
    const key = blockStateKey(q);
    if (key) states[key] = { status: 'failed', error: message };
  }
  return { ...step, answers, states, toast: { title: 'Screenshot Verification Failed', description: message, type: 'error' } };
}
