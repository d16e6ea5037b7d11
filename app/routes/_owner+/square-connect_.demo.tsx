import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Authorize RewardLoop — Demo Square' }, { name: 'robots', content: 'noindex' }];

/**
 * /square-connect/demo: the demo point of sale's consent page (POS=demo only; 404 otherwise),
 * standing in for Square's. Allow hands back a one-time code, Deny an error, both with the state
 * unchanged and always to our own callback.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOwner(request, context);
  if (context.pos.connectorId !== 'demo') throw new Response('Not Found', { status: 404 });
  return { state: new URL(request.url).searchParams.get('state') ?? '' };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireOwner(request, context);
  if (context.pos.connectorId !== 'demo') throw new Response('Not Found', { status: 404 });
  const form = await readForm(request);
  const state = String(form.get('state') ?? '');
  const code = form.get('intent') === 'allow' ? await context.pos.issueDemoCode() : null;
  const query: Record<string, string> = code ? { code, state } : { error: 'access_denied', state };
  return redirect(`/api/square/callback?${new URLSearchParams(query)}`);
}

export default function DemoSquareConsent() {
  const { state } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-md px-4 py-10">
      <Card className="space-y-5">
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">Demo mode: this page stands in for Square. No real Square account is used.</p>
        <div>
          <h1 className="text-2xl font-bold">Authorize RewardLoop</h1>
          <p className="mt-1 text-slate-600">
            <span className="font-semibold text-slate-900">RewardLoop</span> would like access to your Square account{' '}
            <span className="font-semibold text-slate-900">Demo Coffee Co.</span>
          </p>
        </div>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-600">It will be able to</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
            <li>Read your business profile and locations</li>
            <li>Create gift cards and load them with a balance</li>
            <li>Read your gift cards and their activity</li>
          </ul>
        </div>
        {/* A document post: the answer is a redirect to the callback, a resource route. */}
        <Form method="post" reloadDocument className="flex flex-wrap gap-3">
          <input type="hidden" name="state" value={state} />
          <button type="submit" name="intent" value="allow" className={buttonClass.primary}>
            Allow
          </button>
          <button type="submit" name="intent" value="deny" className={buttonClass.secondary}>
            Deny
          </button>
        </Form>
      </Card>
    </main>
  );
}
