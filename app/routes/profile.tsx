import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { subscriptionState } from '../../modules/billing/index.ts';
import { posStatus } from '../../modules/pos/index.ts';
import { buttonClass, Card } from '../components/ui.tsx';
import { requireOwner } from '../utils/auth.server.ts';

export const meta: MetaFunction = () => [{ title: 'Profile — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  return {
    displayName: owner.displayName,
    email: owner.email,
    isEmailVerified: owner.isEmailVerified,
    plan: subscriptionState(owner).status,
    pos: posStatus(owner),
  };
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
      <Form method="post" action="/logout">
        <button type="submit" className={buttonClass.danger}>
          Sign Out
        </button>
      </Form>
    </main>
  );
}
