import type { ReactNode } from 'react';
import { charCount } from '../../modules/scoring/index.ts';
import { NEEDS_REVIEW_MESSAGE, type BlockState } from '../../modules/responses/index.ts';
import { answerKey, type Question } from '../../modules/surveys/index.ts';
import { FIELD, fileField } from './state.ts';
import { useI18n } from '../components/i18n.tsx';

export type AnswerValue = string | number | undefined;

/** How a question talks to the page: the current value, a change, a blur, an inline error. */
export type FieldApi = {
  value: (key: string) => AnswerValue;
  change: (key: string, value: string | number) => void;
  blur?: (key: string) => void;
  error: (key: string) => string | undefined;
  /** True once React runs: live counters and thumbnails need it. */
  hydrated: boolean;
};

const errorId = (key: string) => `${key}-error`;

export function Badges({ q }: { q: Question }) {
  const { t } = useI18n();
  return (
    <span className="ml-2 inline-flex flex-wrap gap-1 align-middle">
      {q.points > 0 ? (
        <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700">{t('+{{count}} pts', { count: q.points })}</span>
      ) : null}
      {q.required ? <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-800">{t('Required')}</span> : null}
    </span>
  );
}

export function InlineError({ id, message }: { id: string; message: string | undefined }) {
  const { t } = useI18n();
  if (!message) return null;
  return (
    <p id={errorId(id)} className="mt-2 text-sm font-medium text-red-700">
      {t(message)}
    </p>
  );
}

function QuestionShell({ q, children, fieldset = false, api }: { q: Question; children: ReactNode; fieldset?: boolean; api: FieldApi }) {
  const heading = (
    <>
      <span className="font-semibold text-slate-900">{q.text}</span>
      <Badges q={q} />
    </>
  );
  const body = (
    <>
      {q.description ? <p className="mt-1 text-sm text-slate-600">{q.description}</p> : null}
      <div className="mt-3">{children}</div>
      <InlineError id={q.id} message={api.error(q.id)} />
    </>
  );
  if (fieldset) {
    return (
      <fieldset className="rounded-card border border-slate-200 bg-white p-4" aria-describedby={api.error(q.id) ? errorId(q.id) : undefined}>
        <legend className="float-left mb-1 w-full">{heading}</legend>
        <div className="clear-both">{body}</div>
      </fieldset>
    );
  }
  return (
    <div className="rounded-card border border-slate-200 bg-white p-4">
      <label htmlFor={q.id}>{heading}</label>
      {body}
    </div>
  );
}

const choiceClass =
  'flex min-h-12 w-full cursor-pointer items-center justify-center rounded-lg border border-slate-300 bg-white px-3 text-center font-semibold text-slate-800 ' +
  'peer-checked:border-brand-600 peer-checked:bg-brand-600 peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 hover:border-brand-600';

function Choice({ name, value, checked, onChange, children, srLabel }: { name: string; value: string; checked: boolean; onChange: () => void; children: ReactNode; srLabel?: string }) {
  return (
    <label className="block">
      <input type="radio" name={name} value={value} checked={checked} onChange={onChange} className="peer sr-only" />
      <span className={choiceClass}>
        {children}
        {srLabel ? <span className="sr-only"> {srLabel}</span> : null}
      </span>
    </label>
  );
}

function ScaleQuestion({ q, api }: { q: Question; api: FieldApi }) {
  const max = q.scale_max ?? 5;
  const current = Number(api.value(q.id));
  const { t } = useI18n();
  return (
    <QuestionShell q={q} fieldset api={api}>
      <div className="grid gap-2" style={{ gridTemplateColumns: `repeat(${max > 6 ? Math.ceil(max / 2) : max}, minmax(0, 1fr))` }}>
        {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
          <Choice key={n} name={q.id} value={String(n)} checked={current === n} onChange={() => api.change(q.id, n)} srLabel={n === 1 ? t('(Poor)') : n === max ? t('(Excellent)') : undefined}>
            {n}
          </Choice>
        ))}
      </div>
      <div className="mt-1 flex justify-between text-xs font-medium text-slate-600" aria-hidden>
        <span>{t('Poor')}</span>
        <span>{t('Excellent')}</span>
      </div>
    </QuestionShell>
  );
}

function OptionsQuestion({ q, api, options }: { q: Question; api: FieldApi; options: Array<{ value: string; label: string }> }) {
  const current = String(api.value(q.id) ?? '');
  return (
    <QuestionShell q={q} fieldset api={api}>
      <div className={`grid gap-2 ${options.length === 2 ? 'grid-cols-2' : 'sm:grid-cols-2'}`}>
        {options.map((o) => (
          <Choice key={o.value} name={q.id} value={o.value} checked={current === o.value} onChange={() => api.change(q.id, o.value)}>
            {o.label}
          </Choice>
        ))}
      </div>
    </QuestionShell>
  );
}

