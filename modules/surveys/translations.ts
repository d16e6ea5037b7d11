/**
 * The owner's translations of their own words (issue 30, ADR 090): per offered language other than
 * the default, the survey's title, its questions' texts and options, and the name of each reward
 * tier. Stored in `survey_configs.translations`:
 *
 *   { es: { title?, questions?: { [questionId]: { text?, options?: [label|''...] } }, rewards?: { Bronze?, Silver?, Gold? } } }
 *
 * Options are translated by position: the answer's value stays the owner's option (scoring, analytics
 * and the stored answers never change), only the label a customer reads does. An empty or missing
 * entry falls back to the catalog's words for a template text, else to the owner's own words.
 *
 * Pure TypeScript, browser-safe. Validation with messages is in `./schema.ts`; this file trusts what
 * was stored only as far as its shape: `translationsOf` skips whatever it cannot use.
 */
import { isLocale, surveyLocales, type Locale } from '../i18n/index.ts';
import type { Question, TierName } from './template.ts';
import { effectiveTemplate, isEditableSection, QUESTION_LIMITS } from './questions.ts';

export type QuestionTranslation = { text?: string; options?: string[] };
export type LanguageTranslation = {
  title?: string;
  questions?: Record<string, QuestionTranslation>;
  rewards?: Partial<Record<TierName, string>>;
};
export type SurveyTranslations = Partial<Record<Locale, LanguageTranslation>>;

export const TRANSLATED_TIERS: readonly TierName[] = ['Bronze', 'Silver', 'Gold'];

/** The limits of translated words: those of the owner's own (spec 9's title, QUESTION_LIMITS). */
export const TRANSLATION_LIMITS = {
  title: 255,
  text: QUESTION_LIMITS.maxTextLength,
  option: QUESTION_LIMITS.maxOptionLength,
  options: QUESTION_LIMITS.maxOptions,
  reward: 40,
} as const;

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined);
const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** One language's stored translation, read defensively; null when nothing usable is left. */
function languageOf(raw: unknown): LanguageTranslation | null {
  const v = record(raw);
  if (!v) return null;
  const out: LanguageTranslation = {};
  const title = text(v.title, TRANSLATION_LIMITS.title);
  if (title) out.title = title;
  const questions: Record<string, QuestionTranslation> = {};
  for (const [id, q] of Object.entries(record(v.questions) ?? {})) {
    const r = record(q);
    if (!r) continue;
    const entry: QuestionTranslation = {};
    const t = text(r.text, TRANSLATION_LIMITS.text);
    if (t) entry.text = t;
    if (Array.isArray(r.options)) {
      const options = r.options.slice(0, TRANSLATION_LIMITS.options).map((o) => text(o, TRANSLATION_LIMITS.option) ?? '');
      if (options.some(Boolean)) entry.options = options;
    }
    if (entry.text || entry.options) questions[id] = entry;
  }
  if (Object.keys(questions).length) out.questions = questions;
  const rewards: Partial<Record<TierName, string>> = {};
  const storedRewards = record(v.rewards) ?? {};
  for (const tier of TRANSLATED_TIERS) {
    const t = text(storedRewards[tier], TRANSLATION_LIMITS.reward);
    if (t) rewards[tier] = t;
  }
  if (Object.keys(rewards).length) out.rewards = rewards;
  return Object.keys(out).length ? out : null;
}

/**
 * The stored translations as a page uses them: known languages only, and (given `offered`) only
 * languages the survey offers other than its default (the first); blanks dropped.
 */
export function translationsOf(raw: unknown, offered?: readonly Locale[]): SurveyTranslations {
  const out: SurveyTranslations = {};
  for (const [code, value] of Object.entries(record(raw) ?? {})) {
    if (!isLocale(code)) continue;
    if (offered && (!offered.includes(code) || offered[0] === code)) continue;
    const lang = languageOf(value);
    if (lang) out[code] = lang;
  }
  return out;
}

/**
 * The owner's name for a reward tier in a language (ADR 090), for what is written outside the
 * survey page: the reward and confirm emails. Null when the owner gave none (or the language is no
 * longer offered, or is the default): the catalog's name is used then.
 */
