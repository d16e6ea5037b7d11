import { useLocation } from '@remix-run/react';
import type { KeyboardEvent, MouseEvent } from 'react';
import {
  applyQuestionIntent,
  isEditableSection,
  LOCKED_QUESTION_IDS,
  OWNER_QUESTION_TYPE_LABELS,
  OWNER_QUESTION_TYPES,
  QUESTION_DRAFT_PREFIX,
  QUESTION_LIMITS,
  questionIntent,
  type EditorState,
  type QuestionDraft,
  type QuestionIntent,
  type SurveyTemplate,
} from '../../modules/surveys/index.ts';
import { buttonClass, Card, FieldError } from './ui.tsx';

const TYPE_LABELS: Record<string, string> = { ...OWNER_QUESTION_TYPE_LABELS, email: 'Email' };
const inputClass = 'block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3';
const smallButton = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-2 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-40';
const name = (field: keyof QuestionDraft) => `${QUESTION_DRAFT_PREFIX}.${field}`;

/**
 * The builder's question editor (issue 16), inside the builder's form. Every button is a real
 * submit button carrying `intent=question:...`: without JavaScript the builder's action applies it
 * to the posted list (hidden field `customQuestions`) and editor fields and renders the page again
 * with everything typed; with JavaScript the same reducer runs here, without a reload.
 */
