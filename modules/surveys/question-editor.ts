/**
 * The builder's question editor (issue 16). One reducer for both ways of using the builder: with
 * JavaScript the page applies it in the browser (no reload); without, each button is a form post
 * and the builder's action applies the same reducer to the posted list and editor fields. Split
 * from questions.ts (issue 28 item 4).
 */
import type { SurveyTemplate } from './template.ts';
import { QUESTION_MESSAGES, validateQuestionList } from './question-validation.ts';
import { type CustomQuestion, isEditableSection, LOCKED_QUESTION_IDS, newQuestionId, templateQuestionList } from './questions.ts';

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
