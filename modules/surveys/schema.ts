import { z } from 'zod';
import { DEFAULT_REVIEW_POLICY, DEFAULT_TEMPLATE_ID, getTemplate, REVIEW_PLATFORMS, REVIEW_POLICIES, SOCIAL_PLATFORMS, type PresetId, type ReviewPolicy, type TierName } from './template.ts';
import { validateQuestionList, type CustomQuestion } from './questions.ts';
import { parseJsonWithLimits } from '../shared/json.ts';
import { isLocale, LOCALES, surveyLocales, type Locale } from '../i18n/index.ts';
import { translationProblems, translationsFor, translationsOf, TRANSLATION_LIMITS, type SurveyTranslations, type TranslatableSurvey } from './translations.ts';

/**
 * The survey builder's rules (spec section 5 "Survey config form", ARCHITECTURE.md decisions):
 * one schema for the form (conform in the browser, the action on the server) and one for the JSON
 * API, both ending in the same normalised `SurveyConfigInput` with reward values in integer cents.
 */

const REVIEW_PLATFORM_IDS = REVIEW_PLATFORMS;
const SOCIAL_PLATFORM_IDS = SOCIAL_PLATFORMS;
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

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

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

const title = z.preprocess(
  trimmed,
  z.string({ error: 'Title is required' }).min(1, 'Title is required').max(255, 'Title must be at most 255 characters'),
);
const surveyTemplateId = z.preprocess(
  trimmed,
  z
    .string({ error: 'Survey template is required' })
    .min(1, 'Survey template is required')
    .refine((id) => getTemplate(id) !== undefined, 'Unknown survey template'),
);
const rewardMode = z.enum(REWARD_MODES, { error: 'Choose a reward package' });
const redemptionWebsite = z.preprocess(
  (v) => (typeof v === 'string' ? normaliseUrl(v) : v),
  z
    .string({ error: 'Redemption website is required' })
    .min(1, 'Redemption website is required')
    .max(500, 'Website must be at most 500 characters')
    .refine(isWebUrl, 'Please enter a valid website URL'),
);
const frequency = z.coerce
  .number({ error: 'Must be 90, 180, or 365 days' })
  .refine((v): v is 90 | 180 | 365 => (FREQUENCY_DAYS as readonly number[]).includes(v), 'Must be 90, 180, or 365 days');

const reviewPolicy = z.enum(REVIEW_POLICIES, { error: 'Choose "Ask every customer" or "Rating-routed"' });

/** Per-survey tier minimums: whole points, 0 to 1000; in the JSON API any tier left out keeps the template's. */
const tierPoints = z.number({ error: 'Tier points must be whole numbers from 0 to 1000' }).int('Tier points must be whole numbers from 0 to 1000').min(0, 'Tier points must be whole numbers from 0 to 1000').max(1000, 'Tier points must be whole numbers from 0 to 1000');
const tierThresholdsInput = z
  .strictObject(
    { Bronze: tierPoints.optional(), Silver: tierPoints.optional(), Gold: tierPoints.optional() },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'tierThresholds takes Bronze, Silver and Gold only' : 'tierThresholds must be an object like {"Gold": 25}') },
  )
  .nullable();

