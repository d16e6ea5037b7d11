import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { AUTH_RATE_RULES, tooManyAttemptsMessage } from '../../../modules/accounts/index.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Email verification — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  return { email: owner.email, isEmailVerified: owner.isEmailVerified };
}

/** Sends a fresh verification link to the signed-in owner. */
export async function action({ request, context }: ActionFunctionArgs) {
  await readForm(request);
  const owner = await requireOwner(request, context);
  if (owner.isEmailVerified) return redirectWithToast(context, '/', { title: 'Email already verified', type: 'info' });
  const limited = await context.rateLimiter.hit([[`verify-resend:${owner.id}`, AUTH_RATE_RULES.verificationResend]]);
  if (!limited.allowed) {
    return redirectWithToast(context, '/', { title: 'Please wait', description: tooManyAttemptsMessage(limited.retryAfterSeconds), type: 'error' });
  }
  await context.accounts.resendVerification(owner);
  return redirectWithToast(context, '/', { title: 'Verification email sent', description: `Check ${owner.email} for a new link.`, type: 'success' });
}

export default function EmailVerifiedStatus() {
  const { email, isEmailVerified } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        <h1 className="text-2xl font-bold">{isEmailVerified ? 'Email verified' : 'Email not verified yet'}</h1>
        <p className="mt-2 text-slate-600">
          {isEmailVerified ? `${email} is confirmed.` : `Open the link we sent to ${email}, or send a new one from the dashboard.`}
        </p>
        <Link to="/" className={`${buttonClass.primary} mt-6`}>
          Return to Dashboard
        </Link>
      </Card>
    </main>
  );
}
