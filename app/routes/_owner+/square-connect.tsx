import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { posStatus } from '../../../modules/pos/index.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';

export const meta: MetaFunction = () => [{ title: 'Connect Square — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const pos = posStatus(owner);
  return { isConnected: pos.isConnected, locationName: pos.locationName, demo: context.pos.connectorId === 'demo' };
}

const steps = [
  { label: 'Account Created', state: 'done' },
  { label: 'Connect Square', state: 'current' },
  { label: 'Dashboard', state: 'pending' },
] as const;

const benefits = [
  { title: 'Automatic customer reward distribution', text: 'Gift cards are created in your Square account and emailed the moment a survey is submitted.' },
  { title: 'Seamless survey-to-purchase tracking', text: 'Rewards are redeemed at your counter like any other Square gift card.' },
  { title: 'Real-time transaction insights', text: 'See which rewards come back as purchases.' },
];

/** Spec section 2, point-of-sale connection onboarding. Connecting or skipping leads to the dashboard. */
export default function SquareConnect() {
  const { isConnected, locationName, demo } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-2xl space-y-6 px-4 py-10">
      <nav aria-label="Setup progress">
        <ol className="flex items-center justify-between gap-2">
          {steps.map((s, i) => (
            <li key={s.label} className="flex flex-1 items-center gap-2" aria-current={s.state === 'current' ? 'step' : undefined}>
              <span
                aria-hidden
                className={`grid size-9 shrink-0 place-items-center rounded-full text-sm font-bold ${
                  s.state === 'done' ? 'bg-emerald-600 text-white' : s.state === 'current' ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700'
                }`}
              >
                {s.state === 'done' ? '✓' : i + 1}
              </span>
              <span className={`text-sm ${s.state === 'current' ? 'font-semibold text-slate-900' : 'text-slate-700'}`}>
                {s.label}
                <span className="sr-only">{s.state === 'done' ? ' (done)' : s.state === 'current' ? ' (current step)' : ' (next)'}</span>
              </span>
              {i < steps.length - 1 ? <span aria-hidden className="hidden h-px flex-1 bg-slate-300 sm:block" /> : null}
            </li>
          ))}
        </ol>
      </nav>

      <Card className="space-y-5">
        <div>
          <h1 className="text-2xl font-bold">Connect your Square account</h1>
          <p className="mt-1 text-slate-600">RewardLoop issues your customers' gift cards through Square.</p>
        </div>

        {isConnected ? (
          <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900">
            Square is already connected{locationName ? `: gift cards are issued from ${locationName}.` : '. Choose a location next.'}
          </p>
        ) : null}

        <ul className="space-y-3">
          {benefits.map((b) => (
            <li key={b.title} className="flex gap-3">
              <span aria-hidden className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-emerald-100 text-sm font-bold text-emerald-800">
                ✓
              </span>
              <div>
                <p className="font-semibold">{b.title}</p>
                <p className="text-sm text-slate-600">{b.text}</p>
              </div>
            </li>
          ))}
        </ul>

        <div className="flex flex-wrap items-center gap-3">
          {/* A full-page navigation: the browser leaves for Square's own sign-in page. */}
          <a href="/api/square/auth" className={buttonClass.primary}>
            {isConnected ? 'Reconnect with Square' : 'Connect with Square'}
          </a>
          {isConnected && !locationName ? (
            <Link to="/square-location-selection" className={buttonClass.secondary}>
              Choose a location
            </Link>
          ) : null}
        </div>

        <p className="flex gap-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
          <svg aria-hidden viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 fill-slate-600">
            <path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5Zm-3 8V6a3 3 0 1 1 6 0v3H7Z" />
          </svg>
          <span>
            Secure connection: you sign in on Square's own page and RewardLoop never sees your Square password. The access Square grants is
            stored encrypted, and you can disconnect at any time.
            {demo ? ' Demo mode: no real Square account is used.' : ''}
          </span>
        </p>
      </Card>

      <p className="text-center">
        <Link to="/dashboard" className="font-medium text-brand-700 underline-offset-2 hover:underline">
          Skip for now (you can connect later)
        </Link>
      </p>
    </main>
  );
}
