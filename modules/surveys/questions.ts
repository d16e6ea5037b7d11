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
 * Validation (messages, limits) is in `./schema.ts` (`customQuestionsSchema`); this file trusts
 * what was stored and only skips entries it cannot use, so a bad row never breaks a survey page.
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

// ---------------------------------------------------------------------------------------------
// Validation (issue 16, spec section 5 extended). Pure, so the builder shows the same messages
// in the browser as the server sends; `./schema.ts` wires it into the form and API schemas.

export type QuestionProblem = { index: number | null; field: string | null; message: string };

export const QUESTION_MESSAGES = {
  tooMany: `A survey can have at most ${QUESTION_LIMITS.maxQuestions} questions`,
  emptyText: 'Question text is required',
  textTooLong: `Question text must be at most ${QUESTION_LIMITS.maxTextLength} characters`,
  descriptionTooLong: `Description must be at most ${QUESTION_LIMITS.maxDescriptionLength} characters`,
  points: `Points must be a whole number from ${QUESTION_LIMITS.minPoints} to ${QUESTION_LIMITS.maxPoints}`,
  scale: `A rating scale has ${QUESTION_LIMITS.minScale} to ${QUESTION_LIMITS.maxScale} points`,
  optionCount: `Multiple choice needs ${QUESTION_LIMITS.minOptions} to ${QUESTION_LIMITS.maxOptions} options`,
  optionTooLong: `Each option must be at most ${QUESTION_LIMITS.maxOptionLength} characters`,
  duplicateOptions: 'Options must all be different',
  minChars: `Minimum length must be a whole number from 0 to ${QUESTION_LIMITS.maxMinChars}`,
  unknownType: (type: string) => `Unknown question type: ${type}. Choose rating scale, yes / no, multiple choice, short text or single-line text`,
  unknownSection: 'Questions can be added to the first two sections only',
  idTaken: (id: string) => `Question id ${id} is already an answer key of the template`,
  badId: 'Question ids look like q_ followed by 4 to 24 lowercase letters or digits',
  duplicateId: (id: string) => `Question id ${id} is used twice`,
  unknownTemplateQuestion: (id: string) => `Unknown template question: ${id}`,
  locked: 'The overall rating and the email question cannot be removed or edited: they decide part 3 and the reward',
  typeChange: 'A template question keeps its type',
  malformed: 'Each question must be an object with an id, a type and a text',
} as const;

const fieldValue = (raw: Record<string, unknown>, key: string) => raw[key];
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
/** Form posts send numbers as strings; JSON sends numbers. Anything else is not a whole number. */
function whole(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number.parseInt(v, 10);
  return null;
}
const bool = (v: unknown) => v === true || v === 'true' || v === 'on' || v === 'yes';

/**
 * Checks an owner's question list (the stored shape, or what the builder/API posted) against the
 * template and returns the normalised list or every problem found. `[]` means "the template".
 */