const TIER_POINTS_MESSAGE = 'Tier points must be whole numbers from 0 to 1000';
/** The builder's tier point fields (tierBronze, tierSilver, tierGold): a whole number, or absent (keep what is stored). */
const tierPointsField = z.preprocess(
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

/**
 * The languages a survey offers (issue 30, ADR 086): 'en', 'es', 'fr', 'de', 'pt', each once, at
 * least one; the first is the survey's default language. The JSON API takes the list itself; the
 * builder sends checkboxes (`languages`) and a radio (`defaultLanguage`), which become the same list.
 */
export const LANGUAGES_MESSAGES = {
  notList: 'languages must be a list of language codes, such as en and es',
  unknown: `languages takes ${LOCALES.join(', ')} only`,
  empty: 'Offer at least one language',
  repeated: 'languages must not name a language twice',
  defaultNotOffered: 'The default language must be one of the languages offered',
} as const;

const languagesInput = z
  .array(z.string({ error: LANGUAGES_MESSAGES.unknown }).refine(isLocale, LANGUAGES_MESSAGES.unknown), { error: LANGUAGES_MESSAGES.notList })
  .min(1, LANGUAGES_MESSAGES.empty)
  .max(LOCALES.length * 4, LANGUAGES_MESSAGES.repeated)
  .refine((list) => new Set(list).size === list.length, LANGUAGES_MESSAGES.repeated)
  .transform((list) => list as Locale[]);

/** The builder's checkboxes: absent (a form without the control), or the ticked codes. */
const languageBoxes = z.preprocess(
  (v) => (v === undefined || v === null ? undefined : Array.isArray(v) ? v : v === '' ? [] : [v]),
  z.array(z.string().refine(isLocale, LANGUAGES_MESSAGES.unknown), { error: LANGUAGES_MESSAGES.unknown }).max(LOCALES.length * 4, LANGUAGES_MESSAGES.repeated).optional(),
);
const defaultLanguageField = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : v),
  z.string({ error: LANGUAGES_MESSAGES.unknown }).refine(isLocale, LANGUAGES_MESSAGES.unknown).optional(),
);

/**
 * The builder's languages as stored: the default first, then the other ticked ones in the builder's
 * order; undefined when the form had no languages control (an older draft: keep what is stored).
 */
export function formLanguages(boxes: string[] | undefined, defaultLanguage: string | undefined): Locale[] | undefined {
  if (boxes === undefined && defaultLanguage === undefined) return undefined;
  const ticked = LOCALES.filter((l) => (boxes ?? []).includes(l));
  const first = defaultLanguage && isLocale(defaultLanguage) ? defaultLanguage : ticked[0];
  if (!first) return undefined;
  return [first, ...ticked.filter((l) => l !== first)];
}

/** The builder's language rules, run whatever else failed (the values read defensively). */
function checkFormLanguages(raw: unknown, ctx: z.RefinementCtx) {
  const v = asRecord(raw) as Record<string, unknown>;
  if (v.languages === undefined && v.defaultLanguage === undefined) return;
  const boxes = Array.isArray(v.languages) ? v.languages.filter((x): x is string => typeof x === 'string') : [];
  if (boxes.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['languages'], message: LANGUAGES_MESSAGES.empty });
    return;
  }
  if (new Set(boxes).size !== boxes.length) ctx.addIssue({ code: 'custom', path: ['languages'], message: LANGUAGES_MESSAGES.repeated });
  const chosen = v.defaultLanguage;
  if (typeof chosen === 'string' && isLocale(chosen) && !boxes.includes(chosen)) {
    ctx.addIssue({ code: 'custom', path: ['defaultLanguage'], message: LANGUAGES_MESSAGES.defaultNotOffered });
  }
}

/**
 * The owner's translations of their own words (issue 30, ADR 090), as the JSON API sends them and as
 * the builder's fields (`translations.es.questions.q_ab12.text`, `...options[0]`) post them: per
 * language a title, question texts and options (by position), and the reward tiers' names. Blank
 * means "not translated" (the owner's words show). Lengths as the owner's own words (spec 9 and
 * QUESTION_LIMITS); which languages and questions may be named is `translationProblems`.
 */
export const TRANSLATIONS_MESSAGES = {
  notObject: 'translations must be an object keyed by language code, such as es',
  unknownLanguage: `translations takes the language codes ${LOCALES.join(', ')} only`,
  notText: 'A translation must be text',
  notOptions: 'options must be a list of texts, one per option, in the question\'s order',
  tooManyOptions: `A question has at most ${TRANSLATION_LIMITS.options} options`,
  unknownKey: 'Only title, questions and rewards can be translated',
  tooLong: (max: number) => `Must be at most ${max} characters`,
  badQuestionId: 'A question id is at most 40 letters, digits or underscores',
} as const;

