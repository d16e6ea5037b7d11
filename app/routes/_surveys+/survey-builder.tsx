import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { BUILDER_DRAFT_KEY, builderFormSchema, readQuestionListText, toFormValues } from '../../../modules/surveys/forms.ts';
import { applyQuestionIntent, DEFAULT_TEMPLATE_ID, defaultPresetId, draftFromForm, getTemplate, parseQuestionIntent, questionList, type CustomQuestion, type EditorState, type SaveRefusal, type SurveyTemplate } from '../../../modules/surveys/index.ts';
import { Toast } from '#app/components/toast.tsx';
import { useHydrated } from '#app/components/ui.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { BuilderForm } from '#app/components/builder/form.tsx';

export const meta: MetaFunction = () => [{ title: 'Survey builder — RewardLoop' }];

/** The question list and editor fields of a builder post (a refused save or a question step without JavaScript keeps them). */
function postedEditor(formData: FormData): { template: SurveyTemplate; state: EditorState } {
  const template = getTemplate(String(formData.get('surveyTemplateId') ?? '')) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  // Read within the request limits; an unreadable list starts empty (the save's schema says why).
  const read = readQuestionListText(String(formData.get('customQuestions') ?? '[]'));
  const list = questionList({ surveyTemplateId: template.id, customQuestions: read.ok ? read.list : [] });
  return { template, state: { list, draft: draftFromForm((n) => formData.get(n), template), errors: [], notice: null } };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  const surveyId = new URL(request.url).searchParams.get('surveyId');
  if (surveyId) {
    if (!owner) throw redirect(`/auth?returnTo=${encodeURIComponent(`/survey-builder?surveyId=${surveyId}`)}`);
    const survey = await context.surveys.get(owner.id, surveyId);
    if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
    return { loggedIn: true, survey, visionAvailable: context.config.hostedVisionAvailable, restoreDraft: false };
  }
  // ?draft=1: open the browser's draft for a signed-in owner (a handed-over draft that could not be saved yet).
  const restoreDraft = new URL(request.url).searchParams.get('draft') === '1';
  return { loggedIn: Boolean(owner), survey: null, visionAvailable: context.config.hostedVisionAvailable, restoreDraft };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const questionStep = parseQuestionIntent(formData.get('intent'));
  const posted = postedEditor(formData);
  if (questionStep) {
    // A question step without JavaScript: the same reducer the page runs in the browser; the rest of
    // the form comes back as typed (a lenient parse: no save errors for a step).
    const next = applyQuestionIntent(posted.template, posted.state, questionStep);
    const kept = parseWithZod(formData, { schema: z.object({}).passthrough() });
    return data({ result: kept.reply(), toast: undefined, draftSaved: false, editor: next }, next.errors.length ? 400 : 200);
  }
  const submission = parseWithZod(formData, { schema: builderFormSchema });
  if (submission.status !== 'success') {
    return data(
      { result: submission.reply(), toast: { title: 'Save Failed', description: 'Please correct the highlighted fields.', type: 'error' as const }, draftSaved: false, editor: posted.state },
      400,
    );
  }
  const owner = await getOwner(request, context);
  if (!owner) {
    return data(
      { result: submission.reply({ formErrors: ['Sign up or sign in to save your survey.'] }), toast: undefined, draftSaved: false, editor: posted.state },
      401,
    );
  }
  // The one save (ADR 089): every rule (hosted vision, tier fairness) is checked inside it.
  const surveyId = new URL(request.url).searchParams.get('surveyId');
  const saved = surveyId ? await context.surveys.save(owner.id, submission.value, surveyId) : await context.surveys.save(owner.id, submission.value);
  if (saved.status === 'not_found') throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  if (saved.status === 'refused') {
    return data(
      { result: submission.reply(refusalReply(saved.refusal)), toast: { title: 'Save Failed', description: saved.refusal.message, type: 'error' as const }, draftSaved: false, editor: posted.state },
      400,
    );
  }
  if (!saved.created) {
    // Spec section 4: after saving an existing survey, its published page (a new one goes to the preview).
    return redirectWithToast(context, `/survey-published/${saved.survey.id}`, {
      title: 'Survey Updated',
      description: 'Your changes are saved.',
      type: 'success',
    });
  }
  // Saved from the browser's draft (?draft=1, a hand-over that needed a change): the page then forgets that draft.
  const fromDraft = new URL(request.url).searchParams.get('draft') === '1';
  return redirectWithToast(context, `/survey-preview?surveyId=${saved.survey.id}${fromDraft ? '&handover=1' : ''}`, { title: 'Survey Saved', description: 'Review it, then publish.', type: 'success' });
}

