import { Link } from '@remix-run/react';
import { useEffect, useState, type ComponentProps, type ReactNode } from 'react';

export const buttonClass = {
  primary:
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60',
  secondary:
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60',
  danger:
    'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 disabled:opacity-60',
} as const;

/**
 * The boxes that tell the owner something (docs/design.md): an error (with role="alert"), a warning,
 * a success, and the empty state of a list or tab (what will appear there).
 */
export const noticeClass = {
  error: 'rounded-card border border-red-300 bg-red-50 p-4 text-red-900',
  warning: 'rounded-card border border-amber-300 bg-amber-50 p-4 text-amber-900',
  success: 'rounded-card border border-emerald-300 bg-emerald-50 p-4 text-emerald-900',
  empty: 'rounded-card border border-slate-200 bg-white p-6 text-slate-700',
} as const;

/** True once React has hydrated: controls that need JavaScript render only then. */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export function Card({ children, className = '' }: { children: ReactNode; className?: string }) {
  return <section className={`rounded-card border border-slate-200 bg-white p-5 shadow-sm ${className}`}>{children}</section>;
}

export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return (
    <div id={id} className="min-h-5 text-sm text-red-700" aria-live="polite">
      {errors?.length ? errors[0] : null}
    </div>
  );
}

type InputProps = ComponentProps<'input'> & { label: string; errors?: string[]; errorId: string };

export function TextField({ label, errors, errorId, id, className = '', ...props }: InputProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        {...props}
        className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
      />
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

/** A password input with a show/hide toggle (the toggle needs JavaScript and appears with it). */
export function PasswordField({ label, errors, errorId, id, className = '', ...props }: InputProps) {
  const [shown, setShown] = useState(false);
  const hydrated = useHydrated();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          {...props}
          type={shown ? 'text' : 'password'}
          className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 pr-16 text-base shadow-sm aria-[invalid=true]:border-red-600"
        />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setShown((v) => !v)}
            aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={shown}
            className="absolute inset-y-0 right-0 min-w-14 px-3 text-sm font-medium text-brand-700"
          >
            {shown ? 'Hide' : 'Show'}
          </button>
        ) : null}
      </div>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}

export function TextLink(props: ComponentProps<typeof Link>) {
  return <Link {...props} className={`font-medium text-brand-700 underline-offset-2 hover:underline ${props.className ?? ''}`} />;
}
