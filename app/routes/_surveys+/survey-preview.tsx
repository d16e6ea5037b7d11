import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { maxPoints, questionCounts } from '../../../modules/scoring/index.ts';
import { BUILDER_DRAFT_KEY, builderFormSchema } from '../../../modules/surveys/forms.ts';
import { businessReadiness, publishCheck, effectiveTemplate, surveyAvailability, type Availability } from '../../../modules/surveys/index.ts';
import { AvailabilityBadge, SurveyDetails, TierSummary } from '#app/components/survey-ui.tsx';
import { buttonClass, Card, noticeClass } from '#app/components/ui.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { shortSurveyUrl } from '../../../modules/sharing/index.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Preview survey — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  const surveyId = new URL(request.url).searchParams.get('surveyId');
  if (!surveyId) {
    // Logged out: the draft lives in the browser (shown by the component). Logged in: the latest survey.
    if (!owner) return { survey: null, availability: null, previewUrl: null, signInTo: null };
    const latest = await context.surveys.latest(owner.id);
    if (!latest) throw redirect('/survey-builder');
    throw redirect(`/survey-preview?surveyId=${latest.id}`);
  }
  // No login guard (spec sections 2 and 6): a visitor sees this browser's draft, and is offered to
  // sign in for a saved survey instead of being sent away.
  if (!owner) return { survey: null, availability: null, previewUrl: null, signInTo: `/auth?returnTo=${encodeURIComponent(`/survey-preview?surveyId=${surveyId}`)}` };
  const survey = await context.surveys.get(owner.id, surveyId);
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  const check = publishCheck(survey);
  // `handover=1` (the browser's draft is now saved) travels on, so the page still forgets that draft.
  const handover = new URL(request.url).searchParams.get('handover') === '1' ? '&handover=1' : '';
  if (!check.ok) throw await redirectWithToast(context, `/survey-builder?surveyId=${survey.id}${handover}`, { title: check.title, description: check.message, type: 'error' });
  const readiness = businessReadiness(owner);
  const availability: Availability = surveyAvailability({ isActive: survey.isActive, isPublished: survey.isPublished, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected });
  return { survey, availability, previewUrl: shortSurveyUrl(context.config.appUrl, survey.shortCode, { preview: true }), signInTo: null };
}

type PreviewSurvey = {
  id?: string;
  isPublished?: boolean;
  title: string;
  surveyTemplateId: string;
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  selectedReviewPlatforms: readonly string[];
  selectedSocialPlatforms: readonly string[];
  surveyFrequencyDays: number;
  redemptionWebsite: string | null;
};

export default function SurveyPreview() {
  const { survey, availability, previewUrl, signInTo } = useLoaderData<typeof loader>();
  const [draft, setDraft] = useState<PreviewSurvey | null>(null);
  const [draftState, setDraftState] = useState<'loading' | 'none' | 'ok'>(survey ? 'ok' : 'loading');
  useEffect(() => {
    if (survey) return;
    try {
      const raw = localStorage.getItem(BUILDER_DRAFT_KEY);
      const parsed = raw ? builderFormSchema.safeParse(toFormInput(JSON.parse(raw))) : null;
      if (parsed?.success) {
        setDraft(parsed.data);
        setDraftState('ok');
        return;
      }
    } catch {
      /* fall through */
    }
    setDraftState('none');
  }, [survey]);

  const shown: PreviewSurvey | null = survey ?? draft;
  if (!shown) {
    return (
      <main className="mx-auto max-w-xl px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">{draftState === 'loading' ? 'Loading your draft…' : 'No survey configuration found'}</h1>
        {draftState === 'none' && signInTo ? (
          <>
            <p className="mt-2 text-slate-600">This survey is saved in an account. Sign in to preview it, or build a new one.</p>
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              <Link to={signInTo} className={buttonClass.primary}>
                Sign In
              </Link>
              <Link to="/survey-builder" className={buttonClass.secondary}>
                Build a survey
              </Link>
            </div>
          </>
        ) : draftState === 'none' ? (
          <>
            <p className="mt-2 text-slate-600">Build a survey first, then preview it here.</p>
            <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
              Build a survey
            </Link>
          </>
        ) : null}
      </main>
    );
  }
  const template = effectiveTemplate(shown);
  const counts = questionCounts(template, shown);
  const guard = publishCheck(shown);
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <div className="flex items-center gap-2">
            <h1 className="text-2xl font-bold">{shown.title}</h1>
            <AvailabilityBadge availability={availability ?? 'Draft'} />
          </div>
          <p className="text-slate-600">Check your survey, then publish it to start collecting feedback.</p>
        </div>
      </div>
      <Card>
        <h2 className="mb-3 font-semibold">Reward tiers</h2>
        <TierSummary survey={shown} />
      </Card>
      <Card>
        <SurveyDetails survey={shown} lead={{ term: 'Questions', value: `${counts.total} questions · up to ${maxPoints(template, shown)} points` }} />
      </Card>
      {!guard.ok ? (
        <div role="alert" className={noticeClass.error}>
          <p className="font-semibold">{guard.title}</p>
          <p className="text-sm">{guard.message}</p>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {survey ? (
          <>
            <Link to={`/subscription-check?surveyId=${survey.id}`} className={buttonClass.primary}>
              Publish Survey
            </Link>
            {previewUrl ? (
              <a href={previewUrl} target="_blank" rel="noreferrer" className={buttonClass.secondary}>
                Preview
              </a>
            ) : null}
            <Link to={`/survey-builder?surveyId=${survey.id}`} className={buttonClass.secondary}>
              Edit
            </Link>
          </>
        ) : (
          <>
            {guard.ok ? (
              <>
                <Link to="/trial-signup" className={buttonClass.primary}>
                  Publish Survey
                </Link>
                <a href="/survey/preview?custom=true" target="_blank" rel="noreferrer" className={buttonClass.secondary}>
                  Preview
                </a>
              </>
            ) : null}
            <Link to="/survey-builder" className={buttonClass.secondary}>
              Edit
            </Link>
          </>
        )}
      </div>
      {!survey && guard.ok ? <p className="text-sm text-slate-600">Publishing needs an account and a plan: start your free trial and your survey is saved to it.</p> : null}
    </main>
  );
}

/** A stored draft (cents) back into the form's shape so the same schema validates it. */
function toFormInput(d: Record<string, unknown>) {
  const cents = (v: unknown) => (typeof v === 'number' ? String(Math.round(v / 100)) : undefined);
  return { ...d, customBronze: cents(d.bronzeRewardValue), customSilver: cents(d.silverRewardValue), customGold: cents(d.goldRewardValue), surveyFrequencyDays: String(d.surveyFrequencyDays ?? 90) };
}