export function validateQuestionList(
  template: SurveyTemplate,
  raw: unknown,
): { ok: true; list: CustomQuestion[] } | { ok: false; problems: QuestionProblem[] } {
  if (raw === undefined || raw === null) return { ok: true, list: [] };
  if (!Array.isArray(raw)) return { ok: false, problems: [{ index: null, field: null, message: QUESTION_MESSAGES.malformed }] };
  if (raw.length === 0) return { ok: true, list: [] };
  const problems: QuestionProblem[] = [];
  const base = new Map(templateQuestionList(template).map((q) => [q.id, q]));
  const reserved = reservedAnswerKeys(template);
  const sections = new Set(template.sections.filter(isEditableSection).map((s) => s.id));
  const seen = new Set<string>();
  const list: CustomQuestion[] = [];
  raw.forEach((rawEntry: unknown, index) => {
    let entry = rawEntry as Record<string, unknown>;
    const problem = (field: string | null, message: string) => problems.push({ index, field, message });
    if (!isRecord(rawEntry)) return problem(null, QUESTION_MESSAGES.malformed);
    const id = str(fieldValue(entry, 'id'));
    if (!id) return problem('id', QUESTION_MESSAGES.malformed);
    if (seen.has(id)) return problem('id', QUESTION_MESSAGES.duplicateId(id));
    seen.add(id);
    const original = base.get(id);
    const origin = entry.origin === 'owner' ? 'owner' : entry.origin === 'template' ? 'template' : original ? 'template' : 'owner';
    if (origin === 'owner' && reserved.has(id)) return problem('id', QUESTION_MESSAGES.idTaken(id));
    if (origin === 'template' && !original) return problem('id', QUESTION_MESSAGES.unknownTemplateQuestion(id));
    if (origin === 'owner' && !OWNER_QUESTION_ID.test(id)) return problem('id', QUESTION_MESSAGES.badId);
    // A template entry may leave out what it does not change.
    if (original) entry = { ...original, ...entry };
    const type = str(fieldValue(entry, 'type'));
    if (original) {
      if (type !== original.type) return problem('type', QUESTION_MESSAGES.typeChange);
      if (LOCKED_QUESTION_IDS.includes(id)) {
        if (bool(entry.removed) || str(entry.text) !== original.text || (entry.points !== undefined && whole(entry.points) !== original.points)) {
          return problem(null, QUESTION_MESSAGES.locked);
        }
        list.push(original);
        return;
      }
    } else if (!(OWNER_QUESTION_TYPES as readonly string[]).includes(type)) {
      return problem('type', QUESTION_MESSAGES.unknownType(type || '(none)'));
    }
    const section = original ? original.section : str(entry.section);
    if (!sections.has(section)) return problem('section', QUESTION_MESSAGES.unknownSection);
    const before = problems.length;
    const text = str(entry.text);
    if (!text) problem('text', QUESTION_MESSAGES.emptyText);
    else if ([...text].length > QUESTION_LIMITS.maxTextLength) problem('text', QUESTION_MESSAGES.textTooLong);
    const description = str(entry.description);
    if ([...description].length > QUESTION_LIMITS.maxDescriptionLength) problem('description', QUESTION_MESSAGES.descriptionTooLong);
    const points = whole(entry.points);
    if (points === null || points < QUESTION_LIMITS.minPoints || points > QUESTION_LIMITS.maxPoints) problem('points', QUESTION_MESSAGES.points);
    const q: CustomQuestion = { id, section, origin, type: type as Question['type'], text, required: bool(entry.required), points: points ?? 0 };
    if (description) q.description = description;
    if (origin === 'template' && bool(entry.removed)) q.removed = true;
    if (type === 'scale') {
      const max = entry.scale_max === undefined || entry.scale_max === '' ? 5 : whole(entry.scale_max);
      if (max === null || max < QUESTION_LIMITS.minScale || max > QUESTION_LIMITS.maxScale) problem('scale_max', QUESTION_MESSAGES.scale);
      else q.scale_max = max;
    }
    if (type === 'multiple_choice') {
      const options = (Array.isArray(entry.options) ? entry.options : typeof entry.options === 'string' ? entry.options.split(/\r?\n/) : [])
        .map(str)
        .filter(Boolean);
      if (options.length < QUESTION_LIMITS.minOptions || options.length > QUESTION_LIMITS.maxOptions) problem('options', QUESTION_MESSAGES.optionCount);
      else if (options.some((o) => [...o].length > QUESTION_LIMITS.maxOptionLength)) problem('options', QUESTION_MESSAGES.optionTooLong);
      else if (new Set(options.map((o) => o.toLowerCase())).size !== options.length) problem('options', QUESTION_MESSAGES.duplicateOptions);
      else q.options = options;
    }
    if (type === 'short_text' && entry.min_chars !== undefined && entry.min_chars !== null && entry.min_chars !== '') {
      const min = whole(entry.min_chars);
      if (min === null || min < 0 || min > QUESTION_LIMITS.maxMinChars) problem('min_chars', QUESTION_MESSAGES.minChars);
      else q.min_chars = min;
    }
    if (problems.length === before) list.push(q);
  });
  for (const q of base.values()) {
    if (!seen.has(q.id)) list.push(q);
  }
  if (list.filter((q) => !q.removed).length > QUESTION_LIMITS.maxQuestions) problems.push({ index: null, field: null, message: QUESTION_MESSAGES.tooMany });
  if (problems.length) return { ok: false, problems };
  const order = template.sections.map((s) => s.id);
  const sorted = list.map((q, i) => ({ q, i })).sort((a, b) => order.indexOf(a.q.section) - order.indexOf(b.q.section) || a.i - b.i).map(({ q }) => q);
  // The template unchanged is stored as [] (every survey before issue 16 looks like that).
  return { ok: true, list: sameAsTemplate(sorted, templateQuestionList(template)) ? [] : sorted };
}