/** A refused save's problems on the builder's fields: hosted vision, the policy choice, the custom amounts, the tier points, the questions, the translations. */
function refusalReply(refusal: SaveRefusal) {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const formField = { hostedVision: 'hostedVision', reviewPolicy: 'reviewPolicy', bronzeRewardValue: 'customBronze', silverRewardValue: 'customSilver', goldRewardValue: 'customGold', tierThresholds: 'tierGold', customQuestions: 'customQuestions' } as const;
  for (const p of refusal.problems) {
    // A translation's problem names its own field (translations.es.title), as the builder's fields are named.
    const name = p.field === 'translations' ? p.path : formField[p.field];
    if (name) (fieldErrors[name] ??= []).push(p.message);
    else formErrors.push(p.message);
  }
  return { formErrors, fieldErrors };
}


export default function SurveyBuilder() {
  const { loggedIn, survey, visionAvailable, restoreDraft } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const hydrated = useHydrated();
  const template = getTemplate(survey?.surveyTemplateId ?? DEFAULT_TEMPLATE_ID)!;
  const defaultMode = defaultPresetId(template);
  // A logged-out visitor's draft lives in this browser until they sign up.
  const [draft, setDraft] = useState<(ReturnType<typeof toFormValues> & { customQuestions: CustomQuestion[] }) | null>(null);
  const [draftSaved, setDraftSaved] = useState(false);
  useEffect(() => {
    if (survey || (loggedIn && !restoreDraft)) return;
    try {
      const stored = localStorage.getItem(BUILDER_DRAFT_KEY);
      if (stored) {
        const parsed = JSON.parse(stored) as NonNullable<Parameters<typeof toFormValues>[0]> & { customQuestions?: unknown[] };
        setDraft({ ...toFormValues(parsed, defaultMode), customQuestions: questionList({ surveyTemplateId: template.id, customQuestions: parsed.customQuestions ?? [] }) });
      }
    } catch {
      /* an unreadable draft is ignored */
    }
  }, [loggedIn, survey, restoreDraft, defaultMode, template.id]);
  const defaults = draft ?? toFormValues(survey, defaultMode);
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 pb-28 lg:pb-8">
      <div className="mb-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{survey ? 'Edit survey' : 'Build a survey'}</h1>
        <p className="text-slate-600">Choose rewards, where customers can review you, and how often they can take part.</p>
      </div>
      {!loggedIn ? (
        <div className="mb-6 rounded-card border border-sky-200 bg-sky-50 p-4 text-sky-900">
          {draftSaved ? (
            <p>
              <strong>Your survey is saved in this browser.</strong> <Link to="/auth?mode=signup" className="font-semibold underline">Sign up</Link> or{' '}
              <Link to="/auth" className="font-semibold underline">sign in</Link> to save it to your account and publish it.
            </p>
          ) : (
            <p>
              You can build a survey now. To save and publish it, you will need to{' '}
              <Link to="/auth?mode=signup" className="font-semibold underline">sign up</Link>
              {hydrated ? ' — your work is kept in this browser meanwhile.' : '.'}
            </p>
          )}
        </div>
      ) : null}
      <BuilderForm
        key={draft ? 'draft' : 'server'}
        defaults={defaults}
        loggedIn={loggedIn}
        editing={Boolean(survey)}
        tierThresholds={survey?.tierThresholds ?? null}
        onDraftSaved={() => setDraftSaved(true)}
        lastResult={actionData?.result}
        lastEditor={actionData?.editor}
        visionAvailable={visionAvailable}
        initialQuestions={draft?.customQuestions ?? questionList(survey ?? { surveyTemplateId: template.id, customQuestions: [] })}
      />
      <Toast toast={actionData?.toast} />
    </main>
  );
}
