import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useFetcher, useLoaderData } from '@remix-run/react';
import { formatCents } from '../../modules/scoring/index.ts';
import { AvailabilityBadge, CopyUrl, TierSummary } from '../components/survey-ui.tsx';
import { buttonClass, Card } from '../components/ui.tsx';
import { requireOwner } from '../utils/auth.server.ts';
import { businessReadiness, surveyAvailability } from '../../modules/surveys/availability.ts';
import { surveyCard } from '../utils/survey-pages.server.ts';
import { readForm } from '../utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Manage surveys — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const readiness = businessReadiness(owner);
  const surveys = (await context.surveys.list(owner.id)).map((s) => surveyCard(s, readiness, context));
  const now = new Date();
  const thisMonth = surveys.filter((s) => {
    const d = new Date(s.createdAt);
    return d.getUTCFullYear() === now.getUTCFullYear() && d.getUTCMonth() === now.getUTCMonth();
  }).length;
  return {
    surveys,
    readiness: { hasPlan: readiness.hasPlan, posConnected: readiness.posConnected },
    totals: {
      total: surveys.length,
      available: surveys.filter((s) => s.availability === 'Available').length,
      avgGold: surveys.length ? Math.round(surveys.reduce((sum, s) => sum + s.goldRewardValue, 0) / surveys.length) : 0,
      thisMonth,
    },
    warning: surveys.some((s) => s.availability === 'Unavailable') ? [...new Set(surveys.flatMap((s) => s.unavailableReasons))] : null,
  };
}

/** The survey switch: form POST (works without JavaScript), sent by a fetcher with it. */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  const isActive = form.get('isActive');
  if (form.get('intent') !== 'toggle' || (isActive !== 'true' && isActive !== 'false')) {
    return data({ ok: false, message: 'Unknown request.' }, 400);
  }
  const survey = await context.surveys.setActive(owner.id, String(form.get('surveyId') ?? ''), isActive === 'true');
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  return { ok: true, message: survey.isActive ? 'Survey switched on' : 'Survey switched off' };
}

export default function SurveyManagement() {
  const { surveys, totals, warning, readiness } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Surveys</h1>
          <p className="text-slate-600">Switch surveys on or off, share them, and see how they are doing.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/rewards" className={buttonClass.secondary}>
            View Gift Cards
          </Link>
          <Link to="/survey-builder" className={buttonClass.primary}>
            Build New Survey
          </Link>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[
          ['Total Surveys', String(totals.total)],
          ['Available Surveys', String(totals.available)],
          ['Avg Gold Reward', formatCents(totals.avgGold)],
          ['This Month', String(totals.thisMonth)],
        ].map(([label, value]) => (
          <div key={label} className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-3xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>

      {warning ? (
        <div role="alert" className="rounded-card border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">Surveys Currently Unavailable</p>
          <p className="text-sm">An active survey cannot take responses yet. Customers who open it see that it is not available.</p>
          <ul className="mt-2 list-disc pl-5 text-sm">
            {warning.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap gap-2">
            {warning.some((w) => w.startsWith('Start a free trial')) ? (
              <Link to="/subscription-check" className={buttonClass.primary}>
                Start Free Trial
              </Link>
            ) : null}
            {warning.some((w) => w.startsWith('Connect Square')) ? (
              <a href="/api/square/auth" className={buttonClass.secondary}>
                Connect Square
              </a>
            ) : null}
          </div>
        </div>
      ) : null}

      {surveys.length === 0 ? (
        <Card className="py-12 text-center">
          <h2 className="text-xl font-semibold">No surveys yet</h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">Your surveys appear here, with their rewards, share links and QR codes.</p>
          <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
            Create Your First Survey
          </Link>
        </Card>
      ) : (
        <ul className="space-y-4">
          {surveys.map((s) => (
            <li key={s.id}>
              <SurveyRow survey={s} readiness={readiness} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>['surveys'][number];

function SurveyRow({ survey, readiness }: { survey: Row; readiness: { hasPlan: boolean; posConnected: boolean } }) {
  const fetcher = useFetcher<typeof action>();
  // Optimistic: the switch shows the submitted state while the request runs.
  const pending = fetcher.formData?.get('isActive');
  const active = pending ? pending === 'true' : survey.isActive;
  const availability = surveyAvailability({ isActive: active, ...readiness });
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate text-lg font-semibold">{survey.title}</h2>
            <AvailabilityBadge availability={availability} />
            {!survey.isPublished ? <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">Draft</span> : null}
          </div>
          <p className="text-sm text-slate-500">Created {new Date(survey.createdAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}</p>
        </div>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="toggle" />
          <input type="hidden" name="surveyId" value={survey.id} />
          <input type="hidden" name="isActive" value={String(!active)} />
          <button
            type="submit"
            role="switch"
            aria-checked={active}
            aria-label={`${survey.title} active`}
            className="flex min-h-11 items-center gap-3 rounded-lg px-2 font-medium"
          >
            <span className={`relative inline-flex h-7 w-12 shrink-0 rounded-full transition ${active ? 'bg-emerald-600' : 'bg-slate-300'}`}>
              <span className={`absolute top-1 size-5 rounded-full bg-white shadow transition ${active ? 'left-6' : 'left-1'}`} />
            </span>
            {active ? 'Active' : 'Inactive'}
          </button>
        </fetcher.Form>
      </div>
      <div className="mt-4">
        <TierSummary survey={survey} compact />
      </div>
      <div className="mt-4">
        <CopyUrl url={survey.publicUrl} />
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <a href={survey.previewUrl} target="_blank" rel="noreferrer" className={buttonClass.secondary}>
          Preview
        </a>
        <Link to={`/survey-builder?surveyId=${survey.id}`} className={buttonClass.secondary}>
          Edit
        </Link>
        <Link to={`/survey-analytics/${survey.id}`} className={buttonClass.secondary}>
          Analytics
        </Link>
        {survey.availability === 'Available' ? (
          <Link to={`/survey-published/${survey.id}#materials`} className={buttonClass.secondary}>
            QR &amp; Materials
          </Link>
        ) : null}
      </div>
    </Card>
  );
}
