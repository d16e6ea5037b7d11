/**
 * Validation of an owner's question list (issue 16, spec section 5 extended). Pure, so the builder
 * shows the same messages in the browser as the server sends; `./schema-lists.ts` wires it into the
 * form and API schemas. Split from questions.ts (issue 28 item 4).
 */
import type { Question, SurveyTemplate } from './template.ts';
import { type CustomQuestion, isEditableSection, LOCKED_QUESTION_IDS, OWNER_QUESTION_ID, OWNER_QUESTION_TYPES, QUESTION_LIMITS, reservedAnswerKeys, templateQuestionList } from './questions.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
