import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LOCALE_NAMES, type Locale } from '../../../modules/i18n/index.ts';
import { formatCents, questionCounts, surveyTierReport } from '../../../modules/scoring/index.ts';
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
import { buttonClass, Card, FieldError, useHydrated } from '../ui.tsx';
import { PlatformRows, TierPointsCard, toArray, RequiredMark, QuestionPanel } from './parts.tsx';
import { LanguagesCard } from './languages.tsx';
import { TranslationsCard } from './translations.tsx';
import { BUILDER_STEPS, BuilderStep, NotSaved, ReviewCards, StepContext, StepNav, stepOfElement, stepOfField, stepProblems, stepState, SummaryBar, type StepControl, type StepId, type StepState } from './steps.tsx';

const modeLabel = (mode: RewardMode) => (mode === 'custom' ? 'Custom' : getTemplate(DEFAULT_TEMPLATE_ID)!.preset_rewards[mode].label);

/** The survey builder's form (split from the route, issue 28 item 4): every field, with and without JavaScript. */

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

  // One step at a time with JavaScript (ADR 093): the open step, and a request to show one and move focus into it.
  const [active, setActive] = useState<StepId>(BUILDER_STEPS[0].id);
  const [focusRequest, setFocusRequest] = useState<{ id: StepId; focus: 'heading' | 'field' | 'hash'; n: number } | null>(null);
  const go = useCallback((id: StepId, focus: 'heading' | 'field' | 'hash' = 'heading') => {
    setActive(id);
    setFocusRequest((r) => ({ id, focus, n: (r?.n ?? 0) + 1 }));
  }, []);
  useEffect(() => {
    if (!focusRequest) return;
    const section = document.getElementById(focusRequest.id);
    if (!section) return;
    if (focusRequest.focus === 'hash') {
      // Opened at an anchor inside a step (a question's row after a post without JavaScript): that anchor in view.
      document.getElementById(window.location.hash.slice(1))?.scrollIntoView({ block: 'start' });
      return;
    }
    // The address names the step (replaced, not pushed: Back leaves the builder as before). Left to the
    // router, a hash change is taken for a navigation and the scroll goes back to the top.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${focusRequest.id}`);
    const heading = section.querySelector<HTMLElement>('h2[tabindex]');
    const toHeading = () => {
      // The step from its top (the navigation above it in sight when the page allows), its heading focused.
      const top = heading?.getBoundingClientRect().top ?? 0;
      if (top < 0 || top > window.innerHeight - 80) (navRef.current ?? section).scrollIntoView({ block: 'start' });
      heading?.focus({ preventScroll: true });
    };
    if (focusRequest.focus !== 'field') return toHeading();
    // Its first field marked invalid: a server's answer marks the fields a frame after it arrives.
    const invalid = () => section.querySelector<HTMLElement>('[aria-invalid="true"]:not([disabled])');
    const now = invalid();
    if (now) return now.focus();
    const frame = requestAnimationFrame(() => {
      const later = invalid();
      if (later) later.focus();
      else toHeading();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusRequest]);
  const navRef = useRef<HTMLDivElement>(null);
  // Hydrated: open the step the address names (a step, or an anchor inside one), else the first.
  useEffect(() => {
    if (!hydrated) return;
    const open = () => {
      const hash = decodeURIComponent(window.location.hash.slice(1));
      const id = hash ? stepOfElement(document.getElementById(hash)) : null;
      if (id) go(id, hash === id ? 'heading' : 'hash');
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [hydrated, go]);
  // A refused save answered by the server (with JavaScript): the first step with a problem, focus on
  // its first marked field (state adjusted while rendering the new answer, not in an effect).
  const [seenResult, setSeenResult] = useState(lastResult);
  if (lastResult !== seenResult) {
    setSeenResult(lastResult);
    if (hydrated && lastResult?.status === 'error' && firstProblem) go(firstProblem, 'field');
  }
  // A save the browser's own check stops (conform's, before any post): the first step with such an error.
  const openFirstError = (formElement: HTMLFormElement) => {
    const check = parseWithZod(new FormData(formElement), { schema: builderFormSchema });
    if (check.status !== 'error') return;
    const names = Object.entries(check.error ?? {})
      .filter(([name, messages]) => name && messages?.length)
      .map(([name]) => name);
    const step = BUILDER_STEPS.find((s) => names.some((n) => stepOfField(n) === s.id));
    if (step) go(step.id, 'field');
  };
  const control = useMemo<StepControl>(() => ({ active: hydrated ? active : null, go: hydrated ? go : null }), [hydrated, active, go]);
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
              <Card>
                <label htmlFor={fields.surveyFrequencyDays.id} className="block font-semibold">
                  How often can a customer submit?
                </label>
                <p className="mb-2 text-sm text-slate-600">The same email can earn a reward once in this many days.</p>
                <select {...getSelectProps(fields.surveyFrequencyDays)} className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 sm:w-96">
                  {template.frequency_options.map((d) => (
                    <option key={d} value={String(d)}>
                      Once every {d} days
                      {d === template.frequency_options[0] ? ' (recommended)' : ''}
                    </option>
                  ))}
                </select>
                <FieldError id={fields.surveyFrequencyDays.errorId} errors={fields.surveyFrequencyDays.errors} />
                <div className="mt-4 flex items-start gap-3">
                  <input
                    {...getInputProps(fields.verifyCustomerEmail, {
                      type: 'checkbox',
                    })}
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
                      {...getInputProps(fields.hostedVision, {
                        type: 'checkbox',
                      })}
                      aria-describedby={`${fields.hostedVision.id}-help`}
                      className="mt-1 size-5 shrink-0 rounded border-slate-300"
                    />
                    <div>
                      <label htmlFor={fields.hostedVision.id} className="font-semibold">
                        Check screenshots with a hosted AI service (OpenAI)
                      </label>
                      <p id={`${fields.hostedVision.id}-help`} className="text-sm text-slate-600">
                        Reads unusual layouts better than the built-in reader. Every screenshot customers upload to this survey is sent to OpenAI, and the survey tells them so before they choose a
                        file.
                      </p>
                      <FieldError id={fields.hostedVision.errorId} errors={fields.hostedVision.errors} />
                    </div>
                  </div>
                ) : defaults.hostedVision ? (
                  // Not offered on this server now: the survey keeps its choice (its screenshots are read here meanwhile).
                  <input type="hidden" name={fields.hostedVision.name} value="on" />
                ) : null}
              </Card>
              <LanguagesCard
                languages={fields.languages}
                defaultLanguage={fields.defaultLanguage}
                initiallyOffered={submitted ? toArray(fields.languages.initialValue) : defaults.languages}
                initialDefault={String((submitted ? fields.defaultLanguage.initialValue : undefined) ?? defaults.defaultLanguage)}
              />
            </BuilderStep>

            <BuilderStep {...step(1)}>
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
                          <input type="radio" name={fields.rewardMode.name} value={mode} defaultChecked={initialMode === mode} className="mt-1 size-5" />
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
                            <input
                              {...getInputProps(field, { type: 'number' })}
                              min={min}
                              step={1}
                              inputMode="numeric"
                              className="block min-h-11 w-full rounded-lg border border-slate-300 pl-7 pr-3"
                            />
                          </div>
                          <FieldError id={field.errorId} errors={field.errors} />
                        </div>
                      ))}
                    </div>
                  ) : null}
                </fieldset>
              </Card>
              <TierPointsCard fields={[fields.tierBronze, fields.tierSilver, fields.tierGold]} problems={fairness.filter((p) => p.field === 'tierThresholds').map((p) => p.message)} />
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
