import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { resetPasswordSchema } from '../../../modules/accounts/forms.ts';
import { NewPasswordFields } from '#app/components/auth-forms.tsx';
import { buttonClass, Card, FieldError } from '#app/components/ui.tsx';
import { endSession } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Choose a new password — RewardLoop' }];

/**
 * The token is in the path: no Referer carries it to another site. (Not `no-referrer`: with it the
 * browser sends `Origin: null` on the form post, which the cross-site check refuses.)
 */
export const headers: HeadersFunction = () => ({ 'Referrer-Policy': 'same-origin' });

export const INVALID_RESET_LINK = 'This link has expired or was already used. Ask for a new one.';

// A GET never spends the token (mail scanners open links): it only says whether the form can be used.
export async function loader({ params, context }: LoaderFunctionArgs) {
  return { valid: await context.accounts.checkPasswordResetToken(params.token ?? '') };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await readForm(request.clone());
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), invalidLink: false }, 400);
  }
  const outcome = await context.accounts.resetPassword(params.token ?? '', submission.value.password);
  if (!outcome.ok && outcome.reason === 'invalid_token') {
    return data({ result: submission.reply({ hideFields: ['password', 'confirmPassword'] }), invalidLink: true }, 400);
  }
  if (!outcome.ok) {
    return data(
      { result: submission.reply({ fieldErrors: { password: [outcome.message] }, hideFields: ['password', 'confirmPassword'] }), invalidLink: false },
      400,
    );
  }
  // Every session of this owner ends (a stolen session dies with the old password); so does this browser's.
  await context.sessions.destroyForBusiness(outcome.business.id);
  await context.signInThrottle.succeed(`account:${outcome.business.email}`);
  const headers = await endSession(request, context);
  return redirectWithToast(
    context,
    '/auth',
    { title: 'Password changed', description: 'Sign in with your new password. You were signed out everywhere else.', type: 'success' },
    { headers },
  );
}

export default function ResetPassword() {
  const { valid } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'reset-password',
    lastResult: actionData?.result,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  if (!valid || actionData?.invalidLink) {
    return (
      <main className="mx-auto max-w-md px-4 py-12">
        <Card className="text-center">
          <h1 className="text-2xl font-bold">Link expired</h1>
          <p className="mt-2 text-slate-600">{INVALID_RESET_LINK}</p>
          <Link to="/forgot-password" className={`${buttonClass.primary} mt-6`}>
            Send a new link
          </Link>
        </Card>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card>
        <h1 className="text-2xl font-bold">Choose a new password</h1>
        <p className="mt-2 text-slate-600">At least 8 characters. After the change you are signed out everywhere, and sign in again with the new one.</p>
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-1">
          <FieldError id={form.errorId} errors={form.errors} />
          <NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} labels={['New password', 'Confirm new password']} />
          <button type="submit" className={`${buttonClass.primary} w-full`} disabled={navigation.state !== 'idle'}>
            {navigation.state !== 'idle' ? 'Saving…' : 'Save new password'}
          </button>
        </Form>
      </Card>
    </main>
  );
}