const blankToUndefined = (v: unknown) => (v === null || v === undefined ? undefined : typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);
const translatedText = (max: number) => z.preprocess(blankToUndefined, z.string({ error: TRANSLATIONS_MESSAGES.notText }).max(max, TRANSLATIONS_MESSAGES.tooLong(max)).optional());
const translatedOption = z.preprocess((v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v.trim() : v), z.string({ error: TRANSLATIONS_MESSAGES.notText }).max(TRANSLATION_LIMITS.option, TRANSLATIONS_MESSAGES.tooLong(TRANSLATION_LIMITS.option)));
const questionTranslation = z.strictObject(
  {
    text: translatedText(TRANSLATION_LIMITS.text),
    // A form posts options[0], options[1]... (a sparse array when some are blank).
    options: z.preprocess((v) => (v === null || v === undefined ? undefined : Array.isArray(v) ? Array.from(v, (x) => x) : v), z.array(translatedOption, { error: TRANSLATIONS_MESSAGES.notOptions }).max(TRANSLATION_LIMITS.options, TRANSLATIONS_MESSAGES.tooManyOptions).optional()),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'A question translation takes text and options only' : 'A question translation must be an object with text and options') },
);
const languageTranslation = z.strictObject(
  {
    title: translatedText(TRANSLATION_LIMITS.title),
    questions: z.record(z.string().regex(/^[A-Za-z0-9_]{1,40}$/, TRANSLATIONS_MESSAGES.badQuestionId), questionTranslation, { error: (issue) => (issue.code === 'invalid_key' ? TRANSLATIONS_MESSAGES.badQuestionId : issue.code === 'invalid_type' ? 'questions must be an object keyed by question id' : undefined) }).optional(),
    rewards: z.strictObject(
      { Bronze: translatedText(TRANSLATION_LIMITS.reward), Silver: translatedText(TRANSLATION_LIMITS.reward), Gold: translatedText(TRANSLATION_LIMITS.reward) },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? 'rewards takes Bronze, Silver and Gold only' : 'rewards must be an object with Bronze, Silver and Gold') },
    ).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? TRANSLATIONS_MESSAGES.unknownKey : 'A language\'s translation must be an object with title, questions and rewards') },
);
export const translationsInput = z
  .record(z.string().refine(isLocale, TRANSLATIONS_MESSAGES.unknownLanguage), languageTranslation, { error: (issue) => (issue.code === 'invalid_key' ? TRANSLATIONS_MESSAGES.unknownLanguage : issue.code === 'invalid_type' ? TRANSLATIONS_MESSAGES.notObject : undefined) })
  .transform((v) => translationsOf(v));

/** The survey's rules for translations (languages offered, its questions), on the form's or the API's issues. */
export function addTranslationIssues(ctx: z.RefinementCtx, translations: SurveyTranslations, survey: TranslatableSurvey) {
  for (const p of translationProblems(translations, survey)) ctx.addIssue({ code: 'custom', path: p.path.split('.'), message: p.message });
}

const platformList = <T extends readonly [string, ...string[]]>(ids: T) =>
  z.preprocess((v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]), z.array(z.enum(ids, { error: 'Unknown platform' })));

const optionalText = z.preprocess(trimmed, z.string().max(500, 'Must be at most 500 characters').optional());

