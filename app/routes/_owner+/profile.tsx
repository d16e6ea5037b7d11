import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { subscriptionState } from '../../../modules/billing/index.ts';
import { posStatus } from '../../../modules/pos/index.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Profile — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  return {
    displayName: owner.displayName,
    email: owner.email,
    isEmailVerified: owner.isEmailVerified,
    plan: subscriptionState(owner).status,
    pos: posStatus(owner),
    shareLabels: owner.shareLabels,
  };
}

/**
 * "Share labelled screenshots to improve verification" (ADR 080), off by default: a form post that
 * works without JavaScript. `shareLabels` is 'on' or 'off'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  if (form.get('intent') !== 'share-labels') return data({ message: 'Unknown request.' }, 400);
  const value = form.get('shareLabels');
  if (value !== 'on' && value !== 'off') return data({ message: 'Choose whether to share labelled screenshots (on or off).' }, 400);
  await context.accounts.setShareLabels(owner.id, value === 'on');
  return redirectWithToast(context, '/profile', {
    title: value === 'on' ? 'Sharing labelled screenshots' : 'Not sharing labelled screenshots',
    description: value === 'on' ? 'Screenshots you mark as genuine or not may be used to measure and improve the screenshot checker.' : 'No screenshot of yours will be exported to improve the checker.',
    type: 'success',
  });
}

const planLabel: Record<string, string> = {
  active: 'Active subscription',
  trialing: 'Free trial',
  trial_expired: 'Trial ended',
  canceled: 'Canceled',
  none: 'No subscription',
};

export default function Profile() {
  const p = useLoaderData<typeof loader>();
  const actionData = useActionData<{ message?: string }>();
  return (
    <main className="mx-auto max-w-xl space-y-6 px-4 py-8">
      <h1 className="text-2xl font-bold">Profile</h1>
      <Card>
        <dl className="divide-y divide-slate-100">
          <div className="py-3">
            <dt className="text-sm text-slate-500">Business name</dt>
            <dd className="font-medium">{p.displayName}</dd>
          </div>
          <div className="py-3">
            <dt className="text-sm text-slate-500">Email</dt>
            <dd className="font-medium">
              {p.email}{' '}
              <span className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${p.isEmailVerified ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900'}`}>
                {p.isEmailVerified ? 'Verified' : 'Not verified'}
              </span>
            </dd>
          </div>
          <div className="py-3">
            <dt className="text-sm text-slate-500">Subscription</dt>
            <dd className="flex items-center justify-between gap-3 font-medium">
              {planLabel[p.plan] ?? p.plan}
              <Link to="/subscription-details" className="text-sm font-medium text-brand-700 hover:underline">
                Subscription details
              </Link>
            </dd>
          </div>
          <div className="py-3">
            <dt className="text-sm text-slate-500">Square</dt>
            <dd className="flex flex-wrap items-center justify-between gap-3 font-medium">
              <span>
                {p.pos.isConnected ? 'Connected' : 'Not Connected'}
                {p.pos.isConnected ? (
                  <span className="block text-sm font-normal text-slate-600">{p.pos.locationName ? `Location: ${p.pos.locationName}` : 'No location chosen yet'}</span>
                ) : null}
              </span>
              {p.pos.isConnected ? (
                <form method="post" action="/api/square/disconnect">
                  <input type="hidden" name="returnTo" value="/profile" />
                  <button type="submit" className={buttonClass.secondary}>
                    Disconnect Square
                  </button>
                </form>
              ) : (
                <a href="/api/square/auth" className="text-sm font-medium text-brand-700 hover:underline">
                  Connect Square
                </a>
              )}
            </dd>
          </div>
          <div className="py-3">
            <dt className="text-sm text-slate-500">Brand</dt>
            <dd className="flex items-center justify-between gap-3 font-medium">
              Logo and colour on your surveys, emails and flyers
              <Link to="/brand" className="shrink-0 text-sm font-medium text-brand-700 hover:underline">
                Your brand
              </Link>
            </dd>
          </div>
        </dl>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">Share labelled screenshots to improve verification</h2>
        <p className="mt-1 text-sm text-slate-700">
          When you release or reject a held reward, or mark a proof as genuine or not, your verdict is saved beside the screenshot checker&apos;s. If
          you turn this on, RewardLoop may copy those screenshots, with what the customer typed and your verdict, to measure and improve the
          checker. They are not shared with anyone else. Off unless you turn it on; turning it off stops future copies.
        </p>
        {actionData?.message ? (
          <p role="alert" className="mt-2 text-sm text-red-800">
            {actionData.message}
          </p>
        ) : null}
        <Form method="post" className="mt-3 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="share-labels" />
          <span className="font-medium" data-testid="share-labels-state">
            {p.shareLabels ? 'On: labelled screenshots are shared' : 'Off: nothing is shared'}
          </span>
          <button type="submit" name="shareLabels" value={p.shareLabels ? 'off' : 'on'} className={buttonClass.secondary}>
            {p.shareLabels ? 'Turn off' : 'Turn on'}
          </button>
        </Form>
      </Card>
      <Form method="post" action="/logout">
        <button type="submit" className={buttonClass.danger}>
          Sign Out
        </button>
      </Form>
    </main>
  );
}
