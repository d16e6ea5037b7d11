import { Form, Link } from '@remix-run/react';
import { TRIAL_USED_NOTICE } from '../../modules/billing/index.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import type { HomeStatusKey } from '../../modules/surveys/index.ts';
import type { DashboardData } from '../utils/dashboard.server.ts';
import { buttonClass, Card } from './ui.tsx';
import { UsageMeter } from './usage.tsx';

const count = new Intl.NumberFormat('en-US');
// One formatter, made once: toLocaleDateString builds a new one per call (seen in a CPU profile under load).
const weekStartFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'short', day: 'numeric', timeZone: 'UTC' });
const weekStart = (iso: string) => weekStartFormat.format(new Date(iso));
const plural = (n: number, one: string, many = `${one}s`) => `${count.format(n)} ${n === 1 ? one : many}`;

/** The status pill's colours: live is the only green; what needs the owner is amber. */
const statusStyle: Record<HomeStatusKey, string> = {
  live: 'bg-emerald-100 text-emerald-800',
  not_live: 'bg-amber-100 text-amber-900',
  draft: 'bg-slate-200 text-slate-700',
  paused: 'bg-slate-200 text-slate-700',
  archived: 'bg-slate-100 text-slate-600',
};

const smallLink = 'inline-flex min-h-11 shrink-0 items-center gap-1 rounded-lg px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50';

/** One step of Getting Started; `current`: the first one not done (the page's first step). */
function Step({ n, title, done, current = false }: { n: number; title: string; done: boolean; current?: boolean }) {
  const mark = done ? 'bg-emerald-600 text-white' : current ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700';
  return (
    <li className="flex items-center gap-3" aria-current={current ? 'step' : undefined}>
      <span aria-hidden className={`grid size-7 shrink-0 place-items-center rounded-full text-xs font-bold ${mark}`}>
        {done ? '✓' : n}
      </span>
      <span className={done ? 'text-slate-500' : 'font-medium'}>
        {title} {done ? <span className="sr-only">(done)</span> : null}
      </span>
    </li>
  );
}

/** A brand-new owner: one clear first step, and what follows it. */
function FirstStep({ trialAvailable }: { trialAvailable: boolean }) {
  return (
    <section aria-labelledby="first-step" className="rounded-card border border-brand-100 bg-white p-6 shadow-sm sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Your first step</p>
      <h2 id="first-step" className="mt-1 text-2xl font-bold">
        Build your first survey
      </h2>
      <p className="mt-2 max-w-xl text-slate-700">
        Choose the Bronze, Silver and Gold gift cards, add your Google review link and your Instagram handle. It takes about five minutes, and you
        can preview it before any customer sees it.
      </p>
      <Link to="/survey-builder" className={`${buttonClass.primary} mt-5 px-6`}>
        Build your first survey
      </Link>
      <p className="mt-4 text-sm text-slate-600">
        Then {trialAvailable ? 'start the free trial' : 'choose a plan'}, publish, and put the QR code on your counter.
      </p>
    </section>
  );
}

function Tile({ label, value, note, id }: { label: string; value: string; note: string; id: string }) {
  return (
    <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-3xl font-bold" data-testid={id}>
        {value}
      </dd>
      <dd className="text-sm text-slate-600">{note}</dd>
    </div>
  );
}

