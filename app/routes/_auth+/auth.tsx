import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { AuthorizationError } from 'remix-auth';
import { AUTH_RATE_RULES, tooManyAttemptsMessage } from '../../../modules/accounts/index.ts';
import { newAccountSchema, BAD_CREDENTIALS_MESSAGE } from '../../../modules/accounts/server.ts';
import { signInSchema } from '../../../modules/accounts/forms.ts';
import { AuthScreen, type AuthMode } from '#app/components/auth-forms.tsx';
import { getAuthenticator, getOwner, signInGate, signInOutcome, startSession } from '#app/utils/auth.server.ts';
import { safeReturnTo } from '#app/utils/return-to.ts';
import { afterSignIn, handOverDraft, UNSAVED_DRAFT_PATH, unsavedDraftToast } from '#app/utils/draft.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { signUpOwner } from '#app/utils/sign-up.server.ts';
import { readForm } from '#app/utils/input.server.ts';

// The title follows the form shown (issue 27 item 14): the sign-up page is not called "Sign in".
export const meta: MetaFunction<typeof loader> = ({ data, location }) => [
  { title: `${(data?.mode ?? new URLSearchParams(location.search).get('mode')) === 'signup' ? 'Create your account' : 'Sign in'} — RewardLoop` },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const returnTo = safeReturnTo(url.searchParams.get('returnTo'));
  if (await getOwner(request, context)) throw redirect(returnTo ?? '/');
  return {
    mode: (url.searchParams.get('mode') === 'signup' ? 'signup' : 'signin') as AuthMode,
    returnTo,
    googleEnabled: Boolean(context.config.googleClientId),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request.clone());
  const returnTo = safeReturnTo(formData.get('returnTo'));
  const draft = formData.get('surveyBuilderConfig');
  const ip = context.clientIp;
  const fail = (mode: AuthMode, result: SubmissionResult<string[]>, init: number | ResponseInit, toastTitle?: string) =>
    data(
      {
        mode,
        returnTo,
        result,
        toast: toastTitle ? { title: toastTitle, description: result.error?.['']?.[0] ?? Object.values(result.error ?? {})[0]?.[0], type: 'error' as const } : undefined,
      },
      init,
    );

  if (formData.get('intent') === 'signup') {
    const submission = parseWithZod(formData, { schema: newAccountSchema });
    if (submission.status !== 'success') {
      return fail('signup', submission.reply({ hideFields: ['password', 'confirmPassword'] }), 400);
    }
    const signedUp = await signUpOwner(request, context, { account: submission.value, remember: submission.value.remember, draft });
    if (!signedUp.ok) {
      const limited = signedUp.status === 429;
      return fail(
        'signup',
        submission.reply({ ...(limited ? { formErrors: [signedUp.message] } : { fieldErrors: signedUp.errors }), hideFields: ['password', 'confirmPassword'] }),
        limited ? { status: 429, headers: { 'Retry-After': String(signedUp.retryAfterSeconds) } } : 409,
        'Sign up failed',
      );
    }
    const { headers, draft: handed } = signedUp;
    if (handed.problem) return redirectWithToast(context, UNSAVED_DRAFT_PATH, unsavedDraftToast(handed.problem), { headers });
    return redirectWithToast(
      context,
      afterSignIn(returnTo, handed.surveyId),
      { title: 'Account created!', description: 'Your business account has been created successfully.', type: 'success' },
      { headers },
    );
  }

  const submission = parseWithZod(formData, { schema: signInSchema });
  if (submission.status !== 'success') {
    return fail('signin', submission.reply({ hideFields: ['password'] }), 400);
  }
  const limited = await context.rateLimiter.hit([[`signin:ip:${ip}`, AUTH_RATE_RULES.signInPerIp]]);
  // Per account, with growing delays; a browser with this account's device cookie has its own count (ADR 021).
  const gate = await signInGate(request, context, submission.value.email);
  const wait = limited.allowed ? gate.wait : limited.retryAfterSeconds;
  if (wait > 0) {
    return fail(
      'signin',
      submission.reply({ formErrors: [tooManyAttemptsMessage(wait)], hideFields: ['password'] }),
      { status: 429, headers: { 'Retry-After': String(wait) } },
      'Sign in failed',
    );
  }
  try {
    const business = await getAuthenticator(context).authenticate('form', request, { context, throwOnError: true });
    const headers = await startSession(request, context, business, { remember: submission.value.remember });
    await signInOutcome(context, gate, submission.value.email, true, headers);
    const handed = await handOverDraft(context, business.id, draft);
    if (handed.problem) return redirectWithToast(context, UNSAVED_DRAFT_PATH, unsavedDraftToast(handed.problem), { headers });
    return redirectWithToast(
      context,
      afterSignIn(returnTo, handed.surveyId),
      { title: 'Welcome back!', description: 'You have successfully signed in.', type: 'success' },
      { headers },
    );
  } catch (error) {
    if (!(error instanceof AuthorizationError)) throw error;
    await signInOutcome(context, gate, submission.value.email, false);
    return fail('signin', submission.reply({ formErrors: [BAD_CREDENTIALS_MESSAGE], hideFields: ['password'] }), 401, 'Sign in failed');
  }
}

export default function AuthRoute() {
  const { mode, returnTo: requestedReturnTo, googleEnabled } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const returnTo = actionData ? actionData.returnTo : requestedReturnTo;
  const shownMode = actionData?.mode ?? mode;
  return (
    <AuthScreen
      key={shownMode}
      mode={shownMode}
      returnTo={returnTo}
      lastResult={actionData && actionData.mode === shownMode ? actionData.result : null}
      googleEnabled={googleEnabled}
    />
  );
}