export function QuestionEditor({
  template,
  state,
  onChange,
  hydrated,
  saveErrors,
  errorId,
}: {
  template: SurveyTemplate;
  state: EditorState;
  onChange: (next: EditorState) => void;
  hydrated: boolean;
  saveErrors?: string[];
  errorId: string;
}) {
  const { list, draft } = state;
  const run = (intent: QuestionIntent) => (event: MouseEvent<HTMLButtonElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    onChange(applyQuestionIntent(template, state, intent));
  };
  const setDraft = (patch: Partial<QuestionDraft>) => onChange({ ...state, draft: { ...draft, ...patch } });
  const enterApplies = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || !hydrated) return;
    event.preventDefault();
    onChange(applyQuestionIntent(template, state, { kind: 'apply' }));
  };
  const editing = draft.id ? list.find((q) => q.id === draft.id) : undefined;
  const type = editing ? editing.type : draft.type;
  const show = (t: string) => !hydrated || type === t;
  const sections = template.sections.filter(isEditableSection);
  const editorId = 'question-editor';
  // Without JavaScript each button posts to this page with an anchor, so the page comes back where the
  // owner was (the question moved or removed, or the editor), not at the top (issue 27 item 12).
  const location = useLocation();
  const backTo = (anchor: string) => `${location.pathname}${location.search}#${anchor}`;
  const at = (id: string) => backTo(questionAnchor(id));
  return (
    <Card>
      <h2 className="font-semibold">Questions</h2>
      <p className="mb-3 text-sm text-slate-600">
        Add your own questions, edit or remove the template&apos;s, and put them in order. The overall rating and the email are always asked: they decide the
        sharing step and the reward.
      </p>
      <input type="hidden" name="customQuestions" value={JSON.stringify(list)} />
      <FieldError id={errorId} errors={saveErrors} />
      <div aria-live="polite" className="text-sm">
        {state.notice ? <p className="mb-2 font-medium text-emerald-800">{state.notice}</p> : null}
      </div>
      <div className="space-y-5">
        {sections.map((section) => {
          const shown = list.filter((q) => q.section === section.id && !q.removed);
          const removed = list.filter((q) => q.section === section.id && q.removed);
          return (
            <section key={section.id} aria-labelledby={`questions-${section.id}`}>
              <h3 id={`questions-${section.id}`} className="text-sm font-semibold text-slate-700">
                {section.title}
              </h3>
              <ol className="mt-2 space-y-2" data-testid={`questions-${section.id}`}>
                {shown.map((q, i) => {
                  const locked = LOCKED_QUESTION_IDS.includes(q.id);
                  return (
                    <li key={q.id} id={questionAnchor(q.id)} data-question-id={q.id} className="scroll-mt-4 rounded-lg border border-slate-200 p-3">
                      <div className="flex flex-wrap items-baseline gap-2">
                        <span className="min-w-0 flex-1 break-words font-medium">{q.text}</span>
                        <span className="text-xs text-slate-600">{TYPE_LABELS[q.type] ?? q.type}</span>
                        <span className="rounded bg-brand-50 px-1.5 text-xs font-semibold text-brand-700">+{q.points}</span>
                        {q.required ? <span className="rounded bg-red-50 px-1.5 text-xs font-semibold text-red-800">Required</span> : null}
                        {q.origin === 'owner' ? <span className="rounded bg-slate-100 px-1.5 text-xs text-slate-700">Your question</span> : null}
                      </div>
                      <div className="mt-2 flex flex-wrap gap-2">
                        <button type="submit" name="intent" value={questionIntent('up', q.id)} formAction={at(q.id)} formNoValidate disabled={i === 0} onClick={run({ kind: 'up', id: q.id })} className={smallButton}>
                          ↑<span className="sr-only"> Move up: {q.text}</span>
                        </button>
                        <button
                          type="submit"
                          name="intent"
                          value={questionIntent('down', q.id)}
                          formAction={at(q.id)}
                          formNoValidate
                          disabled={i === shown.length - 1}
                          onClick={run({ kind: 'down', id: q.id })}
                          className={smallButton}
                        >
                          ↓<span className="sr-only"> Move down: {q.text}</span>
                        </button>
                        {locked ? (
                          <span className="self-center text-xs text-slate-600">Always asked</span>
                        ) : (
                          <>
                            <button type="submit" name="intent" value={questionIntent('edit', q.id)} formAction={backTo(editorId)} formNoValidate onClick={run({ kind: 'edit', id: q.id })} className={smallButton}>
                              Edit<span className="sr-only"> question: {q.text}</span>
                            </button>
                            <button type="submit" name="intent" value={questionIntent('remove', q.id)} formAction={at(q.id)} formNoValidate onClick={run({ kind: 'remove', id: q.id })} className={smallButton}>
                              Remove<span className="sr-only"> question: {q.text}</span>
                            </button>
                          </>
                        )}
                      </div>
                    </li>
                  );
                })}
              </ol>
              {removed.length ? (
                <ul className="mt-2 space-y-1" aria-label={`Removed from ${section.title}`}>
                  {removed.map((q) => (
                    <li key={q.id} id={questionAnchor(q.id)} className="flex scroll-mt-4 flex-wrap items-center gap-2 text-sm text-slate-600">
                      <span className="min-w-0 flex-1 break-words line-through">{q.text}</span>
                      <button type="submit" name="intent" value={questionIntent('restore', q.id)} formAction={at(q.id)} formNoValidate onClick={run({ kind: 'restore', id: q.id })} className={smallButton}>
                        Restore<span className="sr-only"> question: {q.text}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
            </section>
          );
        })}
      </div>

      <fieldset id={editorId} className="mt-6 scroll-mt-4 rounded-lg border border-slate-300 p-4">
        <legend className="px-1 font-semibold">{editing ? `Edit question: ${editing.text}` : 'Add a question'}</legend>
        <input type="hidden" name={name('id')} value={draft.id} />
        {state.errors.length ? (
          <ul role="alert" className="mb-3 list-disc space-y-1 pl-5 text-sm font-medium text-red-700">
            {state.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          {editing ? (
            <input type="hidden" name={name('section')} value={draft.section} />
          ) : (
            <div>
              <label htmlFor="question-section" className="mb-1 block text-sm font-medium">
                Section
              </label>
              <select id="question-section" name={name('section')} value={draft.section} onChange={(e) => setDraft({ section: e.target.value })} className={inputClass}>
                {sections.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          {editing ? (
            <input type="hidden" name={name('type')} value={draft.type} />
          ) : (
            <div>
              <label htmlFor="question-type" className="mb-1 block text-sm font-medium">
                Type
              </label>
              <select id="question-type" name={name('type')} value={draft.type} onChange={(e) => setDraft({ type: e.target.value })} className={inputClass}>
                {OWNER_QUESTION_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {OWNER_QUESTION_TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="sm:col-span-2">
            <label htmlFor="question-text" className="mb-1 block text-sm font-medium">
              Question text
            </label>
            <input
              id="question-text"
              name={name('text')}
              value={draft.text}
              maxLength={QUESTION_LIMITS.maxTextLength}
              onChange={(e) => setDraft({ text: e.target.value })}
              onKeyDown={enterApplies}
              className={inputClass}
            />
          </div>
          <div className="sm:col-span-2">
            <label htmlFor="question-description" className="mb-1 block text-sm font-medium">
              Description (optional)
            </label>
            <input
              id="question-description"
              name={name('description')}
              value={draft.description}
              maxLength={QUESTION_LIMITS.maxDescriptionLength}
              onChange={(e) => setDraft({ description: e.target.value })}
              onKeyDown={enterApplies}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="question-points" className="mb-1 block text-sm font-medium">
              Points ({QUESTION_LIMITS.minPoints} to {QUESTION_LIMITS.maxPoints})
            </label>
            <input
              id="question-points"
              name={name('points')}
              type="number"
              inputMode="numeric"
              min={QUESTION_LIMITS.minPoints}
              max={QUESTION_LIMITS.maxPoints}
              step={1}
              value={draft.points}
              onChange={(e) => setDraft({ points: e.target.value })}
              onKeyDown={enterApplies}
              className={inputClass}
            />
          </div>
          <label className="flex min-h-11 items-center gap-2 self-end font-medium">
            <input type="checkbox" name={name('required')} checked={draft.required} onChange={(e) => setDraft({ required: e.target.checked })} className="size-5" />
            Required
          </label>
          {show('multiple_choice') ? (
            <div className="sm:col-span-2">
              <label htmlFor="question-options" className="mb-1 block text-sm font-medium">
                Options, one per line ({QUESTION_LIMITS.minOptions} to {QUESTION_LIMITS.maxOptions}){hydrated ? '' : ' — multiple choice only'}
              </label>
              <textarea id="question-options" name={name('options')} rows={4} value={draft.options} onChange={(e) => setDraft({ options: e.target.value })} className={`${inputClass} py-2`} />
            </div>
          ) : null}
          {show('scale') ? (
            <div>
              <label htmlFor="question-scale" className="mb-1 block text-sm font-medium">
                Scale points ({QUESTION_LIMITS.minScale} to {QUESTION_LIMITS.maxScale}){hydrated ? '' : ' — rating scale only'}
              </label>
              <input
                id="question-scale"
                name={name('scale_max')}
                type="number"
                inputMode="numeric"
                min={QUESTION_LIMITS.minScale}
                max={QUESTION_LIMITS.maxScale}
                value={draft.scale_max}
                onChange={(e) => setDraft({ scale_max: e.target.value })}
                onKeyDown={enterApplies}
                className={inputClass}
              />
            </div>
          ) : null}
          {show('short_text') ? (
            <div>
              <label htmlFor="question-min-chars" className="mb-1 block text-sm font-medium">
                Minimum length for points (optional){hydrated ? '' : ' — short text only'}
              </label>
              <input
                id="question-min-chars"
                name={name('min_chars')}
                type="number"
                inputMode="numeric"
                min={0}
                max={QUESTION_LIMITS.maxMinChars}
                value={draft.min_chars}
                onChange={(e) => setDraft({ min_chars: e.target.value })}
                onKeyDown={enterApplies}
                className={inputClass}
              />
            </div>
          ) : null}
        </div>
        <div className="mt-4 flex flex-wrap gap-3">
          <button type="submit" name="intent" value={questionIntent('apply')} formAction={backTo(editorId)} formNoValidate onClick={run({ kind: 'apply' })} className={buttonClass.secondary}>
            {editing ? 'Save question' : 'Add question'}
          </button>
          {editing ? (
            <button type="submit" name="intent" value={questionIntent('cancel')} formAction={backTo(editorId)} formNoValidate onClick={run({ kind: 'cancel' })} className={buttonClass.secondary}>
              Cancel editing
            </button>
          ) : null}
        </div>
      </fieldset>
    </Card>
  );
}

/** The id of a question's row in the editor (and its anchor after a no-JavaScript post). */
export const questionAnchor = (id: string) => `q-${id.replace(/[^A-Za-z0-9_-]/g, '')}`;