function WeekFigures({ d }: { d: DashboardData }) {
  const held = d.heldRewards;
  const live = d.surveys.filter((s) => s.status.key === 'live').length;
  return (
    <section aria-labelledby="week-heading">
      <h2 id="week-heading" className="text-lg font-semibold">
        This week <span className="text-sm font-normal text-slate-600">since {weekStart(d.week.from)}</span>
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Tile label="Responses" value={count.format(d.week.responses)} note={`from ${plural(live, 'live survey')}`} id="week-responses" />
        <Tile label="Rewards issued" value={count.format(d.week.rewardsIssued)} note="gift cards sent" id="week-rewards" />
        <Tile label="Value issued" value={formatCents(d.week.rewardValue)} note="in gift cards" id="week-value" />
        <div className={`rounded-card border p-4 shadow-sm ${held > 0 ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'}`}>
          <dt className={`text-sm ${held > 0 ? 'text-amber-900' : 'text-slate-600'}`}>Held for review</dt>
          <dd className={`mt-1 text-3xl font-bold ${held > 0 ? 'text-amber-950' : ''}`} data-testid="held-rewards">
            {count.format(held)}
          </dd>
          <dd className="text-sm">
            {held > 0 ? (
              <Link to="/rewards#held-heading" className="font-semibold text-amber-950 underline underline-offset-2">
                Review on Gift Cards
              </Link>
            ) : (
              <span className="text-slate-600">None waiting</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function SurveyItem({ s }: { s: DashboardData['surveys'][number] }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-4" data-testid="home-survey">
      <div className="min-w-0 flex-1 basis-60">
        <p className="break-words font-semibold">{s.title}</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusStyle[s.status.key]}`} data-testid="home-status">
            {s.status.label}
          </span>
          <span className="text-slate-600">{s.status.detail}</span>
        </p>
      </div>
      {s.status.next ? (
        s.status.next.href.startsWith('/api/') ? (
          <a href={s.status.next.href} className={`${smallLink} -ml-3 sm:ml-0`}>
            {s.status.next.label} <span aria-hidden>→</span>
          </a>
        ) : (
          <Link to={s.status.next.href} className={`${smallLink} -ml-3 sm:ml-0`}>
            {s.status.next.label} <span aria-hidden>→</span>
          </Link>
        )
      ) : null}
    </li>
  );
}

function Surveys({ d }: { d: DashboardData }) {
  const current = d.surveys.filter((s) => s.status.key !== 'archived');
  const archived = d.surveys.filter((s) => s.status.key === 'archived');
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Your surveys</h2>
        <Link to="/survey-management" className={smallLink}>
          Manage Surveys
        </Link>
      </div>
      {current.length > 0 ? (
        <ul className="divide-y divide-slate-200">
          {current.map((s) => (
            <SurveyItem key={s.id} s={s} />
          ))}
        </ul>
      ) : (
        <p className="py-4 text-slate-600">Every survey is archived. Build a new one, or restore one in Surveys.</p>
      )}
      {archived.length > 0 ? (
        <details className="border-t border-slate-200 pt-2">
          <summary className="min-h-11 cursor-pointer content-center text-sm font-semibold text-slate-700">Archived ({archived.length})</summary>
          <ul className="divide-y divide-slate-200">
            {archived.map((s) => (
              <SurveyItem key={s.id} s={s} />
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  );
}

function Plan({ d }: { d: DashboardData }) {
  const noPlan = !d.billing.hasActiveSubscription && !d.billing.hasActiveTrial;
  // With a survey waiting for a plan, starting one is the owner's next step; before any survey it is not yet.
  const emphasis = d.surveyCount > 0 ? buttonClass.primary : buttonClass.secondary;
  if (noPlan && d.trialAvailable) {
    return (
      <section role="region" aria-label="14-Day Free Trial" className="rounded-card border border-brand-100 bg-brand-50 p-5">
        <h2 className="text-lg font-bold">14-Day Free Trial</h2>
        <p className="mt-1 text-sm text-slate-700">Publish surveys and reward customers free for up to 14 days. No charge until the trial ends.</p>
        <Link to="/subscription-plans" className={`${emphasis} mt-3`}>
          Start
        </Link>
      </section>
    );
  }
  if (noPlan) {
    return (
      <section role="region" aria-label="Choose a plan" className="rounded-card border border-brand-100 bg-brand-50 p-5">
        <h2 className="text-lg font-bold">Choose a plan to publish</h2>
        <p className="mt-1 text-sm text-slate-700">{TRIAL_USED_NOTICE}</p>
        <Link to="/subscription-plans" className={`${emphasis} mt-3`}>
          See plans
        </Link>
      </section>
    );
  }
  const days = d.billing.trialDaysRemaining;
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">{d.planName ? `${d.planName} plan` : 'Your plan'}</h2>
        <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${d.billing.hasActiveTrial ? 'bg-brand-100 text-brand-800' : 'bg-emerald-100 text-emerald-800'}`} data-testid="plan-status">
          {d.billing.hasActiveTrial ? `Free trial · ${plural(days, 'day')} left` : 'Active'}
        </span>
      </div>
      <div className="mt-3">{d.usage ? <UsageMeter usage={d.usage} link /> : null}</div>
    </Card>
  );
}

function Square({ d }: { d: DashboardData }) {
  return (
    <Card>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold">Square</h2>
        <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${d.pos.isConnected ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}`}>
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
          <a href="/api/square/auth" className={`${buttonClass.secondary} mt-3`}>
            Connect
          </a>
        </div>
      )}
    </Card>
  );
}

/**
 * The owner's home (spec section 2, Dashboard; issue 27 "a home, not a brochure"; ADR 083): what
 * needs the owner first, then this week and each survey with its next step; the plan, Square and
 * the setup steps beside them. A brand-new owner sees one first step.
 */
export function Dashboard({ d }: { d: DashboardData }) {
  const isNew = d.surveys.length === 0;
  const setupDone = d.pos.isConnected && d.surveyCount > 0 && d.published;
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold sm:text-3xl">Welcome, {d.displayName}</h1>
          <p className="text-slate-600">{isNew ? 'Let’s get your first survey in front of customers.' : 'Here is how your surveys are doing.'}</p>
        </div>
        {isNew ? null : (
          <Link to="/survey-builder" className={buttonClass.primary}>
            Build New Survey
          </Link>
        )}
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

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {isNew ? (
            <FirstStep trialAvailable={d.trialAvailable} />
          ) : (
            <>
              <WeekFigures d={d} />
              <Surveys d={d} />
            </>
          )}
        </div>
        <div className="space-y-6">
          <Plan d={d} />
          <Square d={d} />
          {setupDone ? null : (
            <Card>
              <h2 className="text-lg font-semibold">Getting Started</h2>
              <ol className="mt-3 space-y-3">
                <Step n={1} title="Create your account" done />
                <Step n={2} title="Create your first survey" done={d.surveyCount > 0} current={d.surveyCount === 0} />
                <Step n={3} title="Set up reward campaigns" done={d.published} current={d.surveyCount > 0 && !d.published} />
                <Step n={4} title="Connect your Square account" done={d.pos.isConnected} current={d.published && !d.pos.isConnected} />
              </ol>
            </Card>
          )}
          <p className="text-sm">
            <Link to="/rewards" className="font-medium text-brand-700 underline-offset-2 hover:underline">
              View Gift Cards
            </Link>
          </p>
        </div>
      </div>
    </main>
  );
}
