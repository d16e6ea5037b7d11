import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react';
import { Toast, type ToastData } from '#app/components/toast.tsx';
import { formatCents } from '../../../modules/scoring/index.ts';
import { AvailabilityBadge, CopyUrl, TierSummary } from '#app/components/survey-ui.tsx';
import { buttonClass, Card, noticeClass } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { businessReadiness, surveyAvailability } from '../../../modules/surveys/index.ts';
import { surveyCard } from '#app/utils/survey-pages.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { isUuid } from '../../../modules/shared/index.ts';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Manage surveys — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const readiness = businessReadiness(owner);
  const [active, archivedRows] = await Promise.all([context.surveys.list(owner.id), context.surveys.list(owner.id, { archived: 'only' })]);
  const surveys = active.map((s) => surveyCard(s, readiness, context));
  const archived = archivedRows.map((s) => ({ id: s.id, title: s.title, createdAt: s.createdAt }));
  const now = new Date();
  const thisMonth = surveys.filter((s) => {
    const d = new Date(s.createdAt);
    return d.getUTCFullYear() === now.getUTCFullYear() && d.getUTCMonth() === now.getUTCMonth();
  }).length;
  // The confirm step of Archive (issue 27 item 13): ?confirm=archive&surveyId=…, one of this owner's surveys on the list.
  const query = new URL(request.url).searchParams;
  const toArchive = query.get('confirm') === 'archive' ? surveys.find((s) => s.id === query.get('surveyId')) : undefined;
  return {
    surveys,
    archived,
    confirmArchive: toArchive ? { id: toArchive.id, title: toArchive.title, availability: toArchive.availability } : null,
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

const NOT_FOUND = "Survey not found or you don't have access to it.";

/**
 * The survey switch, Archive, Restore and Duplicate: form POSTs (they work without JavaScript); the
 * switch is sent by a fetcher with it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  const intent = form.get('intent');
  const surveyId = String(form.get('surveyId') ?? '');
  // Archive is asked first (issue 27 item 13): a post that did not come from the confirm step goes to it.
  if (intent === 'archive' && form.get('confirmed') !== 'yes') {
    if (!isUuid(surveyId)) throw new Response(NOT_FOUND, { status: 404 });
    throw redirect(`/survey-management?confirm=archive&surveyId=${surveyId}`);
  }
  if (intent === 'archive' || intent === 'restore') {
    const survey = intent === 'archive' ? await context.surveys.archive(owner.id, surveyId) : await context.surveys.restore(owner.id, surveyId);
    if (!survey) throw new Response(NOT_FOUND, { status: 404 });
    return redirectWithToast(
      context,
      '/survey-management',
      intent === 'archive'
        ? { title: 'Survey Archived', description: `${survey.title} is off the list and its link no longer opens. Its responses and gift cards stay.`, type: 'success' }
        : { title: 'Survey Restored', description: `${survey.title} is back, switched off: switch it on when you are ready.`, type: 'success' },
    );
  }
  if (intent === 'duplicate') {
    const copy = await context.surveys.duplicate(owner.id, surveyId);
    if (!copy) throw new Response(NOT_FOUND, { status: 404 });
    return redirectWithToast(context, `/survey-builder?surveyId=${copy.id}`, { title: 'Survey Duplicated', description: `Edit ${copy.title}, then publish it.`, type: 'success' });
  }
  const isActive = form.get('isActive');
  if (intent !== 'toggle' || (isActive !== 'true' && isActive !== 'false')) {
    return data({ ok: false, message: 'Unknown request.' }, 400);
  }
  const survey = await context.surveys.setActive(owner.id, surveyId, isActive === 'true');
  if (!survey) throw new Response(NOT_FOUND, { status: 404 });
  // Spec section 8: 'Survey Updated'. Shown by the row's fetcher with JavaScript, by the page without.
  const toast: ToastData = { title: 'Survey Updated', description: `${survey.title} is now ${survey.isActive ? 'active' : 'inactive'}.`, type: 'success' };
  return { ok: true, message: survey.isActive ? 'Survey switched on' : 'Survey switched off', toast };
}

export default function SurveyManagement() {
  const { surveys, archived, totals, warning, readiness, confirmArchive } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
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
        <div role="alert" className={noticeClass.error}>
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
      {archived.length > 0 ? (
        <details className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
          <summary className="min-h-11 cursor-pointer content-center font-semibold">Archived surveys ({archived.length})</summary>
          <p className="mt-1 text-sm text-slate-600">Customers cannot open these. Their responses and gift cards stay in Analytics and Gift Cards.</p>
          <ul className="mt-3 divide-y divide-slate-100">
            {archived.map((a) => (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 truncate font-medium">{a.title}</span>
                <span className="flex flex-wrap gap-2">
                  <Link to={`/survey-analytics/${a.id}`} className={buttonClass.secondary}>
                    Analytics
                  </Link>
                  <Form method="post">
                    <input type="hidden" name="surveyId" value={a.id} />
                    <button type="submit" name="intent" value="restore" className={buttonClass.secondary} aria-label={`Restore ${a.title}`}>
                      Restore
                    </button>
                  </Form>
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {confirmArchive ? (
        <ConfirmDialog
          id="archive"
          title={`Archive ${confirmArchive.title}?`}
          cancelTo="/survey-management"
          fields={{ surveyId: confirmArchive.id }}
          intent="archive"
          confirmLabel="Yes, Archive"
          busyLabel="Archiving…"
          danger
        >
          <p>
            It leaves your list and {confirmArchive.availability === 'Available' ? 'customers can no longer open it: its link, QR code and printed flyers stop working' : 'customers cannot open it'}.
          </p>
          <p>Its responses and gift cards stay in Analytics and Gift Cards. You can restore it later from Archived surveys, switched off.</p>
        </ConfirmDialog>
      ) : null}
      <Toast toast={actionData && 'toast' in actionData ? actionData.toast : null} />
    </main>
  );
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>['surveys'][number];

function SurveyRow({ survey, readiness }: { survey: Row; readiness: { hasPlan: boolean; posConnected: boolean } }) {
  const fetcher = useFetcher<typeof action>();
  // Optimistic: the switch shows the submitted state while the request runs.
  const pending = fetcher.formData?.get('isActive');
  const active = pending ? pending === 'true' : survey.isActive;
  const availability = surveyAvailability({ isActive: active, isPublished: survey.isPublished, ...readiness });
  return (
    <Card>
      <Toast toast={fetcher.data && 'toast' in fetcher.data ? fetcher.data.toast : null} />
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate text-lg font-semibold">{survey.title}</h2>
            <AvailabilityBadge availability={availability} />
          </div>
          {availability === 'Draft' ? (
            <p className="mt-1 text-sm text-slate-600">
              Not published yet: customers cannot open it.{' '}
              <Link to={`/subscription-check?surveyId=${survey.id}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                Publish it
              </Link>
            </p>
          ) : availability === 'Unavailable' ? (
            <ul className="mt-1 space-y-0.5 text-sm text-red-800">
              {survey.unavailableFixes.map((f) => (
                <li key={f.href}>
                  {f.reason}{' '}
                  <a href={f.href} className="font-medium text-red-900 underline underline-offset-2">
                    {f.label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {survey.locationNotice && availability === 'Available' ? (
            <p className="mt-1 text-sm text-amber-900">
              {survey.locationNotice.reason}{' '}
              <Link to={survey.locationNotice.href} className="font-medium underline underline-offset-2">
                {survey.locationNotice.label}
              </Link>
            </p>
          ) : null}
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
        <Form method="post" className="contents">
          <input type="hidden" name="surveyId" value={survey.id} />
          <button type="submit" name="intent" value="duplicate" className={buttonClass.secondary} aria-label={`Duplicate ${survey.title}`}>
            Duplicate
          </button>
        </Form>
        {/* Archive opens its confirm step (a link, so it works without JavaScript). */}
        <Link to={`/survey-management?confirm=archive&surveyId=${survey.id}`} preventScrollReset className={buttonClass.secondary} aria-label={`Archive ${survey.title}`}>
          Archive
        </Link>
      </div>
    </Card>
  );
}