const platformsAndLinks = {
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
const asRecord = (v: unknown): Record<string, string | undefined> => (v && typeof v === 'object' ? (v as Record<string, string | undefined>) : {});

/**
 * Platform rules shared by both schemas: 1-3 review platforms with URLs, up to 4 social with
 * handles. Runs even when other fields failed (`always`), so every message shows at once; it
 * therefore reads the values defensively.
 */
function checkPlatforms(raw: unknown, ctx: z.RefinementCtx) {
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
const always = { when: () => true };

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

const questionListField = z.preprocess((v, ctx) => {
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
function checkQuestions(raw: unknown, ctx: z.RefinementCtx) {
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
function storedQuestions(templateId: string, list: unknown[]): CustomQuestion[] {
  const checked = validateQuestionList(getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!, list);
  return checked.ok ? checked.list : [];
}

/** The stored shape (what a service saves): cents, cleaned links for selected platforms only. */
export type SurveyConfigInput = {
  surveyTemplateId: string;
  title: string;
  rewardMode: RewardMode;
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  redemptionWebsite: string;
  selectedReviewPlatforms: Array<(typeof REVIEW_PLATFORM_IDS)[number]>;
  reviewUrls: Record<string, string>;
  selectedSocialPlatforms: Array<(typeof SOCIAL_PLATFORM_IDS)[number]>;
  socialHandles: Record<string, string>;
  surveyFrequencyDays: 90 | 180 | 365;
  /** Absent: keep the stored questions (an API update without them). */
  customQuestions?: CustomQuestion[];
  /** Missing (a JSON client that does not send it): a new survey gets DEFAULT_REVIEW_POLICY, an edit keeps its own. */
  reviewPolicy?: ReviewPolicy;
  /** Missing: an edit keeps its own, a new survey the template's; null: back to the template's. */
  tierThresholds?: Partial<Record<TierName, number>> | null;
  /** Customers confirm their email before a gift card is sent (ADR 050); left out: unchanged (new surveys: off). */
  verifyCustomerEmail?: boolean;
  /** Screenshots read by the hosted vision model (ADR 066); left out: unchanged (new surveys: off). */
  hostedVision?: boolean;
  /** The languages offered, the default first (ADR 086); left out: unchanged (new surveys: ['en']). */
  languages?: Locale[];
  /** The owner's translations of their own words (ADR 090); left out: unchanged (new surveys: none). */
  translations?: SurveyTranslations;
};

function cleanLinks(v: PlatformFields) {
  const reviewUrls: Record<string, string> = {};
  for (const p of v.selectedReviewPlatforms) reviewUrls[p] = normaliseUrl(v.reviewUrls[p] ?? '');
  const socialHandles: Record<string, string> = {};
  for (const p of v.selectedSocialPlatforms) socialHandles[p] = (v.socialHandles[p] ?? '').trim();
  return { reviewUrls, socialHandles };
}

function checkRewardOrder(cents: { bronze: number; silver: number; gold: number }, ctx: z.RefinementCtx, path: (t: 'silver' | 'gold') => PropertyKey[]) {
  if (cents.silver < cents.bronze) ctx.addIssue({ code: 'custom', path: path('silver'), message: 'Silver must be at least the Bronze reward' });
  if (cents.gold < cents.silver) ctx.addIssue({ code: 'custom', path: path('gold'), message: 'Gold must be at least the Silver reward' });
}

const dollars = (min: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: `Minimum $${min}.00` })
      .int('Use whole dollars')
      .min(min, `Minimum $${min}.00`)
      .max(REWARD_MAXIMUM_CENTS / 100, `Maximum $${(REWARD_MAXIMUM_CENTS / 100).toLocaleString('en-US')}.00`)
      .optional(),
  );

/**
 * The builder form. Custom amounts are typed in whole dollars (spec); presets ignore them.
 * Field names match the JSON API where they can so errors land on the same keys.
 */
/**
 * The builder posts every language's translation card (those of languages not ticked are hidden by
 * the page's stylesheet, ADR 090): the save keeps the translations of the languages this same post
 * offers, other than its default, and drops the rest (a form without the languages card offers
 * English only, so none).
 */
function postedTranslations(v: { translations?: SurveyTranslations; languages?: string[]; defaultLanguage?: string }): SurveyTranslations | undefined {
  if (!v.translations) return undefined;
  return translationsOf(v.translations, formLanguages(v.languages, v.defaultLanguage) ?? ['en']);
}

export const builderFormSchema = z
  .object({
    surveyTemplateId: surveyTemplateId.default(DEFAULT_TEMPLATE_ID),
    title,
    rewardMode,
    customBronze: dollars(1),
    customSilver: dollars(2),
    customGold: dollars(3),
    redemptionWebsite,
    surveyFrequencyDays: frequency,
    customQuestions: questionListField,
    reviewPolicy: z.preprocess((v) => (v === undefined || v === '' ? DEFAULT_REVIEW_POLICY : v), reviewPolicy),
    tierBronze: tierPointsField,
    tierSilver: tierPointsField,
    tierGold: tierPointsField,
    // A checkbox: sent ('on') when ticked, absent when not.
    verifyCustomerEmail: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
    hostedVision: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
    // The languages offered (checkboxes) and the default one (a radio), ADR 086.
    languages: languageBoxes,
    defaultLanguage: defaultLanguageField,
    // The owner's translations (ADR 090): the translations card's fields; absent: keep what is stored.
    translations: translationsInput.optional(),
    ...platformsAndLinks,
  })
  .superRefine(checkPlatforms, always)
  .superRefine(checkQuestions, always)
  .superRefine(checkFormLanguages, always)
  .superRefine((v, ctx) => {
    // Translations name the questions of this same post.
    const translations = postedTranslations(v);
    if (translations) addTranslationIssues(ctx, translations, { surveyTemplateId: v.surveyTemplateId, customQuestions: v.customQuestions, languages: formLanguages(v.languages, v.defaultLanguage) ?? ['en'] });
  })
  .superRefine((v, ctx) => {
    if (v.rewardMode === 'custom') {
      for (const [field, min] of [['customBronze', 1], ['customSilver', 2], ['customGold', 3]] as const) {
        if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `Minimum $${min}.00` });
      }
      if (v.customBronze !== undefined && v.customSilver !== undefined && v.customGold !== undefined) {
        checkRewardOrder({ bronze: v.customBronze, silver: v.customSilver, gold: v.customGold }, ctx, (t) => [t === 'silver' ? 'customSilver' : 'customGold']);
      }
    }
  })
  .transform((v): SurveyConfigInput => {
    const rewards =
      v.rewardMode === 'custom'
        ? { bronze: v.customBronze! * 100, silver: v.customSilver! * 100, gold: v.customGold! * 100 }
        : presetRewards(v.surveyTemplateId, v.rewardMode);
    return {
      surveyTemplateId: v.surveyTemplateId,
      title: v.title,
      rewardMode: v.rewardMode,
      bronzeRewardValue: rewards.bronze,
      silverRewardValue: rewards.silver,
      goldRewardValue: rewards.gold,
      redemptionWebsite: v.redemptionWebsite,
      selectedReviewPlatforms: v.selectedReviewPlatforms,
      selectedSocialPlatforms: v.selectedSocialPlatforms,
      ...cleanLinks(v),
      surveyFrequencyDays: v.surveyFrequencyDays,
      customQuestions: storedQuestions(v.surveyTemplateId, v.customQuestions),
      reviewPolicy: v.reviewPolicy,
      verifyCustomerEmail: v.verifyCustomerEmail,
      hostedVision: v.hostedVision,
      ...(formLanguages(v.languages, v.defaultLanguage) === undefined ? {} : { languages: formLanguages(v.languages, v.defaultLanguage) }),
      ...(v.translations === undefined ? {} : { translations: postedTranslations(v) }),
      ...(formTierThresholds(v.surveyTemplateId, v) === undefined ? {} : { tierThresholds: formTierThresholds(v.surveyTemplateId, v) }),
    };
  });

const cents = (tier: keyof typeof REWARD_MINIMUM_CENTS) =>
  z
    .number({ error: REWARD_MINIMUMS_MESSAGE })
    .int('Reward values are whole cents')
    .min(REWARD_MINIMUM_CENTS[tier], REWARD_MINIMUMS_MESSAGE)
    .max(REWARD_MAXIMUM_CENTS, `Maximum $${(REWARD_MAXIMUM_CENTS / 100).toLocaleString('en-US')}.00`);

/** POST /api/survey/builder-config and PUT /api/survey/config/{id}: the spec's field names, cents. */
export const surveyConfigApiSchema = z
  .object({
    surveyTemplateId: surveyTemplateId.default(DEFAULT_TEMPLATE_ID),
    title,
    rewardMode,
    bronzeRewardValue: cents('bronze').optional(),
    silverRewardValue: cents('silver').optional(),
    goldRewardValue: cents('gold').optional(),
    redemptionWebsite,
    surveyFrequencyDays: z.number({ error: 'Must be 90, 180, or 365 days' }).refine((v): v is 90 | 180 | 365 => (FREQUENCY_DAYS as readonly number[]).includes(v), 'Must be 90, 180, or 365 days').default(90),
    customQuestions: z.array(z.unknown(), { error: 'customQuestions must be a list of questions' }).optional(),
    reviewPolicy: reviewPolicy.optional(),
    tierThresholds: tierThresholdsInput.optional(),
    verifyCustomerEmail: z.boolean({ error: 'verifyCustomerEmail must be true or false' }).optional(),
    hostedVision: z.boolean({ error: 'hostedVision must be true or false' }).optional(),
    languages: languagesInput.optional(),
    // Which languages and questions it may name is checked by the routes, with the stored survey for what a PUT leaves out.
    translations: translationsInput.optional(),
    ...platformsAndLinks,
  })
  .superRefine(checkPlatforms, always)
  .superRefine(checkQuestions, always)
  .superRefine((v, ctx) => {
    if (v.rewardMode === 'custom') {
      for (const f of ['bronzeRewardValue', 'silverRewardValue', 'goldRewardValue'] as const) {
        if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: REWARD_MINIMUMS_MESSAGE });
      }
      if (v.bronzeRewardValue !== undefined && v.silverRewardValue !== undefined && v.goldRewardValue !== undefined) {
        checkRewardOrder({ bronze: v.bronzeRewardValue, silver: v.silverRewardValue, gold: v.goldRewardValue }, ctx, (t) => [`${t}RewardValue`]);
      }
    }
  })
  .transform((v): SurveyConfigInput => {
    const preset = v.rewardMode === 'custom' ? null : presetRewards(v.surveyTemplateId, v.rewardMode);
    return {
      surveyTemplateId: v.surveyTemplateId,
      title: v.title,
      rewardMode: v.rewardMode,
      bronzeRewardValue: preset ? preset.bronze : v.bronzeRewardValue!,
      silverRewardValue: preset ? preset.silver : v.silverRewardValue!,
      goldRewardValue: preset ? preset.gold : v.goldRewardValue!,
      redemptionWebsite: v.redemptionWebsite,
      selectedReviewPlatforms: v.selectedReviewPlatforms,
      selectedSocialPlatforms: v.selectedSocialPlatforms,
      ...cleanLinks(v),
      surveyFrequencyDays: v.surveyFrequencyDays,
      // Left out of a PUT, the survey keeps its questions.
      ...(v.customQuestions === undefined ? {} : { customQuestions: storedQuestions(v.surveyTemplateId, v.customQuestions) }),
      ...(v.reviewPolicy === undefined ? {} : { reviewPolicy: v.reviewPolicy }),
      ...(v.tierThresholds === undefined ? {} : { tierThresholds: v.tierThresholds }),
      ...(v.verifyCustomerEmail !== undefined ? { verifyCustomerEmail: v.verifyCustomerEmail } : {}),
      ...(v.hostedVision !== undefined ? { hostedVision: v.hostedVision } : {}),
      ...(v.languages !== undefined ? { languages: v.languages } : {}),
      ...(v.translations !== undefined ? { translations: v.translations } : {}),
    };
  });

