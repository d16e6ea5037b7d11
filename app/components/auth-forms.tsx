import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useState, type ComponentProps } from 'react';
import { signInSchema, signUpSchema } from '../../modules/accounts/forms.ts';
import { BUILDER_DRAFT_KEY } from '../../modules/surveys/index.ts';
import { buttonClass, FieldError, PasswordField, TextField, TextLink } from './ui.tsx';

export type AuthMode = 'signin' | 'signup';

export const GOOGLE_UNAVAILABLE = 'Google Sign-In unavailable – Please try again or use email/password.';

type Props = {
  mode: AuthMode;
  returnTo: string | null;
  lastResult?: SubmissionResult<string[]> | null;
  googleEnabled: boolean;
};

/** The sign-in / sign-up card of spec section 2; posts to /auth from any page that shows it. */
export function AuthScreen({ mode, returnTo, lastResult, googleEnabled }: Props) {
  const keep = returnTo ? `&returnTo=${encodeURIComponent(returnTo)}` : '';
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <div className="mb-6 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-brand-700">RewardLoop</h1>
        <p className="mt-1 text-slate-600">Customer surveys and automated gift card rewards</p>
      </div>
      <div className="rounded-card border border-slate-200 bg-white p-6 shadow-sm">
        <div role="group" aria-label="Choose sign in or sign up" className="mb-6 grid grid-cols-2 gap-1 rounded-lg bg-slate-100 p-1">
          {(['signin', 'signup'] as const).map((m) => (
            <Link
              key={m}
              to={`/auth?mode=${m}${keep}`}
              replace
              aria-current={mode === m ? 'page' : undefined}
              className={`flex min-h-11 items-center justify-center rounded-md font-semibold ${
                mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900'
              }`}
            >
              {m === 'signin' ? 'Sign In' : 'Sign Up'}
            </Link>
          ))}
        </div>
        {mode === 'signin' ? (
          <SignInForm returnTo={returnTo} lastResult={lastResult} />
        ) : (
          <SignUpForm returnTo={returnTo} lastResult={lastResult} />
        )}
        {/* Google not configured on this server: no button at all (issue 27 item 14), not a disabled one with an error. */}
        {googleEnabled ? (
          <>
            <div className="my-6 flex items-center gap-3 text-sm text-slate-500">
              <span className="h-px flex-1 bg-slate-200" />
              Or continue with
              <span className="h-px flex-1 bg-slate-200" />
            </div>
            <Form method="post" action="/auth/google">
              {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
              <button type="submit" className={`${buttonClass.secondary} w-full`}>
                <GoogleMark /> Continue with Google
              </button>
            </Form>
          </>
        ) : null}
      </div>
    </main>
  );
}

function SignInForm({ returnTo, lastResult }: Pick<Props, 'returnTo' | 'lastResult'>) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'signin',
    lastResult,
    constraint: undefined,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'signin';
  return (
    <Form method="post" action="/auth" {...getFormProps(form)} className="space-y-1">
      <input type="hidden" name="intent" value="signin" />
      <DraftField />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <FieldError id={form.errorId} errors={form.errors} />
      <TextField
        label="Email address"
        errors={fields.email.errors}
        errorId={fields.email.errorId}
        autoComplete="email"
        {...getInputProps(fields.email, { type: 'email' })}
      />
      <PasswordField
        label="Password"
        errors={fields.password.errors}
        errorId={fields.password.errorId}
        autoComplete="current-password"
        {...getInputProps(fields.password, { type: 'password' })}
      />
      <div className="flex flex-wrap items-center justify-between gap-2 pb-4">
        <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="remember" className="size-5 rounded border-slate-300" /> Remember me
        </label>
        <TextLink to="/forgot-password" className="inline-flex min-h-11 items-center text-sm">
          Forgot password?
        </TextLink>
      </div>
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={busy}>
        {busy ? 'Signing in…' : 'Sign In'}
      </button>
    </Form>
  );
}

function SignUpForm({ returnTo, lastResult }: Pick<Props, 'returnTo' | 'lastResult'>) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'signup',
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'signup';
  return (
    <Form method="post" action="/auth" {...getFormProps(form)} className="space-y-1">
      <input type="hidden" name="intent" value="signup" />
      <DraftField />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <FieldError id={form.errorId} errors={form.errors} />
      <TextField
        label="Business Name"
        errors={fields.displayName.errors}
        errorId={fields.displayName.errorId}
        autoComplete="organization"
        {...getInputProps(fields.displayName, { type: 'text' })}
      />
      <TextField
        label="Email address"
        errors={fields.email.errors}
        errorId={fields.email.errorId}
        autoComplete="email"
        {...getInputProps(fields.email, { type: 'email' })}
      />
      <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} labels={['Password', 'Confirm Password']} />
      <TermsAgreement input={getInputProps(fields.terms, { type: 'checkbox' })} errorId={fields.terms.errorId} errors={fields.terms.errors} />
      <button type="submit" className={`${buttonClass.primary} w-full`} disabled={busy}>
        {busy ? 'Creating account…' : 'Create Account'}
      </button>
    </Form>
  );
}

/** Carries a survey built while logged out (kept in this browser) to the account being signed in. */
export function DraftField() {
  const [draft, setDraft] = useState('');
  useEffect(() => {
    setDraft(localStorage.getItem(BUILDER_DRAFT_KEY) ?? '');
  }, []);
  return draft ? <input type="hidden" name="surveyBuilderConfig" value={draft} /> : null;
}

function GoogleMark() {
  return (
    <svg aria-hidden width="18" height="18" viewBox="0 0 48 48">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9 3.6l6.7-6.7C35.6 2.4 30.2 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.8 6C12.4 13.6 17.7 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.1 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.4c-.5 2.9-2.2 5.3-4.6 6.9l7.3 5.7c4.3-3.9 7-9.8 7-17.1z" />
      <path fill="#FBBC05" d="M10.5 28.7c-.5-1.4-.8-3-.8-4.7s.3-3.2.8-4.7l-7.8-6C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.8-6z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.3-5.7c-2.1 1.4-4.9 2.3-8.6 2.3-6.3 0-11.6-4.1-13.5-9.8l-7.8 6C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}

/** A new password and its confirmation (sign-up, password reset): conform fields, browser password-manager hints. */
export function NewPasswordFields({
  password,
  confirmPassword,
  labels,
}: {
  password: FieldMetadata<string>;
  confirmPassword: FieldMetadata<string>;
  labels: readonly [string, string];
}) {
  return (
    <>
      <PasswordField label={labels[0]} errors={password.errors} errorId={password.errorId} autoComplete="new-password" {...getInputProps(password, { type: 'password' })} />
      <PasswordField label={labels[1]} errors={confirmPassword.errors} errorId={confirmPassword.errorId} autoComplete="new-password" {...getInputProps(confirmPassword, { type: 'password' })} />
    </>
  );
}

/** The terms and privacy checkbox of every sign-up form (spec section 2), with its error line. */
export function TermsAgreement({ input, errorId, errors }: { input: ComponentProps<'input'>; errorId: string; errors?: string[] }) {
  return (
    <div className="pb-4">
      <label className="flex min-h-11 items-start gap-2 text-sm text-slate-700">
        <input {...input} type="checkbox" className="mt-0.5 size-5 shrink-0 rounded border-slate-300" />
        <span>
          I agree to the{' '}
          <Link to="/terms" target="_blank" className="font-medium text-brand-700 underline">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" target="_blank" className="font-medium text-brand-700 underline">
            Privacy Policy
          </Link>
        </span>
      </label>
      <FieldError id={errorId} errors={errors} />
    </div>
  );
}
