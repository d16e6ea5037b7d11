import { z } from 'zod';
import { charCount } from '../scoring/index.ts';
import { missingRequired } from './customer-checks.ts';
import {
  answerKey,
  overallRatingOf,
  PLATFORM_LABELS,
  validScale,
  visibleSections,
  type Answers,
  type PlatformSelection,
  type Question,
  type SurveyTemplate,
} from '../surveys/index.ts';

/** A refusal with the spec's title and message (spec sections 5 and 8). */
export type AnswerProblem = {
  title: string;
  message: string;
  field?: string;
  /** The catalog key and words of a message that names a platform or a number (ADR 084, 090): the page says it in the customer's language. */
  key?: string;
  params?: Record<string, string>;
};

const CONTACT_KEYS = ['customerEmail', 'customer_email', 'customerName', 'customer_name'];
const MAX_TEXT = 2000;

/** Every answer key a template accepts: question ids, composite `{questionId}_{fieldId}` keys, contact keys. */
export function allowedKeys(template: SurveyTemplate): Set<string> {
  const keys = new Set(CONTACT_KEYS);
  for (const section of template.sections) {
    for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
      keys.add(q.id);
      for (const f of q.fields ?? []) keys.add(answerKey(q.id, f.id));
    }
  }
  return keys;
}

const emailSchema = z.string().trim().max(255).pipe(z.email());
export const isEmail = (value: string) => emailSchema.safeParse(value).success;

/**
 * Checks a customer's answers against the survey before anything is stored: known keys, values of
 * the right type and range, the overall rating, complete part-3 blocks, the improvement text length.
 * Returns the cleaned answers (trimmed strings, numbers for scales) or the first problem.
 */
export function checkAnswers(
  template: SurveyTemplate,
  config: PlatformSelection,
  raw: Record<string, unknown>,
): { ok: true; answers: Record<string, string | number> } | { ok: false; problem: AnswerProblem } {
  const allowed = allowedKeys(template);
  const answers: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!allowed.has(key)) return { ok: false, problem: { title: 'Submission Failed', message: `Unknown question: ${key}`, field: key } };
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { ok: false, problem: { title: 'Submission Failed', message: `Invalid answer for ${key}`, field: key } };
      answers[key] = value;
    } else if (typeof value === 'string') {
      if (value.length > MAX_TEXT) return { ok: false, problem: { title: 'Submission Failed', message: `The answer for ${key} is too long (at most ${MAX_TEXT} characters).`, field: key } };
      const trimmed = value.trim();
      if (trimmed) answers[key] = trimmed;
    } else {
      return { ok: false, problem: { title: 'Submission Failed', message: `Invalid answer for ${key}`, field: key } };
    }
  }
  const questions = template.sections.flatMap((s) => [...s.questions, ...(s.negative_questions ?? [])]);
  for (const q of questions) {
    const problem = checkQuestion(q, answers);
    if (problem) return { ok: false, problem };
  }
  const rating = overallRatingOf(template, answers as Answers);
  if (rating === undefined) {
    return { ok: false, problem: { title: 'Required Field Missing', message: 'Please rate your overall experience to continue.', field: 'overall_rating' } };
  }
  const required = missingRequired(template, { ...config, bronzeRewardValue: 0, silverRewardValue: 0, goldRewardValue: 0 }, answers as Answers);
  if (required) return { ok: false, problem: required };
  // Part-3 blocks the customer was shown: all fields or none (spec: Incomplete Review Submission).
  for (const section of visibleSections(template, config, rating)) {
    for (const q of section.questions) {
      if (!q.fields?.length || !q.platform) continue;
      const filled = q.fields.filter((f) => answers[answerKey(q.id, f.id)] !== undefined).length;
      if (filled > 0 && filled < q.fields.length) {
        return {
          ok: false,
          problem: {
            title: 'Incomplete Review Submission',
            message: `Please complete all fields for your ${PLATFORM_LABELS[q.platform]} review or remove what you've entered.`,
            key: "Please complete all fields for your {{platform}} review or remove what you've entered.",
            params: { platform: PLATFORM_LABELS[q.platform] },
            field: q.id,
          },
        };
      }
    }
  }
  for (const key of ['customerEmail', 'customer_email']) {
    const email = answers[key];
    if (email !== undefined && !emailSchema.safeParse(String(email)).success) {
      return { ok: false, problem: { title: 'Submission Failed', message: 'Please enter a valid email address', field: key } };
    }
  }
  return { ok: true, answers };
}

function checkQuestion(q: Question, answers: Record<string, string | number>): AnswerProblem | null {
  const value = answers[q.id];
  if (value === undefined) return null;
  switch (q.type) {
    case 'scale':
      return validScale(value, q.scale_max ?? 5) === undefined ? { title: 'Submission Failed', message: `Choose a rating from 1 to ${q.scale_max ?? 5}.`, key: 'Choose a rating from 1 to {{max}}.', params: { max: String(q.scale_max ?? 5) }, field: q.id } : null;
    case 'yes_no':
      return value === 'yes' || value === 'no' ? null : { title: 'Submission Failed', message: 'Answer yes or no.', field: q.id };
    case 'multiple_choice':
      return q.options?.includes(String(value)) ? null : { title: 'Submission Failed', message: 'Choose one of the options.', field: q.id };
    case 'short_text':
      if (q.id === 'five_star_improvement' && charCount(String(value)) < (q.min_chars ?? 40)) {
        return { title: 'Submission Failed', message: 'Please provide at least 40 characters', field: q.id };
      }
      return null;
    default:
      return null;
  }
}

export function customerContact(answers: Record<string, string | number>, email?: string | null, name?: string | null) {
  const pick = (...values: Array<unknown>) => values.find((v): v is string => typeof v === 'string' && v.trim() !== '')?.trim() ?? null;
  return {
    email: pick(email, answers.customerEmail, answers.customer_email)?.toLowerCase() ?? null,
    name: pick(name, answers.customerName, answers.customer_name)?.slice(0, 255) ?? null,
  };
}
