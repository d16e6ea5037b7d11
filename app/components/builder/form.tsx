import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useMemo, useState } from 'react';
import { LOCALE_NAMES, type Locale } from '../../../modules/i18n/index.ts';
import { questionCounts, surveyTierReport } from '../../../modules/scoring/index.ts';
import { BUILDER_DRAFT_KEY, builderFormSchema, formTierThresholds, presetRewards, toFormValues, type RewardMode } from '../../../modules/surveys/forms.ts';
import {
  DEFAULT_TEMPLATE_ID,
  effectiveTemplate,
  emptyDraft,
  getTemplate,
  type CustomQuestion,
  type EditorState,
  PLATFORM_LABELS,
  type Platform,
  PRESET_IDS,
  REVIEW_PLATFORMS,
  SOCIAL_PLATFORMS,
  type ReviewPolicy,
  tierCheck,
} from '../../../modules/surveys/index.ts';
import { QuestionEditor } from '../question-editor.tsx';
import { IncentivePlatformWarning, ReviewPolicyCard } from '../review-policy.tsx';
import { Toast, type ToastData } from '../toast.tsx';
import { buttonClass, FieldError, useHydrated } from '../ui.tsx';
import { PlatformRows, toArray, QuestionPanel } from './parts.tsx';
import { TranslationsCard } from './translations.tsx';
import { BasicsStep } from './step-basics.tsx';
import { RewardsStep } from './step-rewards.tsx';
import { useStepFocus } from './use-step-focus.ts';
import { BUILDER_STEPS, BuilderStep, NotSaved, ReviewCards, StepContext, StepNav, stepProblems, stepState, SummaryBar, type StepId, type StepState } from './steps.tsx';

/**
 * The survey builder's form (split from the route, issue 28 item 4): every field, with and without
 * JavaScript. Steps 1 and 2 are in step-basics.tsx and step-rewards.tsx, the open step and its focus
 * in use-step-focus.ts.
 */
