/**
 * The owner's own questions (issue 16, ADR 035). Pure TypeScript, browser-safe (no zod, no ORM):
 * the builder's island, the customer page, the server's checks and scoring all read a survey's
 * questions through `effectiveTemplate` below and nothing else.
 *
 * The stored shape is `survey_configs.customQuestions` (spec section 3: "customQuestions (json)"):
 * - `[]` (every survey saved before issue 16): the template as it is;
 * - otherwise the full, ordered question list of the editable sections (the unconditional ones,
 *   part 1 and part 2): each entry a template question (`origin: 'template'`, possibly edited or
 *   `removed`) or the owner's own (`origin: 'owner'`, id `q_...`). Part 3 is built from the
 *   platforms the owner selects and is not edited here.
 *
 * Validation (messages, limits) is in `./question-validation.ts` (`validateQuestionList`, wired
 * into the schemas by `./schema-lists.ts`); this file trusts what was stored and only skips entries
 * it cannot use, so a bad row never breaks a survey page. The builder's editor (drafts, intents, the
 * reducer) is in `./question-editor.ts`.
 */
import { answerKey, getTemplate, DEFAULT_TEMPLATE_ID, OVERALL_RATING_ID, type Question, type Section, type SurveyTemplate } from './template.ts';

/** The types an owner can add (spec section 3, "Question types"): single-line text is `text`. */
export const OWNER_QUESTION_TYPES = ['scale', 'yes_no', 'multiple_choice', 'short_text', 'text'] as const;
export type OwnerQuestionType = (typeof OWNER_QUESTION_TYPES)[number];
export const OWNER_QUESTION_TYPE_LABELS: Readonly<Record<OwnerQuestionType, string>> = {
  scale: 'Rating scale',
  yes_no: 'Yes / no',
  multiple_choice: 'Multiple choice',
  short_text: 'Short text',
  text: 'Single-line text',
};

export const QUESTION_LIMITS = {
  /** Questions in the editable sections, removed template questions not counted. */
  maxQuestions: 30,
  minPoints: 0,
  maxPoints: 5,
  minScale: 3,
  maxScale: 10,
  minOptions: 2,
  maxOptions: 8,
  maxTextLength: 200,
  maxDescriptionLength: 300,
  maxOptionLength: 80,
  maxMinChars: 500,
} as const;

/** The overall rating drives part 3, the email the reward: they can be moved, never removed or edited. */
export const LOCKED_QUESTION_IDS: readonly string[] = [OVERALL_RATING_ID, 'customer_email'];

/** Owner question ids: `q_` and 4-24 lowercase letters or digits (never a template or composite key). */
export const OWNER_QUESTION_ID = /^q_[a-z0-9]{4,24}$/;

export type CustomQuestion = {
  id: string;
  /** An editable section of the template (part1, part2). */
  section: string;
  origin: 'template' | 'owner';
  /** Template questions only: taken out of the survey, restorable. */
  removed?: boolean;
  type: Question['type'];
  text: string;
  description?: string;
  required: boolean;
  points: number;
  options?: string[];
  scale_max?: number;
  min_chars?: number;
};

type SurveyLike = { surveyTemplateId?: string | null; customQuestions?: readonly unknown[] | null };

export function templateOf(survey: SurveyLike): SurveyTemplate {
  return getTemplate(survey.surveyTemplateId ?? DEFAULT_TEMPLATE_ID) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
}

export const isEditableSection = (section: Section) => !section.conditional;

/** The template's editable questions as a question list (what the builder starts from). */
export function templateQuestionList(template: SurveyTemplate): CustomQuestion[] {
  return template.sections.filter(isEditableSection).flatMap((s) => s.questions.map((q) => fromQuestion(q, s.id, 'template')));
}

export function fromQuestion(q: Question, section: string, origin: CustomQuestion['origin']): CustomQuestion {
  return {
    id: q.id,
    section,
    origin,
    type: q.type,
    text: q.text,
    ...(q.description ? { description: q.description } : {}),
    required: q.required,
    points: q.points,
    ...(q.options ? { options: [...q.options] } : {}),
    ...(q.scale_max !== undefined ? { scale_max: q.scale_max } : {}),
    ...(q.min_chars !== undefined ? { min_chars: q.min_chars } : {}),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The survey's question list for the editable sections, in order: the stored list with the
 * template's questions it lacks appended to their section (a template question added later), and
 * the locked questions always present and unchanged. Entries that cannot be used are skipped.
 */
export function questionList(survey: SurveyLike): CustomQuestion[] {
  const template = templateOf(survey);
  const base = templateQuestionList(template);
  const stored = Array.isArray(survey.customQuestions) ? survey.customQuestions : [];
  if (stored.length === 0) return base;
  const byId = new Map(base.map((q) => [q.id, q]));
  const sections = new Set(template.sections.filter(isEditableSection).map((s) => s.id));
  const seen = new Set<string>();
  const list: CustomQuestion[] = [];
  for (const raw of stored) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || seen.has(raw.id)) continue;
    const original = byId.get(raw.id);
    if (original) {
      seen.add(raw.id);
      if (LOCKED_QUESTION_IDS.includes(raw.id)) {
        list.push(original);
        continue;
      }
      const edited = cleanEntry(raw, original.type);
      list.push({ ...original, ...(edited ?? {}), id: original.id, section: original.section, origin: 'template', type: original.type, removed: raw.removed === true });
    } else if (raw.origin === 'owner' && OWNER_QUESTION_ID.test(raw.id) && typeof raw.section === 'string' && sections.has(raw.section)) {
      const type = (OWNER_QUESTION_TYPES as readonly string[]).includes(String(raw.type)) ? (raw.type as OwnerQuestionType) : null;
      const edited = type ? cleanEntry(raw, type) : null;
      if (!edited) continue;
      seen.add(raw.id);
      list.push({ ...edited, id: raw.id, section: raw.section, origin: 'owner', type: type! });
    }
  }
  for (const q of base) {
    if (seen.has(q.id)) continue;
    const at = list.map((x) => x.section).lastIndexOf(q.section);
    list.splice(at === -1 ? list.length : at + 1, 0, q);
  }
  // Sections stay in template order whatever the stored order.
  const order = template.sections.map((s) => s.id);
  return list.map((q, i) => ({ q, i })).sort((a, b) => order.indexOf(a.q.section) - order.indexOf(b.q.section) || a.i - b.i).map(({ q }) => q);
}