export function ownerTierName(survey: { languages?: readonly string[] | null; translations?: unknown } | null | undefined, locale: string | null | undefined, tier: string | null | undefined): string | null {
  if (!survey || !locale || !isLocale(locale) || !tier) return null;
  const rewards = translationsOf(survey.translations, surveyLocales(survey.languages))[locale]?.rewards;
  return (rewards as Record<string, string | undefined> | undefined)?.[tier] ?? null;
}

/** A survey's words a translation may name: its title, the questions of its editable sections. */
export type TranslatableSurvey = {
  surveyTemplateId?: string | null;
  customQuestions?: readonly unknown[] | null;
  languages?: readonly string[] | null;
  translations?: unknown;
};

/** The questions a translation may name, by id: those the customer is asked (the editable sections, removed ones left out). */
export function translatableQuestions(survey: Pick<TranslatableSurvey, 'surveyTemplateId' | 'customQuestions'>): Map<string, Question> {
  const template = effectiveTemplate({ surveyTemplateId: survey.surveyTemplateId ?? null, customQuestions: survey.customQuestions ?? [] });
  return new Map(template.sections.filter(isEditableSection).flatMap((s) => s.questions.map((q) => [q.id, q] as const)));
}

/**
 * What a page and the config API read (ADR 090): the offered languages other than the default,
 * the questions the survey still asks, options only for a multiple-choice question and no more
 * than it has. A language or question the owner removed later keeps no stale words on the page.
 */
export function translationsFor(survey: TranslatableSurvey): SurveyTranslations {
  const all = translationsOf(survey.translations, surveyLocales(survey.languages));
  const questions = translatableQuestions(survey);
  for (const lang of Object.values(all)) {
    if (!lang.questions) continue;
    for (const [id, entry] of Object.entries(lang.questions)) {
      const q = questions.get(id);
      if (!q) {
        delete lang.questions[id];
        continue;
      }
      if (entry.options && (q.type !== 'multiple_choice' || !q.options)) delete entry.options;
      else if (entry.options) entry.options = entry.options.slice(0, q.options!.length);
      if (!entry.text && !entry.options?.some(Boolean)) delete lang.questions[id];
    }
    if (Object.keys(lang.questions).length === 0) delete lang.questions;
  }
  return all;
}

/** One problem of a translation: where (a form field's name) and what to do. */
export type TranslationProblem = { path: string; message: string };

const ENGLISH_NAME: Readonly<Record<Locale, string>> = { en: 'English', es: 'Spanish', fr: 'French', de: 'German', pt: 'Portuguese' };

/**
 * The translations checked against the survey they belong to (ADR 090): only offered languages other
 * than the default, only the survey's questions, options only for a multiple-choice question and no
 * more than it has. Shape and lengths are the schema's; this needs the survey's languages and questions.
 */
export function translationProblems(translations: SurveyTranslations, survey: TranslatableSurvey): TranslationProblem[] {
  const problems: TranslationProblem[] = [];
  const offered = surveyLocales(survey.languages);
  const questions = translatableQuestions(survey);
  for (const [code, lang] of Object.entries(translations) as Array<[Locale, LanguageTranslation]>) {
    const name = `${ENGLISH_NAME[code]} (${code})`;
    if (!offered.includes(code)) {
      problems.push({ path: `translations.${code}`, message: `${name} is not one of the survey's languages: offer it, or clear its translations` });
      continue;
    }
    if (offered[0] === code) {
      problems.push({ path: `translations.${code}`, message: `${name} is the survey's default language: its words are your own, so it takes no translation` });
      continue;
    }
    for (const [id, entry] of Object.entries(lang.questions ?? {})) {
      const q = questions.get(id);
      const at = `translations.${code}.questions.${id}`;
      if (!q) {
        problems.push({ path: at, message: `${name}: there is no question ${id.slice(0, 40)} in this survey` });
        continue;
      }
      if (entry.options?.some(Boolean) && q.type !== 'multiple_choice') problems.push({ path: `${at}.options`, message: `${name}: "${q.text}" has no options to translate` });
      else if (entry.options && q.options && entry.options.length > q.options.length) {
        problems.push({ path: `${at}.options`, message: `${name}: "${q.text}" has ${q.options.length} options, not ${entry.options.length}` });
      }
    }
  }
  return problems;
}
