// The survey's form: wires the steps, the verification queue and the eligibility check
// (use-*.ts), renders the current section, the claim box and the buttons, and submits through the
// JSON API; without JavaScript the same markup is a form post (README).
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { liveScore, RATING_REQUIRED, submitProblem, verificationStatus, type CustomerSurveyView, type Problem } from '../../modules/responses/index.ts';
import { allQuestions, customerEmailOf, customerNameOf, effectiveTemplate } from '../../modules/surveys/index.ts';
import { tierRanges, tierThresholds } from '../../modules/scoring/index.ts';
import { Toast } from '../components/toast.tsx';
import { ELEMENT, useI18n, withElement } from '../components/i18n.tsx';
import { rejectionMessage } from '../../modules/i18n/index.ts';
import { localizeProblem, localizeTemplate, platformLabel } from './localize.ts';
import { useHydrated } from '../components/ui.tsx';
import { readError, refusalMessage, sleep } from './fetching.ts';
import { ClaimBox, EligibilityNote, eligibilityMessage } from './claim-box.tsx';
import { BrandLogo, LanguageSwitcher, PageShell } from './page-frame.tsx';
import { Part3 } from './part3.tsx';
import { QuestionInput, type FieldApi } from './questions.tsx';
import { dollars, ProgressCard, RewardTiers, ThankYou } from './reward-cards.tsx';
import { FIELD, checkingField, failedField, simulatedStep, submittedStep, withRejectedBlock, type Submitted, type SurveyStep } from './state.ts';
import { useEligibility } from './use-eligibility.ts';
import { hiddenAnswers, useSurveySteps } from './use-survey-steps.ts';
import { useVerificationQueue } from './use-verification-queue.ts';

