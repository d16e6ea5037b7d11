import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { formatCents, maxPoints, questionCounts, surveyFairnessProblems, surveyTierReport, type FairnessProblem, type TierReport, type TierState } from '../../modules/scoring/index.ts';
import { BUILDER_DRAFT_KEY, builderFormSchema, presetRewards, readQuestionListText, toFormValues, type RewardMode } from '../../modules/surveys/forms.ts';
import {
  applyQuestionIntent,
  DEFAULT_REVIEW_POLICY,
  DEFAULT_TEMPLATE_ID,
  defaultPresetId,
  draftFromForm,
  effectiveTemplate,
  emptyDraft,
  getTemplate,
  parseQuestionIntent,
  questionList,
  type CustomQuestion,
  type EditorState,
  type SurveyTemplate,
  PLATFORM_LABELS,
  PRESET_IDS,
  REVIEW_PLATFORMS,
  sectionBranches,
  SOCIAL_PLATFORMS,
  type Platform,
  type ReviewPolicy,
} from '../../modules/surveys/index.ts';
import { QuestionEditor } from '../components/question-editor.tsx';
import { FairnessProblems, IncentivePlatformWarning, ReviewPolicyCard } from '../components/review-policy.tsx';
import { Toast, type ToastData } from '../components/toast.tsx';
import { buttonClass, Card, FieldError, useHydrated } from '../components/ui.tsx';
import { getOwner } from '../utils/auth.server.ts';
import { redirectWithToast } from '../utils/toast.server.ts';
import { readForm } from '../utils/input.server.ts';
import { HOSTED_VISION_UNAVAILABLE, hostedVisionRefused } from '../utils/hosted-vision.server.ts';

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
  const surveyId = new URL(request.url).searchParams.get('surveyId');
  const stored = surveyId ? await context.surveys.get(owner.id, surveyId) : null;
  if (surveyId && !stored) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  if (hostedVisionRefused(context, submission.value.hostedVision, stored)) {
    return data(
      { result: submission.reply({ fieldErrors: { hostedVision: [HOSTED_VISION_UNAVAILABLE] } }), toast: { title: 'Save Failed', description: HOSTED_VISION_UNAVAILABLE, type: 'error' as const }, draftSaved: false, editor: posted.state },
      400,
    );
  }
  // Tier fairness (ADR 041): the same pure check as the JSON API, with the survey's own tier points.
  const tiers = submission.value.tierThresholds === undefined ? (stored?.tierThresholds ?? null) : submission.value.tierThresholds;
  const unfair = surveyFairnessProblems({ ...submission.value, reviewPolicy: submission.value.reviewPolicy ?? DEFAULT_REVIEW_POLICY, tierThresholds: tiers });
  if (unfair.length) {
    return data(
      { result: submission.reply({ ...fairnessReply(unfair) }), toast: { title: 'Save Failed', description: unfair[0]!.message, type: 'error' as const }, draftSaved: false, editor: posted.state },
      400,
    );
  }
  if (surveyId) {
    const updated = await context.surveys.update(owner.id, surveyId, submission.value);
    if (!updated) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
    // Spec section 4: after saving an existing survey, its published page (a new one goes to the preview).
    return redirectWithToast(context, `/survey-published/${updated.id}`, {
      title: 'Survey Updated',
      description: 'Your changes are saved.',
      type: 'success',
    });
  }
  const created = await context.surveys.create(owner.id, submission.value);
  // Saved from the browser's draft (?draft=1, a hand-over that needed a change): the page then forgets that draft.
  const fromDraft = new URL(request.url).searchParams.get('draft') === '1';
  return redirectWithToast(context, `/survey-preview?surveyId=${created.id}${fromDraft ? '&handover=1' : ''}`, { title: 'Survey Saved', description: 'Review it, then publish.', type: 'success' });
}

/** Fairness problems on the builder's fields: the policy choice, the custom amounts, else the whole form. */
function fairnessReply(problems: readonly FairnessProblem[]) {
  const formErrors: string[] = [];
  const fieldErrors: Record<string, string[]> = {};
  const formField = { reviewPolicy: 'reviewPolicy', bronzeRewardValue: 'customBronze', silverRewardValue: 'customSilver', goldRewardValue: 'customGold', tierThresholds: 'tierGold', customQuestions: 'customQuestions' } as const;
  for (const p of problems) {
    const name = formField[p.field];
    if (name) (fieldErrors[name] ??= []).push(p.message);
    else formErrors.push(p.message);
  }
  return { formErrors, fieldErrors };
}

