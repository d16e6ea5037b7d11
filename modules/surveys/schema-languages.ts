/**
 * The builder's languages and the owner's translations (ADR 086, 090): the fields and their rules,
 * for the form schema and the JSON API's (`schema.ts`). Split from schema.ts (issue 28 item 4).
 */
import { z } from 'zod';
import { isLocale, LOCALES, type Locale } from '../i18n/index.ts';
import { translationProblems, translationsOf, TRANSLATION_LIMITS, type SurveyTranslations, type TranslatableSurvey } from './translations.ts';
import { asRecord } from './schema-lists.ts';

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

export const languagesInput = z
  .array(z.string({ error: LANGUAGES_MESSAGES.unknown }).refine(isLocale, LANGUAGES_MESSAGES.unknown), { error: LANGUAGES_MESSAGES.notList })
  .min(1, LANGUAGES_MESSAGES.empty)
  .max(LOCALES.length * 4, LANGUAGES_MESSAGES.repeated)
  .refine((list) => new Set(list).size === list.length, LANGUAGES_MESSAGES.repeated)
  .transform((list) => list as Locale[]);

/** The builder's checkboxes: absent (a form without the control), or the ticked codes. */
export const languageBoxes = z.preprocess(
  (v) => (v === undefined || v === null ? undefined : Array.isArray(v) ? v : v === '' ? [] : [v]),
  z.array(z.string().refine(isLocale, LANGUAGES_MESSAGES.unknown), { error: LANGUAGES_MESSAGES.unknown }).max(LOCALES.length * 4, LANGUAGES_MESSAGES.repeated).optional(),
);
export const defaultLanguageField = z.preprocess(
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
export function checkFormLanguages(raw: unknown, ctx: z.RefinementCtx) {
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