/** The survey's sections as one form; `initial` is the step the server rendered. */
export function SurveyForm({ view, initial, action }: { view: CustomerSurveyView; initial: SurveyStep; action: string }) {
  const tr = useI18n();
  const { t } = tr;
  // What the customer reads in their language; ids, option values and points are the template's (localize.ts).
  // The owner's own translation of their words in this language comes first (ADR 090).
  const own = view.translations?.[tr.locale];
  const template = useMemo(() => localizeTemplate(effectiveTemplate(view), tr, own), [view, tr, own]);
  const hydrated = useHydrated();
  const [submitting, setSubmitting] = useState(false);
  const steps = useSurveySteps(view, template, initial);
  const { step, setStep, stepRef, headingRef, index, total, current, isLast, isPart3, rating, toast, goTo, answer } = steps;
  const refuse = (problem: Problem) => steps.refuse(localizeProblem(problem, tr));
  const eligibility = useEligibility(view);
  const verification = useVerificationQueue({ view, template, stepRef, setStep, toast, tr });
  const score = liveScore(template, view, step.answers, step.states);
  const ranges = tierRanges(tierThresholds(template, view.tierThresholds));

  const isEmailKey = (key: string) => key === 'customerEmail' || key === 'customer_email';
  const api: FieldApi = {
    hydrated,
    value: (key) => step.answers[key],
    error: (key) => step.errors[key],
    change(key, value) {
      answer(key, value);
      verification.edited(key);
      if (isEmailKey(key)) eligibility.reset();
    },
    blur(key) {
      const value = String(stepRef.current.answers[key] ?? '');
      if (isEmailKey(key) && value.includes('@')) void eligibility.check(value.trim().toLowerCase());
      verification.blurred(key);
    },
  };

  // A repeat email (the window of spec 4), known from the check on blur or from a refused submit: the
  // claim box never says "You've earned" beside the refusal (issue 27 item 9).
  const emailRefused = eligibility.state.eligible === false || (step.toast?.title === WINDOW_REFUSAL_TITLE && Boolean(step.errors.customerEmail));

  // ---- submission ----
  async function submit() {
    const problem = submitProblem({ template, config: view, answers: step.answers, states: step.states, uploads: verification.pending() });
    if (problem) return refuse(problem);
    const email = customerEmailOf(step.answers)?.toLowerCase() ?? null;
    if (email && view.mode === 'live') {
      const known = await eligibility.ensure(email);
      if (!known.eligible) return refuse({ title: WINDOW_REFUSAL_TITLE, message: eligibilityMessage(known, t) ?? t('This email is not eligible yet.'), field: 'customerEmail' });
    }
    setSubmitting(true);
    try {
      if (view.mode !== 'live') {
        await sleep(1500); // spec 4: preview and demo simulate the completion
        const completed = simulatedStep(view.mode, { totalPoints: score.points, rewardTier: score.tier, rewardValue: score.rewardValueCents }, email);
        setStep((s) => ({ ...s, ...completed }));
        return;
      }
      const url = view.dynamic ? `/api/survey/dynamic/submit/${view.businessId}` : `/api/survey/submit/${view.businessId}/${view.surveyId}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          responses: step.answers,
          customerEmail: email,
          customerName: customerNameOf(step.answers) ?? null,
          bypassSquare: view.bypassSquare,
          verificationStatus: verificationStatus(template, step.states),
          frontendCalculatedPoints: score.points,
          frontendCalculatedTier: score.tier,
          frontendCalculatedRewardValue: score.rewardValueCents,
          // A second press after a lost answer sends the same key: answered with what was stored (ADR 081).
          ...(step.key ? { submissionKey: step.key } : {}),
          // The customer's language, stored with the response (ADR 084).
          locale: tr.locale,
        }),
      });
      if (!res.ok) {
        const { message, body } = await readError(res);
        const rejected = body.screenshotRejected as { questionId?: string; platform?: string; rejectionCode?: string | null } | undefined;
        if (rejected?.questionId) {
          // Spec 8: clear that platform's screenshot, name, link and handle; back to section index 2.
          const q = allQuestions(template).find((x) => x.id === rejected.questionId);
          if (q) verification.forget(q.id);
          // The verifier's English reason, or its code's sentence in the customer's language (ADR 090).
          const reason = rejectionMessage(tr, rejected.rejectionCode, message, platformLabel(rejected.platform ?? q?.platform));
          setStep((s) => withRejectedBlock(s, q, reason));
          goTo(Math.min(2, total - 1));
          return;
        }
        // A message naming a platform or a number comes with its catalog key and words (ADR 090).
        const said = typeof body.key === 'string' ? localizeProblem({ title: 'Submission Failed', message, key: body.key, params: (body.params ?? {}) as Record<string, string> }, tr).message : refusalMessage(res, message, tr);
        toast({ title: 'Submission Failed', description: said || 'Please try again.', type: 'error' });
        return;
      }
      const completed = submittedStep((await res.json()) as Submitted, email);
      setStep((s) => ({ ...s, ...completed }));
    } catch {
      toast({ title: 'Submission Failed', description: 'Please try again.', type: 'error' });
    } finally {
      setSubmitting(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent = submitter?.value ?? 'next';
    if (submitting) return;
    if (intent === 'back') return goTo(Math.max(0, index - 1));
    if (intent === 'next') {
      if (index === 0 && rating === undefined) return refuse(RATING_REQUIRED);
      return goTo(Math.min(total - 1, index + 1));
    }
    void submit();
  }

  useEffect(() => {
    if (step.done) document.getElementById('thank-you')?.focus();
  }, [step.done]);

  const banner =
    view.mode !== 'live' ? (
      <p role="note" className="mb-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
        {t(view.mode === 'demo' ? 'Demo survey: responses are not saved and no gift card is sent.' : 'Preview mode: responses are not saved and no gift card is sent.')}
      </p>
    ) : null;

  if (step.done) {
    return (
      <PageShell brand={view.brand}>
        {banner}
        <ThankYou view={view} done={step.done} />
        <Toast toast={step.toast} />
      </PageShell>
    );
  }

  const hidden = hiddenAnswers(step.answers, current.questions, isPart3);

  return (
    <PageShell brand={view.brand}>
      {banner}
      <LanguageSwitcher action={action} languages={view.languages} />
      <header className="mb-3">
        <BrandLogo view={view} className="mb-3" />
        <h1 className="text-2xl font-bold leading-tight">{own?.title ?? view.title}</h1>
        <p className="mt-1 text-slate-700">
          {withElement(t('Share your experience with {{business}}', { business: ELEMENT }), ELEMENT, <span className="font-semibold">{view.businessName}</span>)}
        </p>
      </header>
      {view.rewardsPaused ? (
        <p role="status" data-testid="rewards-paused" className="mb-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span className="font-semibold">{t('Rewards are paused.')}</span>{' '}
          {t('{{business}} has given out all the rewards it set aside for this month. You can still share your feedback, but no gift card will be sent.', { business: view.businessName })}
        </p>
      ) : null}
      <ProgressCard section={index} total={total} points={score.points} tier={score.tier} ranges={ranges} view={view} />
      <RewardTiers ranges={ranges} view={view} tier={score.tier} />

      <form method="post" encType="multipart/form-data" action={action} onSubmit={onSubmit} noValidate className="mt-6">
        <input type="hidden" name={FIELD.section} value={index} />
        <input type="hidden" name={FIELD.progress} value={step.progress ?? 0} />
        {step.key ? <input type="hidden" name={FIELD.key} value={step.key} /> : null}
        {hidden.map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={String(v)} />
        ))}
        {Object.entries(step.states).map(([k, state]) =>
          state.status === 'failed' && state.error ? (
            <input key={failedField(k)} type="hidden" name={failedField(k)} value={state.error} />
          ) : state.status === 'verified' && state.checking ? (
            <input key={checkingField(k)} type="hidden" name={checkingField(k)} value="1" />
          ) : null,
        )}
        <section aria-labelledby="section-title">
          <h2 id="section-title" ref={headingRef} tabIndex={-1} className="text-xl font-bold">
            {current.title}
          </h2>
          {current.description ? <p className="mt-1 text-slate-600">{current.description}</p> : null}
          <div className="mt-4 space-y-4">
            {isPart3 ? (
              <Part3 view={view} rating={rating} questions={current.questions} api={api} uploads={verification.uploads} states={step.states} />
            ) : (
              current.questions.map((q) => (
                <QuestionInput key={q.id} q={q} api={api} extra={q.type === 'email' ? <EligibilityNote state={eligibility.state} shownError={step.errors[q.id] ?? step.errors.customerEmail} /> : undefined} />
              ))
            )}
          </div>
        </section>

        {isPart3 ? <ClaimBox step={step} api={api} eligibility={eligibility.state} emailRefused={emailRefused} score={score} ranges={ranges} /> : null}

        <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse sm:flex-wrap">
          {isLast ? (
            <button type="submit" name={FIELD.intent} value="submit" disabled={submitting} className={primaryButton}>
              {score.tier ? t('Submit for {{value}}', { value: dollars(tr, score.rewardValueCents, score.tier) }) : t('Submit')}
            </button>
          ) : (
            <>
              <button type="submit" name={FIELD.intent} value="next" disabled={submitting} className={primaryButton}>
                {t('Continue for Higher Reward')}
              </button>
              <button type="submit" name={FIELD.intent} value="early" disabled={submitting || (hydrated && rating === undefined)} className={secondaryButton}>
                {t('Submit Early')}
              </button>
            </>
          )}
          {index > 0 ? (
            <button type="submit" name={FIELD.intent} value="back" disabled={submitting} className={`${secondaryButton} sm:mr-auto`}>
              {t('Back')}
            </button>
          ) : null}
        </div>
      </form>

      {submitting ? <SubmittingOverlay /> : null}
      <Toast toast={step.toast} />
    </PageShell>
  );
}

const primaryButton =
  'inline-flex min-h-12 w-full items-center justify-center rounded-lg bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60 sm:w-auto';
const secondaryButton =
  'inline-flex min-h-12 w-full items-center justify-center rounded-lg border border-slate-300 bg-white px-5 py-3 text-base font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60 sm:w-auto';

/** The spec's title when an email is inside its repeat window (the server's refusal and the browser's check say the same). */
const WINDOW_REFUSAL_TITLE = 'Cannot Submit Survey';

/** Over the page while the survey is sent. */
function SubmittingOverlay() {
  const { t } = useI18n();
  return (
    <div role="alertdialog" aria-modal="true" aria-labelledby="submitting-title" className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
      <div className="w-full max-w-xs rounded-card bg-white p-6 text-center shadow-xl">
        <span aria-hidden className="mx-auto block size-10 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-none" />
        <h2 id="submitting-title" className="mt-4 text-lg font-bold">
          {t('Submitting Your Survey')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('Please keep this page open.')}</p>
      </div>
    </div>
  );
}