/** Builder form defaults from a stored survey (or a draft): cents back to whole dollars for custom amounts. */
export type StoredSurveyLike = {
  surveyTemplateId?: string;
  title?: string;
  rewardMode?: string;
  bronzeRewardValue?: number;
  silverRewardValue?: number;
  goldRewardValue?: number;
  redemptionWebsite?: string | null;
  surveyFrequencyDays?: number;
  verifyCustomerEmail?: boolean;
  hostedVision?: boolean;
  languages?: readonly string[] | null;
  translations?: unknown;
  customQuestions?: readonly unknown[] | null;
  selectedReviewPlatforms?: readonly string[];
  reviewUrls?: Record<string, string>;
  selectedSocialPlatforms?: readonly string[];
  socialHandles?: Record<string, string>;
  reviewPolicy?: string | null;
  tierThresholds?: Readonly<Partial<Record<string, number>>> | null;
};

function tierFormValues(templateId: string, stored: Readonly<Partial<Record<string, number>>> | null) {
  const template = getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  const of = (tier: TierName) => {
    const own = stored?.[tier];
    return String(typeof own === 'number' && Number.isInteger(own) && own >= 0 ? own : (template.reward_tiers.find((t) => t.tier === tier)?.min_points ?? 0));
  };
  return { tierBronze: of('Bronze'), tierSilver: of('Silver'), tierGold: of('Gold') };
}