function cleanEntry(raw: Record<string, unknown>, type: Question['type']): Omit<CustomQuestion, 'id' | 'section' | 'origin'> | null {
  const text = typeof raw.text === 'string' ? raw.text.trim() : '';
  const points = Number(raw.points);
  if (!text || !Number.isInteger(points) || points < QUESTION_LIMITS.minPoints || points > QUESTION_LIMITS.maxPoints) return null;
  const entry: Omit<CustomQuestion, 'id' | 'section' | 'origin'> = { type, text, required: raw.required === true, points };
  if (typeof raw.description === 'string' && raw.description.trim()) entry.description = raw.description.trim();
  if (type === 'multiple_choice') {
    const options = Array.isArray(raw.options) ? raw.options.filter((o): o is string => typeof o === 'string' && o.trim() !== '').map((o) => o.trim()) : [];
    if (options.length < QUESTION_LIMITS.minOptions) return null;
    entry.options = options;
  }
  if (type === 'scale') {
    const max = Number(raw.scale_max ?? 5);
    entry.scale_max = Number.isInteger(max) && max >= QUESTION_LIMITS.minScale && max <= QUESTION_LIMITS.maxScale ? max : 5;
  }
  if (type === 'short_text' && raw.min_chars !== undefined && raw.min_chars !== null && raw.min_chars !== '') {
    const min = Number(raw.min_chars);
    if (Number.isInteger(min) && min >= 0 && min <= QUESTION_LIMITS.maxMinChars) entry.min_chars = min;
  }
  return entry;
}

export function toQuestion(q: CustomQuestion): Question {
  return {
    id: q.id,
    type: q.type,
    text: q.text,
    points: q.points,
    required: q.required,
    ...(q.description ? { description: q.description } : {}),
    ...(q.options ? { options: q.options } : {}),
    ...(q.scale_max !== undefined ? { scale_max: q.scale_max } : {}),
    ...(q.min_chars !== undefined ? { min_chars: q.min_chars } : {}),
  };
}

/**
 * THE effective question list of a survey (issue 16): its template with the editable sections'
 * questions replaced by the owner's list (removed ones left out, edits applied, own questions in
 * their place). The customer page, the server's answer checks and scoring, the preview, the flyer
 * and analytics all read a survey's questions from here.
 */
export function effectiveTemplate(survey: SurveyLike): SurveyTemplate {
  const template = templateOf(survey);
  if (!Array.isArray(survey.customQuestions) || survey.customQuestions.length === 0) return template;
  const list = questionList(survey);
  return {
    ...template,
    sections: template.sections.map((s) =>
      isEditableSection(s) ? { ...s, questions: list.filter((q) => q.section === s.id && !q.removed).map(toQuestion) } : s,
    ),
  };
}

/** Template questions the owner took out (Survey Stats: Removed Questions). */
export function removedQuestions(survey: SurveyLike): CustomQuestion[] {
  return questionList(survey).filter((q) => q.removed);
}

/** Every question of a template (both branches of part 3), in survey order. */
export function allQuestions(template: SurveyTemplate): Question[] {
  return template.sections.flatMap((s) => [...s.questions, ...(s.negative_questions ?? [])]);
}

/** Answer keys an owner question id may never take: every template key and composite key, the contact keys. */
export function reservedAnswerKeys(template: SurveyTemplate): Set<string> {
  const keys = new Set(['customerEmail', 'customer_email', 'customerName', 'customer_name']);
  for (const q of allQuestions(template)) {
    keys.add(q.id);
    for (const f of q.fields ?? []) keys.add(answerKey(q.id, f.id));
  }
  return keys;
}

/** The text each question of a survey is asked with, by answer key: stored with every response. */
export function questionTexts(template: SurveyTemplate): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const q of allQuestions(template)) texts[q.id] ??= q.text;
  return texts;
}

/** A new owner question id, unique in the list. */
export function newQuestionId(existing: readonly { id: string }[], random: () => number = Math.random): string {
  for (;;) {
    const id = `q_${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`;
    if (!existing.some((q) => q.id === id)) return id;
  }
}
