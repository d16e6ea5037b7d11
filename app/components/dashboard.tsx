import { Form, Link } from '@remix-run/react';
import { TRIAL_USED_NOTICE } from '../../modules/billing/index.ts';
import type { DashboardData } from '../utils/dashboard.server.ts';
import { buttonClass, Card } from './ui.tsx';
import { UsageMeter } from './usage.tsx';

function Step({ n, title, text, done }: { n: number; title: string; text: string; done: boolean }) {
  return (
    <li className="flex gap-3">
      <span
        aria-hidden
        className={`grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold ${
          done ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-700'
        }`}
      >
        {done ? '✓' : n}
      </span>
      <div>
        <p className="font-semibold">
          {title} {done ? <span className="sr-only">(done)</span> : null}
        </p>
        <p className="text-sm text-slate-600">{text}</p>
      </div>
    </li>
  );
}

/** The owner's home (spec section 2, Dashboard): calls to action first, then status, then the guide. */
export function Dashboard({ d }: { d: DashboardData }) {
  const noPlan = !d.billing.hasActiveSubscription && !d.billing.hasActiveTrial;
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-2xl font-bold sm:text-3xl">Welcome, {d.displayName}</h1>
        <p className="text-slate-600">Turn happy customers into reviews, followers and repeat visits.</p>
      </div>

      {!d.isEmailVerified ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-sky-200 bg-sky-50 p-4">
          <div>
            <p className="font-semibold text-sky-900">Confirm your email address</p>
            <p className="text-sm text-sky-900">We sent a link to {d.email}. Open it to confirm this address.</p>
          </div>
          <Form method="post" action="/email-verified">
            <button type="submit" className={buttonClass.secondary}>
              Send a new link
            </button>
          </Form>
        </div>
      ) : null}

      {d.pos.needsLocation ? (
        <div role="region" aria-label="Square Location Required" className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-orange-300 bg-orange-50 p-4">
          <div>
            <p className="font-semibold text-orange-900">Square Location Required</p>
            <p className="text-sm text-orange-900">Choose the Square location your gift cards are issued from.</p>
          </div>
          <Link to="/square-location-selection" className={buttonClass.primary}>
            Select Location
          </Link>
        </div>
      ) : null}

      {noPlan && !d.trialAvailable ? (
        <div role="region" aria-label="Choose a plan" className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-brand-100 bg-brand-50 p-5">
          <div>
            <p className="text-lg font-bold text-slate-900">Choose a plan to publish</p>
            <p className="text-sm text-slate-700">{TRIAL_USED_NOTICE}</p>
          </div>
          <Link to="/subscription-plans" className={buttonClass.primary}>
            See plans
          </Link>
        </div>
      ) : null}

      {noPlan && d.trialAvailable ? (
        <div role="region" aria-label="14-Day Free Trial" className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-gradient-to-r from-brand-700 to-brand-600 p-5 text-white">
          <div>
            <p className="text-lg font-bold">14-Day Free Trial</p>
            <p className="text-sm text-brand-50">Publish surveys and reward customers free for up to 14 days. No charge until the trial ends.</p>
          </div>
          <Link to="/subscription-plans" className="inline-flex min-h-11 items-center rounded-lg bg-white px-4 font-semibold text-brand-700 hover:bg-brand-50">
            Start
          </Link>
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <h2 className="text-lg font-semibold">Your surveys</h2>
          <p className="mt-1 text-slate-600">
            {d.surveyCount === 0
              ? 'You have no surveys yet. Build one in a few minutes: choose rewards, add your review links, publish.'
              : `You have ${d.surveyCount} survey${d.surveyCount === 1 ? '' : 's'}.`}
          </p>
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/survey-builder" className={buttonClass.primary}>
              Build New Survey
            </Link>
            <Link to="/survey-management" className={buttonClass.secondary}>
              Manage Surveys
            </Link>
            <Link to="/rewards" className={buttonClass.secondary}>
              View Gift Cards
            </Link>
          </div>
        </Card>

        <Card>
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-lg font-semibold">Square integration</h2>
            <span
              className={`rounded-full px-2.5 py-1 text-xs font-semibold ${
                d.pos.isConnected ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
              }`}
            >
              {d.pos.isConnected ? 'Connected' : 'Not Connected'}
            </span>
          </div>
          {d.pos.isConnected ? (
            <div className="mt-2 space-y-3">
              <p className="text-sm text-slate-600" data-testid="square-location">
                {d.pos.locationName ? `Gift cards are issued from ${d.pos.locationName}.` : 'Choose a location to issue gift cards from.'}
              </p>
              <div className="flex flex-wrap items-center gap-2">
                <Link to="/square-location-selection" className={buttonClass.secondary}>
                  {d.pos.locationName ? 'Change location' : 'Select Location'}
                </Link>
                {/* A document post: the endpoint answers with a redirect back here and a toast. */}
                <form method="post" action="/api/square/disconnect">
                  <input type="hidden" name="returnTo" value="/" />
                  <button type="submit" className="inline-flex min-h-11 items-center rounded-lg px-3 font-semibold text-red-700 hover:bg-red-50">
                    Disconnect
                  </button>
                </form>
              </div>
            </div>
          ) : (
            <div className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3">
              <p className="font-semibold text-amber-900">Square Integration Required</p>
              <p className="mt-1 text-sm text-amber-900">Connect Square so customers receive real gift cards by email.</p>
              <a href="/api/square/auth" className={`${buttonClass.primary} mt-3`}>
                Connect
              </a>
            </div>
          )}
        </Card>
      </div>

      {d.budget?.reached ? (
        <div role="region" aria-label="Rewards paused" className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-amber-300 bg-amber-50 p-4">
          <div>
            <p className="font-semibold text-amber-900">Rewards paused</p>
            <p className="text-sm text-amber-900">This month&apos;s reward budget is used up: new submissions earn no reward until next month.</p>
          </div>
          <Link to="/subscription-details" className={buttonClass.secondary}>
            Change Budget
          </Link>
        </div>
      ) : null}

      {d.usage ? (
        <Card>
          <h2 className="mb-3 text-lg font-semibold">Rewards this billing month</h2>
          <UsageMeter usage={d.usage} link />
        </Card>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-3">
        <Card>
          <p className="text-3xl font-bold text-brand-700">10+</p>
          <p className="mt-1 text-sm text-slate-700">new customers can come from one positive review.</p>
        </Card>
        <Card>
          <p className="text-3xl font-bold text-brand-700">300%</p>
          <p className="mt-1 text-sm text-slate-700">more reviews when customers are rewarded for sharing.</p>
        </Card>
        <Card>
          <p className="text-3xl font-bold text-brand-700">Automatic</p>
          <p className="mt-1 text-sm text-slate-700">gift cards by email the moment a survey is submitted.</p>
        </Card>
      </div>

      <Card>
        <h2 className="text-lg font-semibold">Getting Started</h2>
        <ol className="mt-4 grid gap-5 sm:grid-cols-2">
          <Step n={1} title="Create your account" text="Your business account is ready." done />
          <Step n={2} title="Connect your Square account" text="Gift cards are issued through your Square location." done={d.pos.isConnected} />
          <Step n={3} title="Create your first survey" text="Pick rewards, review platforms and social handles." done={d.surveyCount > 0} />
          <Step n={4} title="Set up reward campaigns" text="Publish a survey, then share its link, QR code and flyer with customers." done={d.published} />
        </ol>
      </Card>
    </main>
  );
}