export const inputClass =
  'block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 aria-[invalid=true]:border-red-700';

export function TextQuestion({ q, api, multiline, extra }: { q: Question; api: FieldApi; multiline: boolean; extra?: ReactNode }) {
  const value = String(api.value(q.id) ?? '');
  const error = api.error(q.id);
  const common = {
    id: q.id,
    name: q.id,
    value,
    maxLength: 2000,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [error ? errorId(q.id) : null, q.min_chars ? `${q.id}-count` : null].filter(Boolean).join(' ') || undefined,
    onBlur: () => api.blur?.(q.id),
    className: inputClass,
  };
  const count = charCount(value);
  const { t } = useI18n();
  return (
    <QuestionShell q={q} api={api}>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => api.change(q.id, e.target.value)} />
      ) : (
        <input
          {...common}
          type={q.type === 'email' ? 'email' : q.type === 'url' ? 'url' : 'text'}
          autoComplete={q.type === 'email' ? 'email' : undefined}
          inputMode={q.type === 'email' ? 'email' : q.type === 'url' ? 'url' : undefined}
          onChange={(e) => api.change(q.id, e.target.value)}
        />
      )}
      {q.min_chars ? (
        <p id={`${q.id}-count`} className={`mt-1 text-sm ${count >= q.min_chars ? 'text-emerald-700' : 'text-slate-600'}`}>
          {api.hydrated ? t('{{count}}/{{min}} characters', { count, min: q.min_chars }) : t('At least {{min}} characters', { min: q.min_chars })}
        </p>
      ) : null}
      {extra}
    </QuestionShell>
  );
}

/** One question of sections 1 and 2, or the improvement text of part 3. */
export function QuestionInput({ q, api, extra }: { q: Question; api: FieldApi; extra?: ReactNode }) {
  const { t } = useI18n();
  switch (q.type) {
    case 'scale':
      return <ScaleQuestion q={q} api={api} />;
    case 'yes_no':
      return (
        <OptionsQuestion
          q={q}
          api={api}
          options={[
            { value: 'yes', label: t('Yes') },
            { value: 'no', label: t('No') },
          ]}
        />
      );
    case 'multiple_choice':
      return <OptionsQuestion q={q} api={api} options={(q.options ?? []).map((o, i) => ({ value: o, label: q.option_labels?.[i] ?? t(o) }))} />;
    case 'short_text':
      return <TextQuestion q={q} api={api} multiline />;
    default:
      return <TextQuestion q={q} api={api} multiline={false} extra={extra} />;
  }
}

export type UploadApi = {
  /** The browser's chosen file for a screenshot key (object URL for the thumbnail). */
  preview: (screenshotKey: string) => string | undefined;
  choose: (screenshotKey: string, file: File | null) => void;
};

/**
 * 'Remove screenshot': a real submit button (without JavaScript the page's action clears the
 * screenshot named in `_remove`); with JavaScript it clears the chosen file in the browser.
 */
function RemoveScreenshot({ fieldKey, api, uploads, label }: { fieldKey: string; api: FieldApi; uploads: UploadApi; label: string }) {
  const { t } = useI18n();
  return (
    <button
      type="submit"
      name={FIELD.remove}
      value={fieldKey}
      formNoValidate
      onClick={(e) => {
        if (!api.hydrated) return;
        e.preventDefault();
        const input = document.getElementById(fileField(fieldKey));
        if (input instanceof HTMLInputElement) input.value = '';
        uploads.choose(fieldKey, null);
        input?.focus();
      }}
      className="mt-2 inline-flex min-h-11 items-center rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      {t('Remove screenshot')}
      <span className="sr-only"> {t('for {{label}}', { label })}</span>
    </button>
  );
}

/** The verification line under a block: verifying / verified / failed with the reason (spec 4). */
export function VerificationStatus({ id, state }: { id: string; state: BlockState | undefined }) {
  const status = state?.status ?? 'idle';
  const { t } = useI18n();
  return (
    <div id={id} aria-live="polite" className="mt-3 min-h-6 text-sm">
      {status === 'verifying' ? (
        <p className="flex items-center gap-2 font-medium text-slate-700">
          <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent motion-reduce:animate-none" />
          {t('Verifying your screenshot… this can take up to 90 seconds.')}
        </p>
      ) : status === 'verified' && state?.checking ? (
        <p className="font-semibold text-amber-800">✓ {t(NEEDS_REVIEW_MESSAGE)}</p>
      ) : status === 'verified' ? (
        <p className="font-semibold text-emerald-700">✓ {t('Screenshot verified')}</p>
      ) : status === 'failed' ? (
        <>
          <p className="font-medium text-red-700">{t(state?.error ?? 'Please upload a different screenshot.')}</p>
          <p className="mt-1 text-slate-700">{t('Choose another screenshot to try again, or remove this one.')}</p>
        </>
      ) : null}
    </div>
  );
}

