import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { AUTH_RATE_RULES, tooManyAttemptsMessage } from '../../../modules/accounts/index.ts';
import { forgotPasswordSchema } from '../../../modules/accounts/forms.ts';
import { buttonClass, Card, FieldError, TextField, TextLink } from '#app/components/ui.tsx';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Forgot password — RewardLoop' }];

/** The same words whether or not an account has this email (nothing tells a stranger who is a customer of ours). */
export const RESET_SENT_MESSAGE = 'If an account uses this email, we have sent it a link to choose a new password. The link expires in 1 hour.';

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== 'success') return data({ result: submission.reply(), sentTo: null }, 400);
  const email = submission.value.email;
  const limited = await context.rateLimiter.hit([
    [`reset:ip:${context.clientIp}`, AUTH_RATE_RULES.passwordResetPerIp],
    [`reset:email:${email}`, AUTH_RATE_RULES.passwordResetPerEmail],
  ]);
  if (!limited.allowed) {
    return data(
      { result: submission.reply({ formErrors: [tooManyAttemptsMessage(limited.retryAfterSeconds)] }), sentTo: null },
      { status: 429, headers: { 'Retry-After': String(limited.retryAfterSeconds) } },
    );
  }
  const reset = await context.accounts.requestPasswordReset(email);
  // Sent after the answer, so an existing account does not answer slower than an unknown address.
  void reset.send();
  return data({ result: submission.reply({ resetForm: true }), sentTo: email });
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'forgot-password',
    lastResult: actionData?.result,
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card>
        <h1 className="text-2xl font-bold">Forgot your password?</h1>
        {actionData?.sentTo ? (
          <div role="status" className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900">
            <p className="font-semibold">Check your email</p>
            <p className="mt-1 text-sm">{RESET_SENT_MESSAGE}</p>
            <p className="mt-1 text-sm">Sent to {actionData.sentTo}. Nothing there? Look in spam, or send it again below.</p>
          </div>
        ) : (
          <p className="mt-2 text-slate-600">Enter the email address of your RewardLoop account and we will email you a link to choose a new password.</p>
        )}
        <Form method="post" {...getFormProps(form)} className="mt-6 space-y-1">
          <FieldError id={form.errorId} errors={form.errors} />
          <TextField
            label="Email address"
            errors={fields.email.errors}
            errorId={fields.email.errorId}
            autoComplete="email"
            {...getInputProps(fields.email, { type: 'email' })}
          />
          <button type="submit" className={`${buttonClass.primary} w-full`} disabled={navigation.state !== 'idle'}>
            {navigation.state !== 'idle' ? 'Sending…' : actionData?.sentTo ? 'Send the link again' : 'Email me a reset link'}
          </button>
        </Form>
        <p className="mt-6 text-center text-sm">
          <TextLink to="/auth">Back to Sign In</TextLink>
        </p>
      </Card>
    </main>
  );
}
