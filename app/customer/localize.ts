/**
 * The survey's words in the customer's language (ADR 084), for display only: ids, option values and
 * scoring never change. A template text is translated when the catalog has it; the owner's own words
 * (a question they wrote or reworded) are not in any catalog and stay as written.
 */
import type { Translator } from '../../modules/i18n/index.ts';
import type { Problem } from '../../modules/responses/index.ts';
import { PLATFORM_LABELS, type LanguageTranslation, type Question, type QuestionTranslation, type SurveyTemplate } from '../../modules/surveys/index.ts';

/** A template text, also one that names its platform ('Follow Us on Instagram' is 'Follow Us on {{platform}}'). */
export function localizeText(text: string, tr: Translator, platform?: string): string {
  const label = platform ? PLATFORM_LABELS[platform as keyof typeof PLATFORM_LABELS] : undefined;
  if (label && text.includes(label)) {
    const key = text.split(label).join('{{platform}}');
    if (tr.has(key)) return tr.t(key, { platform: label });
  }
  return tr.t(text);
}

function localizeQuestion(q: Question, tr: Translator, own?: QuestionTranslation): Question {
  // The owner's translation first (ADR 090), else the catalog's for a template text, else the owner's words.
  const labels = own?.options && q.options ? q.options.map((o, i) => own.options![i] || tr.t(o)) : undefined;
  return {
    ...q,
    text: own?.text ?? localizeText(q.text, tr, q.platform),
    ...(labels ? { option_labels: labels } : {}),
    ...(q.description ? { description: localizeText(q.description, tr, q.platform) } : {}),
    ...(q.fields ? { fields: q.fields.map((f) => ({ ...f, text: localizeText(f.text, tr, q.platform) })) } : {}),
  };
}

/** The template with its titles, descriptions, question and field texts in the customer's language (options keep their values). */
export function localizeTemplate(template: SurveyTemplate, tr: Translator, own?: LanguageTranslation): SurveyTemplate {
  if (tr.locale === 'en' && !own?.questions) return template;
  const ownOf = (q: Question) => own?.questions?.[q.id];
  return {
    ...template,
    sections: template.sections.map((s) => ({
      ...s,
      title: tr.t(s.title),
      ...(s.description ? { description: tr.t(s.description) } : {}),
      questions: s.questions.map((q) => localizeQuestion(q, tr, ownOf(q))),
      ...(s.negative_questions ? { negative_questions: s.negative_questions.map((q) => localizeQuestion(q, tr, ownOf(q))) } : {}),
    })),
  };
}

/**
 * A refusal whose message names the survey's words ('Please answer: {question}'), said in the
 * customer's language, the words inside translated when they are the template's. The title stays
 * the English key (the page compares it, and the toast translates it as it renders), as do plain
 * messages: the toast and the inline error look those up themselves.
 */
export function localizeProblem(problem: Problem, tr: Translator): Problem {
  if (!problem.key || tr.locale === 'en') return problem;
  // `count` picks the plural form; `why` is the verifier's own words.
  const params = Object.fromEntries(Object.entries(problem.params ?? {}).map(([k, v]) => [k, k === 'count' ? Number(v) : k === 'why' ? v : tr.t(v)]));
  return { ...problem, message: tr.t(problem.key, params) };
}

/** A platform's name as the page shows it ('instagram' -> 'Instagram'); an unknown id as given. */
export function platformLabel(platform: string | null | undefined): string {
  return (platform && PLATFORM_LABELS[platform as keyof typeof PLATFORM_LABELS]) || (platform ?? '');
}

/**
 * The page's translator with the owner's words for the reward tiers in this language (ADR 090):
 * 'Gold' says the owner's name for it ('Oro' from the catalog otherwise). Everything else unchanged.
 */
export function withOwnerWords(tr: Translator, own?: LanguageTranslation): Translator {
  const rewards = own?.rewards;
  if (!rewards || Object.keys(rewards).length === 0) return tr;
  const words = rewards as Record<string, string | undefined>;
  return { ...tr, t: (key, values) => words[key] ?? tr.t(key, values), has: (key) => key in words || tr.has(key) };
}

/**
 * A translator that says a question's own words as the owner translated them (ADR 090), for
 * refusals that quote a question ('Please answer: {question}') on the no-JavaScript post.
 */
export function withOwnerQuestions(tr: Translator, own: LanguageTranslation | undefined, template: SurveyTemplate): Translator {
  const texts = new Map<string, string>();
  for (const s of template.sections) for (const q of [...s.questions, ...(s.negative_questions ?? [])]) {
    const text = own?.questions?.[q.id]?.text;
    if (text) texts.set(q.text, text);
  }
  if (texts.size === 0) return tr;
  return { ...tr, t: (key, values) => texts.get(key) ?? tr.t(key, values), has: (key) => texts.has(key) || tr.has(key) };
}
