import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { VerifyResult } from '#app/components/verify-result.tsx';
import { readForm } from '#app/utils/input.server.ts';
import { getOwner } from '#app/utils/auth.server.ts';

export const meta: MetaFunction = () => [{ title: 'Confirm your email — RewardLoop' }];

// A GET never changes state (mail scanners prefetch links): it only checks the token; one click POSTs it.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const valid = await context.accounts.checkVerificationToken(params.token ?? '');
  // A used link opened by its owner, signed in and confirmed: say so, not "failed" (issue 27 item 14).
  const owner = valid ? null : await getOwner(request, context);
  return { valid, already: Boolean(owner?.isEmailVerified) };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await readForm(request);
  const ok = await context.accounts.verifyEmail(params.token ?? '');
  const owner = ok ? null : await getOwner(request, context);
  return data({ ok, already: Boolean(owner?.isEmailVerified) }, ok ? 200 : 400);
}

export default function VerifyEmailToken() {
  const { valid, already } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (result) return <VerifyResult ok={result.ok} already={result.already} />;
  if (!valid) return <VerifyResult ok={false} already={already} />;
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        <h1 className="text-2xl font-bold">Confirm your email address</h1>
        <p className="mt-2 text-slate-600">One click and your RewardLoop account email is confirmed.</p>
        <Form method="post" className="mt-6">
          <button type="submit" className={buttonClass.primary}>
            Confirm email address
          </button>
        </Form>
      </Card>
    </main>
  );
}
