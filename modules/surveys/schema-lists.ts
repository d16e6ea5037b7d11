/**
 * The builder's lists: the review and social platforms with their links and handles, and the
 * owner's question list (posted as JSON in one field), with their rules, for the form schema and
 * the JSON API's (`schema.ts`). Split from schema.ts (issue 28 item 4).
 */
import { z } from 'zod';
import { DEFAULT_TEMPLATE_ID, getTemplate } from './template.ts';
import { validateQuestionList } from './question-validation.ts';
import type { CustomQuestion } from './questions.ts';
import { parseJsonWithLimits } from '../shared/json.ts';
import { isHandle, isWebUrl, normaliseUrl, REVIEW_PLATFORM_IDS, SOCIAL_PLATFORM_IDS, trimmed } from './schema-fields.ts';

const platformList = <T extends readonly [string, ...string[]]>(ids: T) =>
  z.preprocess((v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(ids, { error: 'Unknown platform' })));

const optionalText = z.preprocess(trimmed, z.string().max(500, 'Must be at most 500 characters').optional());

export const platformsAndLinks = {
  selectedReviewPlatforms: platformList(REVIEW_PLATFORM_IDS),
  reviewUrls: z.object({ google: optionalText, yelp: optionalText, facebook: optionalText }).partial().default({}),
  selectedSocialPlatforms: platformList(SOCIAL_PLATFORM_IDS),
  socialHandles: z.object({ instagram: optionalText, facebook: optionalText, x: optionalText, tiktok: optionalText }).partial().default({}),
};
type PlatformFields = {
  selectedReviewPlatforms: Array<(typeof REVIEW_PLATFORM_IDS)[number]>;
  reviewUrls: Partial<Record<(typeof REVIEW_PLATFORM_IDS)[number], string | undefined>>;
  selectedSocialPlatforms: Array<(typeof SOCIAL_PLATFORM_IDS)[number]>;
  socialHandles: Partial<Record<(typeof SOCIAL_PLATFORM_IDS)[number], string | undefined>>;
};

const asList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' && v ? [v] : []);
export const asRecord = (v: unknown): Record<string, string | undefined> => (v && typeof v === 'object' ? (v as Record<string, string | undefined>) : {});

/**
 * Platform rules shared by both schemas: 1-3 review platforms with URLs, up to 4 social with
 * handles. Runs even when other fields failed (`always`), so every message shows at once; it
 * therefore reads the values defensively.
 */
export function checkPlatforms(raw: unknown, ctx: z.RefinementCtx) {
  const v = asRecord(raw) as Record<string, unknown>;
  const review = asList(v.selectedReviewPlatforms);
  const social = asList(v.selectedSocialPlatforms);
  const reviewUrls = asRecord(v.reviewUrls);
  const socialHandles = asRecord(v.socialHandles);
  if (review.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['selectedReviewPlatforms'], message: 'Select at least one review platform' });
  }
  if (new Set(review).size !== review.length || review.length > 3) {
    ctx.addIssue({ code: 'custom', path: ['selectedReviewPlatforms'], message: 'Choose up to 3 review platforms' });
  }
  for (const p of review) {
    const url = typeof reviewUrls[p] === 'string' ? normaliseUrl(reviewUrls[p]) : '';
    if (!url) ctx.addIssue({ code: 'custom', path: ['reviewUrls', p], message: 'URL required for selected platform' });
    else if (!isWebUrl(url)) ctx.addIssue({ code: 'custom', path: ['reviewUrls', p], message: 'Please enter a valid URL' });
  }
  if (new Set(social).size !== social.length || social.length > 4) {
    ctx.addIssue({ code: 'custom', path: ['selectedSocialPlatforms'], message: 'Choose up to 4 social platforms' });
  }
  for (const p of social) {
    const handle = typeof socialHandles[p] === 'string' ? socialHandles[p].trim() : '';
    if (!handle) ctx.addIssue({ code: 'custom', path: ['socialHandles', p], message: 'Handle required for selected platform' });
    else if (!isHandle(handle)) ctx.addIssue({ code: 'custom', path: ['socialHandles', p], message: 'Enter a handle like @yourcafe or a profile link' });
  }
}
export const always = { when: () => true };

/** The builder posts its question list as JSON in one hidden field; anything unreadable is refused with a message. */
export const UNREADABLE_QUESTIONS = 'The question list could not be read: reload the builder and try again';

/**
 * The builder's hidden `customQuestions` field read as JSON within the request limits (issue 25,
 * modules/shared/json.ts): a list, or the message to show on the field (too deep, too many items, not
 * JSON, not a list...).
 */
export function readQuestionListText(text: string): { ok: true; list: unknown[] } | { ok: false; message: string } {
  const parsed = parseJsonWithLimits(text, { subject: 'The question list' });
  if (!parsed.ok) return { ok: false, message: parsed.problem.kind === 'syntax' ? UNREADABLE_QUESTIONS : parsed.problem.message };
  return Array.isArray(parsed.value) ? { ok: true, list: parsed.value } : { ok: false, message: UNREADABLE_QUESTIONS };
}

export const questionListField = z.preprocess((v, ctx) => {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v !== 'string') return v;
  const read = readQuestionListText(v);
  if (read.ok) return read.list;
  ctx.addIssue({ code: 'custom', message: read.message, input: v });
  return z.NEVER;
}, z.array(z.unknown(), { error: UNREADABLE_QUESTIONS }));

/**
 * The owner's questions (issue 16): every problem of the list (messages of `validateQuestionList`).
 * Runs whatever else failed, reading the values defensively like checkPlatforms. Whether Gold can
 * still be reached is scoring's (`surveyFairnessProblems`, run inside `surveys.save`, ADR 089).
 */
export function checkQuestions(raw: unknown, ctx: z.RefinementCtx) {
  const v = asRecord(raw) as Record<string, unknown>;
  if (!Array.isArray(v.customQuestions)) return;
  const template = getTemplate(typeof v.surveyTemplateId === 'string' ? v.surveyTemplateId : DEFAULT_TEMPLATE_ID);
  if (!template) return;
  const checked = validateQuestionList(template, v.customQuestions);
  if (checked.ok) return;
  for (const p of checked.problems) {
    ctx.addIssue({ code: 'custom', path: ['customQuestions'], message: p.index === null ? p.message : `Question ${p.index + 1}: ${p.message}` });
  }
}

/** The normalised list to store (`[]` for the template unchanged); only called on a list checkQuestions accepted. */
export function storedQuestions(templateId: string, list: unknown[]): CustomQuestion[] {
  const checked = validateQuestionList(getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!, list);
  return checked.ok ? checked.list : [];
}

export function cleanLinks(v: PlatformFields) {
  const reviewUrls: Record<string, string> = {};
  for (const p of v.selectedReviewPlatforms) reviewUrls[p] = normaliseUrl(v.reviewUrls[p] ?? '');
  const socialHandles: Record<string, string> = {};
  for (const p of v.selectedSocialPlatforms) socialHandles[p] = (v.socialHandles[p] ?? '').trim();
  return { reviewUrls, socialHandles };
}