function sameAsTemplate(list: CustomQuestion[], base: CustomQuestion[]): boolean {
  const canon = (q: CustomQuestion) => JSON.stringify(Object.entries(q).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)));
  return list.length === base.length && list.every((q, i) => canon(q) === canon(base[i]!));
}

// ---------------------------------------------------------------------------------------------
// The builder's question editor (issue 16). One reducer for both ways of using the builder: with
// JavaScript the page applies it in the browser (no reload); without, each button is a form post
// and the builder's action applies the same reducer to the posted list and editor fields.

/** The editor's fields as typed (strings, like a form post). `id` empty: a new question. */
export type QuestionDraft = {
  id: string;
  section: string;
  type: string;
  text: string;
  description: string;
  required: boolean;
  points: string;
  /** One option per line. */
  options: string;
  scale_max: string;
  min_chars: string;
};

export const QUESTION_DRAFT_PREFIX = 'question';
export const QUESTION_DRAFT_FIELDS = ['id', 'section', 'type', 'text', 'description', 'required', 'points', 'options', 'scale_max', 'min_chars'] as const;

export function emptyDraft(template: SurveyTemplate): QuestionDraft {
  const section = template.sections.find(isEditableSection)?.id ?? '';
  return { id: '', section, type: 'multiple_choice', text: '', description: '', required: false, points: '1', options: '', scale_max: '5', min_chars: '' };
}

export function draftOf(q: CustomQuestion): QuestionDraft {
  return {
    id: q.id,
    section: q.section,
    type: q.type,
    text: q.text,
    description: q.description ?? '',
    required: q.required,
    points: String(q.points),
    options: (q.options ?? []).join('\n'),
    scale_max: String(q.scale_max ?? 5),
    min_chars: q.min_chars === undefined ? '' : String(q.min_chars),
  };
}

/** The editor fields of a form post (`question.text`, ...). */
export function draftFromForm(get: (name: string) => unknown, template: SurveyTemplate): QuestionDraft {
  const s = (name: string) => {
    const v = get(`${QUESTION_DRAFT_PREFIX}.${name}`);
    return typeof v === 'string' ? v : '';
  };
  const empty = emptyDraft(template);
  return {
    id: s('id'),
    section: s('section') || empty.section,
    type: s('type') || empty.type,
    text: s('text'),
    description: s('description'),
    required: s('required') === 'on' || s('required') === 'true',
    points: s('points'),
    options: s('options'),
    scale_max: s('scale_max'),
    min_chars: s('min_chars'),
  };
}

export type QuestionIntent =
  | { kind: 'apply' }
  | { kind: 'cancel' }
  | { kind: 'edit' | 'remove' | 'restore' | 'up' | 'down'; id: string };

const INTENT_KINDS = ['edit', 'remove', 'restore', 'up', 'down'] as const;

/** `question:apply`, `question:cancel`, `question:remove:recommend`, ...; null for any other intent. */
export function parseQuestionIntent(value: unknown): QuestionIntent | null {
  if (typeof value !== 'string' || !value.startsWith('question:')) return null;
  const [, kind, id] = value.split(':');
  if (kind === 'apply' || kind === 'cancel') return { kind };
  if ((INTENT_KINDS as readonly string[]).includes(kind ?? '') && id) return { kind: kind as (typeof INTENT_KINDS)[number], id };
  return null;
}
export const questionIntent = (kind: QuestionIntent['kind'], id?: string) => `question:${kind}${id ? `:${id}` : ''}`;