export function BuilderForm({
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
  // The tier points as the save will read them (formTierThresholds, the save's schema): all three
  // typed as whole numbers, else what is stored (an edit's, or the template's for a new survey).
  const typedTiers = useMemo(() => {
    const points = (v: unknown) => (typeof v === 'string' && /^\s*\d{1,4}\s*$/.test(v) ? Number(v) : undefined);
    return formTierThresholds(template.id, { tierBronze: points(fields.tierBronze.value), tierSilver: points(fields.tierSilver.value), tierGold: points(fields.tierGold.value) });
  }, [template.id, fields.tierBronze.value, fields.tierSilver.value, fields.tierGold.value]);
  const initialPolicy = ((submitted ? fields.reviewPolicy.initialValue : undefined) ?? defaults.reviewPolicy) as ReviewPolicy;
  const policy = (fields.reviewPolicy.value ?? initialPolicy) as ReviewPolicy;
  // The save-time fairness check, live (ADR 041): one report for the inline warnings and the Survey Stats
  // (issue 27 item 5); reward order is already on the custom amount fields.
  const rewards = useMemo(() => {
    const dollarsOf = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) * 100 : undefined);
    // A refused post echoes whatever was sent: a reward not known yet skips the reward checks only.
    return rewardMode === 'custom'
      ? { bronze: dollarsOf(fields.customBronze.value), silver: dollarsOf(fields.customSilver.value), gold: dollarsOf(fields.customGold.value) }
      : (PRESET_IDS as readonly string[]).includes(rewardMode)
        ? presetRewards(template.id, rewardMode)
        : { bronze: undefined, silver: undefined, gold: undefined };
  }, [rewardMode, fields.customBronze.value, fields.customSilver.value, fields.customGold.value, template.id]);
  // The save's own tier rule (tierCheck, ADR 093), live: one check for the step states, the inline
  // warnings, the Survey Stats, step 5 and the phone's bar (issue 27 item 5).
  const report = useMemo(
    () =>
      tierCheck(
        { tierReport: surveyTierReport },
        {
          surveyTemplateId: template.id,
          bronzeRewardValue: rewards.bronze,
          silverRewardValue: rewards.silver,
          goldRewardValue: rewards.gold,
          selectedReviewPlatforms: reviewSelected,
          selectedSocialPlatforms: socialSelected,
          reviewPolicy: policy,
          tierThresholds: typedTiers,
          customQuestions: editor.list,
        },
        { customQuestions: editor.list, reviewPolicy: policy, tierThresholds }
      ),
    [rewards, template.id, reviewSelected, socialSelected, policy, typedTiers, tierThresholds, editor.list]
  );
  const fairness = report.problems.filter((p) => p.field === 'reviewPolicy' || p.field === 'tierThresholds');

  // The steps (ADR 089): each step's problems from the form's errors and the same tier report, its state in words.
  const problems = stepProblems(form.allErrors, report, reviewSelected.length > 0);
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const required: Record<StepId, boolean> = {
    'step-basics': Boolean(text(fields.title.value) && text(fields.redemptionWebsite.value)),
    'step-rewards': rewards.bronze !== undefined && rewards.silver !== undefined && rewards.gold !== undefined,
    'step-questions': true,
    'step-platforms': reviewSelected.length > 0,
    'step-review': true,
  };
  const states = Object.fromEntries(BUILDER_STEPS.map((s) => [s.id, stepState(problems[s.id], required[s.id])])) as Record<StepId, StepState>;
  const firstProblem = BUILDER_STEPS.find((s) => states[s.id] === 'problem')?.id ?? null;
  const refused = lastResult?.status === 'error' && firstProblem !== null;
  const { active, navRef, openFirstError, control } = useStepFocus({ hydrated, lastResult, firstProblem });
  const formProps = getFormProps(form);

  const questionTotal = useMemo(
    () =>
      questionCounts(
        effectiveTemplate({
          surveyTemplateId: template.id,
          customQuestions: editor.list,
        }),
        {
          selectedReviewPlatforms: reviewSelected,
          selectedSocialPlatforms: socialSelected,
          reviewPolicy: policy,
        }
      ).total,
    [template.id, editor.list, reviewSelected, socialSelected, policy]
  );
  const offered = toArray(fields.languages.value ?? (submitted ? fields.languages.initialValue : defaults.languages));
  const known = rewards.bronze !== undefined && rewards.silver !== undefined && rewards.gold !== undefined ? { bronze: rewards.bronze, silver: rewards.silver, gold: rewards.gold } : null;
  const step = (index: number) => {
    const id = BUILDER_STEPS[index]!.id;
    // Without JavaScript a refused save's page opens at the first step with a problem (autofocus, ADR 093).
    return {
      index,
      problems: states[id] === 'problem' ? problems[id] : { all: [], unshown: [], fromErrors: 0 },
      landHere: refused && !hydrated && firstProblem === id,
    };
  };

  return (
    <StepContext.Provider value={control}>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-6">
          <div ref={navRef} className="scroll-mt-4">
            <StepNav states={states} />
          </div>
          <Form
            method="post"
            {...formProps}
            onSubmit={(event) => {
              formProps.onSubmit(event);
              if (hydrated) openFirstError(event.currentTarget);
            }}
            className="space-y-8"
          >
            <input type="hidden" name="surveyTemplateId" value={defaults.surveyTemplateId} />
            {form.errors?.length ? <FieldError id={form.errorId} errors={form.errors} /> : null}
            {refused ? <NotSaved steps={BUILDER_STEPS.filter((s) => states[s.id] === 'problem').map((s) => ({ ...s, count: problems[s.id].all.length }))} /> : null}

            <BuilderStep {...step(0)}>
              <BasicsStep fields={fields} template={template} defaults={defaults} submitted={submitted} visionAvailable={visionAvailable} />
            </BuilderStep>

            <BuilderStep {...step(1)}>
              <RewardsStep
                fields={fields}
                template={template}
                rewardMode={rewardMode}
                initialMode={initialMode}
                hydrated={hydrated}
                tierProblems={fairness.filter((p) => p.field === 'tierThresholds').map((p) => p.message)}
              />
            </BuilderStep>

            <BuilderStep {...step(2)}>
              <QuestionEditor
                template={questionTemplate}
                state={editor}
                onChange={setEditor}
                hydrated={hydrated}
                saveErrors={form.allErrors.customQuestions}
                errorId={`${form.id}-customQuestions-error`}
              />
              <TranslationsCard defaults={defaults} lastResult={lastResult} questions={editor.list} errors={form.allErrors} />
            </BuilderStep>

            <BuilderStep {...step(3)}>
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
            </BuilderStep>

            <BuilderStep {...step(4)}>
              <ReviewCards
                report={report}
                asLoaded={!hydrated}
                words={{
                  title: text(fields.title.value),
                  rewards: known,
                  questions: questionTotal,
                  review: reviewSelected.map((p) => PLATFORM_LABELS[p as Platform] ?? p),
                  social: socialSelected.map((p) => PLATFORM_LABELS[p as Platform] ?? p),
                  languages: offered.map((c) => LOCALE_NAMES[c as Locale] ?? c),
                  frequencyDays: String(fields.surveyFrequencyDays.value ?? defaults.surveyFrequencyDays),
                }}
              />
            </BuilderStep>

            {/* Save from any step (an edit often changes one thing); without JavaScript it follows step 5.
              With JavaScript it is the main button on step 5 only: before it, Next is. */}
            <div className="space-y-3 rounded-card border border-slate-200 bg-white p-4 shadow-sm" data-testid="save-bar">
              <p className="text-sm text-slate-700">
                {loggedIn
                  ? editing
                    ? 'Saving updates the survey at once, then shows its published page.'
                    : 'Saving keeps the survey as a draft and shows its preview, where you publish it.'
                  : 'Saving keeps the survey in this browser until you sign up.'}
              </p>
              <div className="flex flex-wrap gap-3">
                <button type="submit" name="intent" value="save" className={hydrated && active !== 'step-review' ? buttonClass.secondary : buttonClass.primary} disabled={busy}>
                  {busy && navigation.formData?.get('intent') === 'save' ? 'Saving…' : 'Save Survey & Review'}
                </button>
                <Link to={editing ? '/survey-management' : '/'} className={buttonClass.secondary}>
                  Cancel
                </Link>
              </div>
            </div>
          </Form>
        </div>
        <QuestionPanel templateId={template.id} questions={editor.list} review={reviewSelected} social={socialSelected} policy={policy} report={report} />
        <SummaryBar report={report} />
        <Toast toast={toast} />
      </div>
    </StepContext.Provider>
  );
}