/** A part-3 block: its link, its text fields and the screenshot (a real file input, so it works without JavaScript). */
export function BlockFields({
  q,
  api,
  uploads,
  state,
  link,
  linkLabel,
  missingLink,
}: {
  q: Question;
  api: FieldApi;
  uploads: UploadApi;
  state: BlockState | undefined;
  link: string | null;
  linkLabel: string;
  missingLink: string;
}) {
  const statusId = `${q.id}-status`;
  const { t } = useI18n();
  return (
    <fieldset className="rounded-card border border-slate-200 bg-white p-4" aria-describedby={api.error(q.id) ? `${statusId} ${errorId(q.id)}` : statusId}>
      <legend className="float-left w-full">
        <span className="font-semibold text-slate-900">{q.text}</span>
        <Badges q={q} />
      </legend>
      <div className="clear-both space-y-3 pt-1">
        {q.description ? <p className="text-sm text-slate-600">{q.description}</p> : null}
        {link ? (
          <a href={link} target="_blank" rel="noopener noreferrer" className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-2">
            {linkLabel} <ExternalMark />
          </a>
        ) : (
          <p className="text-sm text-slate-600">{missingLink}</p>
        )}
        {(q.fields ?? []).map((f) => {
          const key = answerKey(q.id, f.id);
          const error = api.error(key);
          if (f.type === 'image_upload') {
            const thumb = uploads.preview(key);
            const verifiedId = api.value(key);
            // A refused screenshot's reason is the block's status line below: said once, and the input points at it.
            const inStatus = error !== undefined && state?.status === 'failed' && state.error === error;
            const describedBy = inStatus ? statusId : error ? errorId(key) : undefined;
            return (
              <div key={key}>
                <label htmlFor={fileField(key)} className="mb-1 block text-sm font-medium text-slate-800">
                  {f.text}
                </label>
                {verifiedId !== undefined ? <input type="hidden" name={key} value={String(verifiedId)} /> : null}
                <input
                  id={fileField(key)}
                  name={fileField(key)}
                  type="file"
                  accept="image/png,image/jpeg,image/webp"
                  aria-describedby={describedBy}
                  aria-invalid={error ? true : undefined}
                  onChange={(e) => uploads.choose(key, e.target.files?.[0] ?? null)}
                  className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700"
                />
                {thumb ? <img src={thumb} alt={t('Your screenshot')} className="mt-2 max-h-40 rounded-lg border border-slate-200" /> : null}
                {!api.hydrated && verifiedId !== undefined ? (
                  <p className="mt-1 text-sm text-slate-600">{t('Your screenshot is saved. Choose another file only to replace it.')}</p>
                ) : null}
                {thumb || verifiedId !== undefined || state?.status === 'failed' ? (
                  <RemoveScreenshot fieldKey={key} api={api} uploads={uploads} label={q.text} />
                ) : null}
                {inStatus ? null : <InlineError id={key} message={error} />}
              </div>
            );
          }
          return (
            <div key={key}>
              <label htmlFor={key} className="mb-1 block text-sm font-medium text-slate-800">
                {f.text}
              </label>
              <input
                id={key}
                name={key}
                type={f.type === 'url' ? 'url' : 'text'}
                inputMode={f.type === 'url' ? 'url' : undefined}
                value={String(api.value(key) ?? '')}
                maxLength={2000}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errorId(key) : undefined}
                onChange={(e) => api.change(key, e.target.value)}
                onBlur={() => api.blur?.(key)}
                className={inputClass}
              />
              <InlineError id={key} message={error} />
            </div>
          );
        })}
        <VerificationStatus id={statusId} state={state} />
        <InlineError id={q.id} message={api.error(q.id)} />
      </div>
    </fieldset>
  );
}

/** "Opens elsewhere", drawn (the '↗' character rendered as an emoji box on some phones, issue 27 item 14). */
function ExternalMark() {
  return (
    <svg aria-hidden viewBox="0 0 16 16" className="inline size-3.5 align-[-2px]" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M6 3h7v7M13 3L4 12" />
    </svg>
  );
}