const modeLabel = (mode: RewardMode) => (mode === 'custom' ? 'Custom' : getTemplate(DEFAULT_TEMPLATE_ID)!.preset_rewards[mode].label);

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
    <main className="mx-auto max-w-6xl px-4 py-8">
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

function BuilderForm({
  defaults,
  loggedIn,
  editing,
  tierThresholds,
  onDraftSaved,
  lastResult,
  lastEditor,
  initialQuestions,
  visionAvailable,
}: {
  defaults: ReturnType<typeof toFormValues>;
  loggedIn: boolean;
  editing: boolean;
  tierThresholds: Record<string, number> | null;
  onDraftSaved: () => void;
  lastResult: SubmissionResult<string[]> | null | undefined;
  lastEditor: EditorState | undefined;
  initialQuestions: CustomQuestion[];
  /** The server offers the hosted vision verifier (ADR 066). */
  visionAvailable: boolean;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [toast, setToast] = useState<ToastData | null>(null);
  const questionTemplate = getTemplate(defaults.surveyTemplateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  const [editor, setEditor] = useState<EditorState>(() => lastEditor ?? { list: initialQuestions, draft: emptyDraft(questionTemplate), errors: [], notice: null });
  // A post answered by the server (a question step without JavaScript, or a refused save) brings its list back.
  useEffect(() => {
    if (lastEditor) setEditor(lastEditor);
  }, [lastEditor]);
  const [form, fields] = useForm({
    id: 'survey-builder',
    lastResult,
    defaultValue: defaults,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: builderFormSchema }),
    onSubmit(event, { submission }) {
      if (loggedIn) return;
      // Logged out: keep the draft in this browser and ask the owner to sign up.
      event.preventDefault();
      if (submission?.status === 'success') {
        localStorage.setItem(BUILDER_DRAFT_KEY, JSON.stringify(submission.value));
        onDraftSaved();
        setToast({ title: 'Survey saved in this browser', description: 'Sign up to save it to your account and publish it.', type: 'success' });
      }
    },
  });
  // After a refused post the page shows what was sent (also without JavaScript, where the form is
  // rendered anew by the server): the choices come from the submission, not the stored survey.
  const submitted = Boolean(lastResult?.initialValue);
  const initialMode = ((submitted ? fields.rewardMode.initialValue : undefined) ?? defaults.rewardMode) as RewardMode;
  const initialReview = submitted ? toArray(fields.selectedReviewPlatforms.initialValue) : defaults.selectedReviewPlatforms;
  const initialSocial = submitted ? toArray(fields.selectedSocialPlatforms.initialValue) : defaults.selectedSocialPlatforms;
  const rewardMode = (fields.rewardMode.value ?? initialMode) as RewardMode;
  const reviewSelected = toArray(fields.selectedReviewPlatforms.value ?? initialReview);
  const socialSelected = toArray(fields.selectedSocialPlatforms.value ?? initialSocial);
  const reviewUrls = fields.reviewUrls.getFieldset();
  const socialHandles = fields.socialHandles.getFieldset();
  const template = getTemplate(defaults.surveyTemplateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  const busy = navigation.state !== 'idle';
  // The tier points as typed (the Tier points card); a field left empty or not a whole number: the stored or template value.
  const liveTiers = useMemo(() => {
    const out: Record<string, number> = { ...(tierThresholds ?? {}) };
    for (const [tier, value] of [['Bronze', fields.tierBronze.value], ['Silver', fields.tierSilver.value], ['Gold', fields.tierGold.value]] as const) {
      if (typeof value === 'string' && /^\d{1,4}$/.test(value.trim())) out[tier] = Number(value);
    }
    return Object.keys(out).length ? out : null;
  }, [tierThresholds, fields.tierBronze.value, fields.tierSilver.value, fields.tierGold.value]);
  const initialPolicy = ((submitted ? fields.reviewPolicy.initialValue : undefined) ?? defaults.reviewPolicy) as ReviewPolicy;
  const policy = (fields.reviewPolicy.value ?? initialPolicy) as ReviewPolicy;
  // The save-time fairness check, live (ADR 041): one report for the inline warnings and the Survey Stats
  // (issue 27 item 5); reward order is already on the custom amount fields.
  const report = useMemo(() => {
    const dollarsOf = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) * 100 : undefined);
    // A refused post echoes whatever was sent: a reward not known yet skips the reward checks only.
    const rewards =
      rewardMode === 'custom'
        ? { bronze: dollarsOf(fields.customBronze.value), silver: dollarsOf(fields.customSilver.value), gold: dollarsOf(fields.customGold.value) }
        : (PRESET_IDS as readonly string[]).includes(rewardMode)
          ? presetRewards(template.id, rewardMode)
          : { bronze: undefined, silver: undefined, gold: undefined };
    return surveyTierReport({
      surveyTemplateId: template.id,
      bronzeRewardValue: rewards.bronze,
      silverRewardValue: rewards.silver,
      goldRewardValue: rewards.gold,
      selectedReviewPlatforms: reviewSelected,
      selectedSocialPlatforms: socialSelected,
      reviewPolicy: policy,
      tierThresholds: liveTiers,
      customQuestions: editor.list,
    });
  }, [rewardMode, fields.customBronze.value, fields.customSilver.value, fields.customGold.value, template.id, reviewSelected, socialSelected, policy, liveTiers, editor.list]);
  const fairness = report.problems.filter((p) => p.field === 'reviewPolicy' || p.field === 'tierThresholds');

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Form method="post" {...getFormProps(form)} className="min-w-0 space-y-6">
        <input type="hidden" name="surveyTemplateId" value={defaults.surveyTemplateId} />
        <FieldError id={form.errorId} errors={form.errors} />
        <Card>
          <label htmlFor={fields.title.id} className="block font-semibold">
            Survey Title <RequiredMark />
          </label>
          <p className="mb-2 text-sm text-slate-600">Customers see this at the top of the survey.</p>
          <input
            {...getInputProps(fields.title, { type: 'text' })}
            aria-required="true"
            placeholder="e.g. Tell us about your visit"
            className="block min-h-11 w-full rounded-lg border border-slate-300 px-3"
          />
          <FieldError id={fields.title.errorId} errors={fields.title.errors} />
        </Card>

        <Card>
          <fieldset>
            <legend className="font-semibold">Reward package</legend>
            <p className="mb-3 text-sm text-slate-600">Gift card value for each tier. Customers earn a tier by the points they collect.</p>
            <div className="grid gap-3 sm:grid-cols-2">
              {[...PRESET_IDS, 'custom' as const].map((mode) => {
                const values = mode === 'custom' ? null : presetRewards(template.id, mode);
                const checked = rewardMode === mode;
                return (
                  <label
                    key={mode}
                    className={`flex min-h-11 cursor-pointer gap-3 rounded-lg border p-3 ${checked ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600' : 'border-slate-300 bg-white'}`}
                  >
                    <input
                      type="radio"
                      name={fields.rewardMode.name}
                      value={mode}
                      defaultChecked={initialMode === mode}
                      className="mt-1 size-5"
                    />
                    <span>
                      <span className="font-semibold">
                        {modeLabel(mode)}
                        {mode !== 'custom' && template.preset_rewards[mode].badge ? (
                          <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">{template.preset_rewards[mode].badge}</span>
                        ) : null}
                      </span>
                      <span className="block text-sm text-slate-600">
                        {values ? `Bronze ${formatCents(values.bronze)} · Silver ${formatCents(values.silver)} · Gold ${formatCents(values.gold)}` : 'Set your own whole-dollar amounts'}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
            <FieldError id={fields.rewardMode.errorId} errors={fields.rewardMode.errors} />
            {rewardMode === 'custom' || !hydrated ? (
              <div className="mt-3 grid gap-3 sm:grid-cols-3">
                {!hydrated ? <p className="text-sm text-slate-600 sm:col-span-3">Custom amounts (used when Custom is chosen):</p> : null}
                {(
                  [
                    [fields.customBronze, 'Bronze', 1],
                    [fields.customSilver, 'Silver', 2],
                    [fields.customGold, 'Gold', 3],
                  ] as const
                ).map(([field, tier, min]) => (
                  <div key={tier}>
                    <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
                      {tier} ($, minimum {min})
                    </label>
                    <div className="relative">
                      <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">$</span>
                      <input {...getInputProps(field, { type: 'number' })} min={min} step={1} inputMode="numeric" className="block min-h-11 w-full rounded-lg border border-slate-300 pl-7 pr-3" />
                    </div>
                    <FieldError id={field.errorId} errors={field.errors} />
                  </div>
                ))}
              </div>
            ) : null}
          </fieldset>
        </Card>

        <TierPointsCard fields={[fields.tierBronze, fields.tierSilver, fields.tierGold]} problems={fairness.filter((p) => p.field === 'tierThresholds').map((p) => p.message)} />

        <Card>
          <label htmlFor={fields.surveyFrequencyDays.id} className="block font-semibold">
            How often can a customer submit?
          </label>
          <p className="mb-2 text-sm text-slate-600">The same email can earn a reward once in this many days.</p>
          <select {...getSelectProps(fields.surveyFrequencyDays)} className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 sm:w-96">
            {template.frequency_options.map((d) => (
              <option key={d} value={String(d)}>
                Once every {d} days{d === template.frequency_options[0] ? ' (recommended)' : ''}
              </option>
            ))}
          </select>
          <FieldError id={fields.surveyFrequencyDays.errorId} errors={fields.surveyFrequencyDays.errors} />
          <div className="mt-4 flex items-start gap-3">
            <input
              {...getInputProps(fields.verifyCustomerEmail, { type: 'checkbox' })}
              aria-describedby={`${fields.verifyCustomerEmail.id}-help`}
              className="mt-1 size-5 shrink-0 rounded border-slate-300"
            />
            <div>
              <label htmlFor={fields.verifyCustomerEmail.id} className="font-semibold">
                Ask customers to confirm their email before the gift card is sent
              </label>
              <p id={`${fields.verifyCustomerEmail.id}-help`} className="text-sm text-slate-600">
                We email them a link; the card follows when they click it. Stops rewards going to made-up addresses.
              </p>
            </div>
          </div>
          {visionAvailable ? (
            <div className="mt-4 flex items-start gap-3">
              <input
                {...getInputProps(fields.hostedVision, { type: 'checkbox' })}
                aria-describedby={`${fields.hostedVision.id}-help`}
                className="mt-1 size-5 shrink-0 rounded border-slate-300"
              />
              <div>
                <label htmlFor={fields.hostedVision.id} className="font-semibold">
                  Check screenshots with a hosted AI service (OpenAI)
                </label>
                <p id={`${fields.hostedVision.id}-help`} className="text-sm text-slate-600">
                  Reads unusual layouts better than the built-in reader. Every screenshot customers upload to this survey is sent to OpenAI, and the survey tells them so before they choose a file.
                </p>
                <FieldError id={fields.hostedVision.errorId} errors={fields.hostedVision.errors} />
              </div>
            </div>
          ) : defaults.hostedVision ? (
            // Not offered on this server now: the survey keeps its choice (its screenshots are read here meanwhile).
            <input type="hidden" name={fields.hostedVision.name} value="on" />
          ) : null}
        </Card>

        <Card>
          <label htmlFor={fields.redemptionWebsite.id} className="block font-semibold">
            Redemption website <RequiredMark />
          </label>
          <p className="mb-2 text-sm text-slate-600">Where customers can spend their gift card, e.g. your online ordering page. The reward email links to it.</p>
          <input
            {...getInputProps(fields.redemptionWebsite, { type: 'text' })}
            aria-required="true"
            inputMode="url"
            placeholder="https://yourcafe.com"
            className="block min-h-11 w-full rounded-lg border border-slate-300 px-3"
          />
          <FieldError id={fields.redemptionWebsite.errorId} errors={fields.redemptionWebsite.errors} />
        </Card>

        <QuestionEditor
          template={questionTemplate}
          state={editor}
          onChange={setEditor}
          hydrated={hydrated}
          saveErrors={form.allErrors.customQuestions}
          errorId={`${form.id}-customQuestions-error`}
        />

        <PlatformRows
          legend="Review platforms (1 to 3)"
          help="Customers are asked to review you here. Paste the link to your review page."
          notice={<IncentivePlatformWarning selected={reviewSelected} />}
          platforms={REVIEW_PLATFORMS}
          selection={fields.selectedReviewPlatforms}
          selected={reviewSelected}
          initiallySelected={initialReview}
          links={reviewUrls}
          linkLabel="review URL"
          placeholder={(label) => `${label} review link`}
          inputMode="url"
        />

        <PlatformRows
          legend="Social platforms (up to 4)"
          help="Customers earn points for following you. Enter your handle, like @yourcafe."
          platforms={SOCIAL_PLATFORMS}
          selection={fields.selectedSocialPlatforms}
          selected={socialSelected}
          initiallySelected={initialSocial}
          links={socialHandles}
          linkLabel="handle"
          placeholder={() => '@yourcafe'}
          inputMode="text"
        />

        <ReviewPolicyCard field={fields.reviewPolicy} initial={initialPolicy} problems={fairness.filter((p) => p.field === 'reviewPolicy').map((p) => p.message)} />

        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="save" className={buttonClass.primary} disabled={busy}>
            {busy && navigation.formData?.get('intent') === 'save' ? 'Saving…' : 'Save Survey & Review'}
          </button>
          <Link to={editing ? '/survey-management' : '/'} className={buttonClass.secondary}>
            Cancel
          </Link>
        </div>
      </Form>
      <QuestionPanel templateId={template.id} questions={editor.list} review={reviewSelected} social={socialSelected} policy={policy} report={report} />
      <Toast toast={toast} />
    </div>
  );
}

type Field = FieldMetadata<string | undefined>;

/** One checkbox per platform with its link or handle beside it (disabled while unticked, with JavaScript). */
function PlatformRows(props: {
  legend: string;
  help: string;
  platforms: readonly Platform[];
  selection: FieldMetadata<unknown>;
  selected: string[];
  initiallySelected: string[];
  links: Partial<Record<string, Field>>;
  linkLabel: string;
  placeholder: (platformLabel: string) => string;
  inputMode: 'url' | 'text';
  notice?: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">{props.legend}</legend>
        <p className="mb-3 text-sm text-slate-600">{props.help}</p>
        <FieldError id={props.selection.errorId} errors={props.selection.errors} />
        <div className="space-y-3">
          {props.platforms.map((p) => {
            const link = props.links[p]!;
            return (
              <div key={p} className="grid gap-2 sm:grid-cols-[10rem_1fr] sm:items-start">
                <label className="flex min-h-11 items-center gap-2 font-medium">
                  <input type="checkbox" name={props.selection.name} value={p} defaultChecked={props.initiallySelected.includes(p)} className="size-5" />
                  {PLATFORM_LABELS[p]}
                </label>
                <div>
                  <label htmlFor={link.id} className="sr-only">
                    {PLATFORM_LABELS[p]} {props.linkLabel}
                  </label>
                  <input
                    {...getInputProps(link, { type: 'text' })}
                    inputMode={props.inputMode}
                    placeholder={props.placeholder(PLATFORM_LABELS[p])}
                    disabled={hydrated && !props.selected.includes(p)}
                    className="block min-h-11 w-full rounded-lg border border-slate-300 px-3 disabled:bg-slate-100"
                  />
                  <FieldError id={link.errorId} errors={link.errors} />
                </div>
              </div>
            );
          })}
        </div>
        {props.notice}
      </fieldset>
    </Card>
  );
}

/**
 * The points a customer needs for each tier (ADR 041): the template's unless the owner changes them.
 * Gold should need a review, follow or post; the save check and the side panel say when it does not.
 */
function TierPointsCard({
  fields,
  problems,
}: {
  fields: readonly [FieldMetadata<string | undefined>, FieldMetadata<string | undefined>, FieldMetadata<string | undefined>];
  /** The live fairness check's problems with the tier points (the same messages the save gives). */
  problems: readonly string[];
}) {
  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">Points for each tier</legend>
        <p className="mb-3 text-sm text-slate-600">
          Customers earn a tier by the points they collect. Gold should need a review, a follow or a post: if you add questions, you may need to raise it.
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {fields.map((field, i) => (
            <div key={field.name}>
              <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
                {['Bronze', 'Silver', 'Gold'][i]} (points)
              </label>
              <input {...getInputProps(field, { type: 'number' })} min={0} max={1000} step={1} inputMode="numeric" className="block min-h-11 w-full rounded-lg border border-slate-300 px-3" />
              <FieldError id={field.errorId} errors={field.errors} />
            </div>
          ))}
        </div>
        <FairnessProblems problems={problems} />
      </fieldset>
    </Card>
  );
}

function toArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' && v ? [v] : [];
}

