import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData } from '@remix-run/react';
import { buttonClass, Card } from '../components/ui.tsx';
import { readForm } from '../utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Confirm your email — RewardLoop' }];

// A GET changes nothing (mail scanners open links): the page asks for one click, which POSTs (ADR 050).
export const loader = () => null;

/** POST /reward-confirm/{token}: the customer confirms their email; the gift card follows by email. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  await readForm(request);
  const result = await context.rewards.confirmCustomerEmail(params.token ?? '');
  if (!result.ok) return data({ ok: false as const, message: 'This link is not valid. Check that you opened the whole link from the email.' }, 400);
  return data({ ok: true as const, message: result.status === 'released' ? 'Thank you! Your gift card is on its way by email.' : 'Thank you! Your reward is being checked and will arrive by email.' });
}

export default function RewardConfirm() {
  const result = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Card className="text-center">
        {result ? (
          <>
            <h1 className="text-2xl font-bold">{result.ok ? 'Email confirmed' : 'Link not valid'}</h1>
            <p role={result.ok ? 'status' : 'alert'} className="mt-2 text-slate-700">
              {result.message}
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold">Confirm your email</h1>
            <p className="mt-2 text-slate-600">One click confirms this is your email address, and your gift card follows by email.</p>
            <Form method="post" className="mt-6">
              <button type="submit" className={buttonClass.primary}>
                Confirm my email
              </button>
            </Form>
          </>
        )}
      </Card>
    </main>
  );
}
