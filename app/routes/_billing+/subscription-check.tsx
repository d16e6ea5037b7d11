import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useNavigation, useRouteError } from '@remix-run/react';
import { publishStatus, type SubscriptionStatus } from '../../../modules/billing/index.ts';
import { publishSurvey } from '../../../modules/surveys/server.ts';
import { businessReadiness, unavailableFixes } from '../../../modules/surveys/index.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { getOwner, requireOwner } from '#app/utils/auth.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Ready to publish? — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // No login guard in the route table: a visitor is asked to sign up, and comes back here.
  const owner = await getOwner(request, context);
  if (!owner) throw redirect(`/auth?mode=signup&returnTo=${encodeURIComponent(url.pathname + url.search)}`);
  const surveyId = url.searchParams.get('surveyId');
  const survey = surveyId ? await context.surveys.get(owner.id, surveyId) : await context.surveys.latest(owner.id);
  return { survey: survey ? { id: survey.id, title: survey.title, isPublished: survey.isPublished } : null, status: publishStatus(owner) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  const surveyId = String(form.get('surveyId') ?? '');
  const result = await publishSurvey(context.surveys, owner, surveyId);
  if (!result.ok) return data({ error: { title: result.title, message: result.message } }, result.status === 404 ? 404 : 400);
  // Published is not live: without Square (or a plan) customers cannot open it yet, so say what is missing (issue 27 item 7).
  const readiness = businessReadiness(owner);
  const missing = unavailableFixes({ isActive: result.survey.isActive, isPublished: true, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected });
  return redirectWithToast(
    context,
    `/survey-published/${result.survey.id}`,
    missing.length
      ? { title: 'Published, not live yet', description: `Customers can open it once you finish: ${missing.map((f) => f.reason).join(' ')}`, type: 'info' }
      : { title: 'Survey Published!', description: 'Share the link or QR code with your customers.', type: 'success' },
  );
}

const statusLabel: Record<SubscriptionStatus, string> = {
  active: 'Active subscription',
  trialing: 'Free trial',
  trial_expired: 'Trial expired',
  canceled: 'Canceled',
  none: 'No subscription',
};

export default function SubscriptionCheck() {
  const { survey, status } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  if (!survey) {
    return (
      <main className="mx-auto max-w-xl px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">No survey found. Please create a survey first.</h1>
        <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
          Build New Survey
        </Link>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-xl px-4 py-12">
      <Card className="space-y-4 text-center">
        <h1 className="text-2xl font-bold">Ready to Publish?</h1>
        <p className="text-slate-600">
          <span className="font-semibold text-slate-900">{survey.title}</span>
        </p>
        <p>
          <span
            data-testid="subscription-status"
            className={`rounded-full px-3 py-1 text-sm font-semibold ${status.action === 'publish' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-800'}`}
          >
            {statusLabel[status.subscriptionStatus]}
          </span>
        </p>
        <p className="text-slate-700">{status.message}</p>
        {failed?.error ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-left text-red-900">
            <p className="font-semibold">{failed.error.title}</p>
            <p className="text-sm">{failed.error.message}</p>
          </div>
        ) : null}
        <Form method="post" className="flex flex-col items-center gap-3">
          <input type="hidden" name="surveyId" value={survey.id} />
          {status.action === 'publish' ? (
            <button type="submit" name="intent" value="publish" className={`${buttonClass.primary} w-full sm:w-auto`} disabled={busy}>
              {busy ? 'Publishing…' : survey.isPublished ? 'Publish Changes' : 'Publish Survey'}
            </button>
          ) : (
            // A trial or a paid plan both start on the plans page (card first, then checkout).
            <Link to={`/subscription-plans?surveyId=${survey.id}`} className={`${buttonClass.primary} w-full sm:w-auto`}>
              {status.action === 'trial' ? 'Start Free Trial' : 'Choose a Plan'}
            </Link>
          )}
        </Form>
        <Link to={`/survey-preview?surveyId=${survey.id}`} className="inline-block font-medium text-brand-700 hover:underline">
          Back to Preview
        </Link>
      </Card>
    </main>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) && error.status === 400 ? (error.data as { error?: { message?: string } })?.error?.message : null;
  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center">
      <h1 className="text-2xl font-bold">Unable to Check Status</h1>
      <p className="mt-2 text-slate-600">{detail ?? "We couldn't verify your subscription status."}</p>
      <Link to="/" className={`${buttonClass.primary} mt-6`}>
        Return to Dashboard
      </Link>
    </main>
  );
}