export function toFormValues(s: StoredSurveyLike | null | undefined, defaultMode: RewardMode) {
  const dollars = (cents: number | undefined) => (cents === undefined ? undefined : String(Math.round(cents / 100)));
  const mode: RewardMode = (REWARD_MODES as readonly string[]).includes(s?.rewardMode ?? '') ? (s!.rewardMode as RewardMode) : defaultMode;
  return {
    surveyTemplateId: s?.surveyTemplateId ?? DEFAULT_TEMPLATE_ID,
    title: s?.title ?? '',
    rewardMode: mode,
    customBronze: mode === 'custom' ? dollars(s?.bronzeRewardValue) : undefined,
    customSilver: mode === 'custom' ? dollars(s?.silverRewardValue) : undefined,
    customGold: mode === 'custom' ? dollars(s?.goldRewardValue) : undefined,
    redemptionWebsite: s?.redemptionWebsite ?? '',
    surveyFrequencyDays: String(s?.surveyFrequencyDays ?? 90),
    verifyCustomerEmail: s?.verifyCustomerEmail ? 'on' : undefined,
    hostedVision: s?.hostedVision ? 'on' : undefined,
    // The languages offered and the default (the first), ADR 086; a new survey: English only.
    languages: surveyLocales(s?.languages),
    defaultLanguage: surveyLocales(s?.languages)[0]!,
    // The owner's translations as they apply (ADR 090): offered languages, existing questions.
    translations: translationsFor({ surveyTemplateId: s?.surveyTemplateId, customQuestions: s?.customQuestions, languages: s?.languages, translations: s?.translations }),
    selectedReviewPlatforms: [...(s?.selectedReviewPlatforms ?? [])],
    reviewUrls: { ...(s?.reviewUrls ?? {}) },
    selectedSocialPlatforms: [...(s?.selectedSocialPlatforms ?? [])],
    socialHandles: { ...(s?.socialHandles ?? {}) },
    // Stored surveys carry their own; a new survey (or a draft from before the choice) gets the default.
    reviewPolicy: (REVIEW_POLICIES as readonly string[]).includes(s?.reviewPolicy ?? '') ? (s!.reviewPolicy as ReviewPolicy) : DEFAULT_REVIEW_POLICY,
    // The survey's own tier points, else the template's (ADR 041): what the builder's Tier points card shows.
    ...tierFormValues(s?.surveyTemplateId ?? DEFAULT_TEMPLATE_ID, s?.tierThresholds ?? null),
  };
}

export { BUILDER_DRAFT_KEY } from './draft.ts';