/** A required field's mark beside its label (issue 27 item 6): a word, not a colour or an asterisk alone. */
function RequiredMark() {
  return <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700">Required</span>;
}

const TIER_STATE: Record<TierState, { label: string; className: string }> = {
  reachable: { label: 'Reachable', className: 'text-emerald-700' },
  needs_fix: { label: 'Needs a fix', className: 'text-amber-800' },
  out_of_reach: { label: 'Out of reach', className: 'text-red-700' },
};

/** Side panel: the questions the survey will ask, by section, its stats (spec: Survey Stats) and the tiers it can reach. */
function QuestionPanel({
  templateId,
  questions,
  review,
  social,
  policy,
  report,
}: {
  templateId: string;
  questions: CustomQuestion[];
  review: string[];
  social: string[];
  policy: ReviewPolicy;
  /** The form's one fairness report: the tiers' states here and the warnings beside the fields never disagree. */
  report: TierReport;
}) {
  const selection = useMemo(() => ({ selectedReviewPlatforms: review, selectedSocialPlatforms: social, reviewPolicy: policy }), [review, social, policy]);
  const template = effectiveTemplate({ surveyTemplateId: templateId, customQuestions: questions });
  const counts = questionCounts(template, selection);
  const max = maxPoints(template, selection);
  const removed = questions.filter((q) => q.removed).length;
  const goldProblem = report.problems.find((p) => p.field === 'customQuestions')?.message ?? null;
  const needsFix = report.tiers.some((t) => t.state === 'needs_fix');
  return (
    <aside className="min-w-0 space-y-4 lg:sticky lg:top-4 lg:self-start" aria-label="Survey preview">
      <Card>
        <h2 className="font-semibold">Survey Stats</h2>
        <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Total Questions</dt>
            <dd className="text-2xl font-bold" data-testid="total-questions">{counts.total}</dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Max Points</dt>
            <dd className="text-2xl font-bold" data-testid="max-points">{max}</dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Removed Questions</dt>
            <dd className="text-2xl font-bold" data-testid="removed-questions">{removed}</dd>
          </div>
        </dl>
        <h3 className="mt-4 text-sm font-semibold text-slate-700">Reachable tiers</h3>
        <ul className="mt-1 space-y-1 text-sm" data-testid="reachable-tiers">
          {report.tiers.map((t) => (
            <li key={t.tier} className="flex justify-between gap-2">
              <span>
                {t.tier} <span className="text-slate-600">({t.minPoints}+ points)</span>
              </span>
              <span className={`font-semibold ${TIER_STATE[t.state].className}`}>{TIER_STATE[t.state].label}</span>
            </li>
          ))}
        </ul>
        {needsFix && !goldProblem ? (
          <p className="mt-2 text-sm font-medium text-amber-900" data-testid="tiers-need-fix">
            See the warning under “Points for each tier” or “Who is asked to review and follow you”: the survey cannot be saved until it is fixed.
          </p>
        ) : null}
        {goldProblem ? (
          <p role="alert" className="mt-2 text-sm font-medium text-red-700">
            {goldProblem}
          </p>
        ) : null}
      </Card>
      <Card>
        <h2 className="font-semibold">Questions</h2>
        <div className="mt-3 space-y-4">
          {template.sections.map((section) => {
            const branches = sectionBranches(section, selection);
            return (
              <section key={section.id}>
                <h3 className="text-sm font-semibold text-slate-700">{section.title}</h3>
                {branches.map((qs, i) => (
                  <div key={i}>
                    {section.conditional ? (
                      <p className="mt-1 text-xs font-medium text-slate-500">
                        {branches.length === 1 ? 'Every customer, whatever the rating' : i === 0 ? 'Rated 4 or 5 stars' : 'Rated 3 stars or less'}
                      </p>
                    ) : null}
                    <ul className="mt-1 space-y-1">
                      {qs.map((q) => (
                        <li key={q.id} className="flex items-center justify-between gap-2 text-sm">
                          <span className="min-w-0 flex-1 truncate" title={q.text}>
                            {q.text}
                          </span>
                          <span className="shrink-0 rounded bg-brand-50 px-1.5 text-xs font-semibold text-brand-700">+{q.points}</span>
                        </li>
                      ))}
                      {qs.length === 0 ? <li className="text-xs text-slate-500">{section.conditional ? 'Select platforms to add these questions.' : 'No questions in this section.'}</li> : null}
                    </ul>
                  </div>
                ))}
              </section>
            );
          })}
        </div>
      </Card>
    </aside>
  );
}