export type EditorState = { list: CustomQuestion[]; draft: QuestionDraft; errors: string[]; notice: string | null };

/**
 * One editor step: add or update the draft question (checked like a save: every problem of the list
 * with it), load a question into the editor, remove or restore a template question (an owner's own
 * question is deleted), move a question within its section. Locked questions cannot be removed or
 * edited. Never throws; an unknown id changes nothing and says so.
 */
export function applyQuestionIntent(template: SurveyTemplate, state: EditorState, intent: QuestionIntent, random?: () => number): EditorState {
  const { list } = state;
  const at = 'id' in intent ? list.findIndex((q) => q.id === intent.id) : -1;
  const target = at >= 0 ? list[at]! : null;
  const unchanged = (notice: string): EditorState => ({ ...state, errors: [notice], notice: null });
  switch (intent.kind) {
    case 'cancel':
      return { list, draft: emptyDraft(template), errors: [], notice: null };
    case 'edit':
      if (!target) return unchanged('That question is no longer in the survey.');
      if (LOCKED_QUESTION_IDS.includes(target.id)) return unchanged(QUESTION_MESSAGES.locked);
      return { list, draft: draftOf(target), errors: [], notice: null };
    case 'remove': {
      if (!target) return unchanged('That question is no longer in the survey.');
      if (LOCKED_QUESTION_IDS.includes(target.id)) return unchanged(QUESTION_MESSAGES.locked);
      const next = target.origin === 'owner' ? list.filter((q) => q.id !== target.id) : list.map((q) => (q.id === target.id ? { ...q, removed: true } : q));
      const draft = state.draft.id === target.id ? emptyDraft(template) : state.draft;
      return { list: next, draft, errors: [], notice: `Removed: ${target.text}` };
    }
    case 'restore':
      if (!target) return unchanged('That question is no longer in the survey.');
      return { ...state, list: list.map((q) => (q.id === target.id ? { ...q, removed: false } : q)), errors: [], notice: `Restored: ${target.text}` };
    case 'up':
    case 'down': {
      if (!target) return unchanged('That question is no longer in the survey.');
      const step = intent.kind === 'up' ? -1 : 1;
      let other = at + step;
      while (other >= 0 && other < list.length && list[other]!.section === target.section && list[other]!.removed) other += step;
      if (other < 0 || other >= list.length || list[other]!.section !== target.section) return { ...state, errors: [], notice: null };
      const next = [...list];
      next[at] = list[other]!;
      next[other] = target;
      return { ...state, list: next, errors: [], notice: null };
    }
    case 'apply': {
      const d = state.draft;
      const editing = d.id ? list.find((q) => q.id === d.id) : undefined;
      if (d.id && !editing) return unchanged('That question is no longer in the survey.');
      const entry: Record<string, unknown> = {
        id: editing ? editing.id : newQuestionId(list, random),
        section: editing ? editing.section : d.section,
        origin: editing ? editing.origin : 'owner',
        type: editing ? editing.type : d.type,
        text: d.text,
        description: d.description,
        required: d.required,
        points: d.points,
        options: d.options,
        scale_max: d.scale_max,
        min_chars: d.min_chars,
      };
      if (editing?.removed) entry.removed = true;
      const candidate = editing ? list.map((q) => (q.id === editing.id ? entry : q)) : insertInSection(list, entry as CustomQuestion);
      const checked = validateQuestionList(template, candidate);
      if (!checked.ok) return { ...state, errors: checked.problems.map((p) => p.message), notice: null };
      const next = checked.list.length ? checked.list : templateQuestionList(template);
      return { list: next, draft: emptyDraft(template), errors: [], notice: editing ? `Updated: ${String(entry.text).trim()}` : `Added: ${String(entry.text).trim()}` };
    }
  }
}

function insertInSection(list: CustomQuestion[], q: CustomQuestion): CustomQuestion[] {
  const last = list.map((x) => x.section).lastIndexOf(q.section);
  const next = [...list];
  next.splice(last === -1 ? next.length : last + 1, 0, q);
  return next;
}
