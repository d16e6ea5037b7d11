import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { blockKey, liveScore, RATING_REQUIRED, submitProblem, verificationStatus, WINDOW_MESSAGE_KEY, type BlockState, type CustomerSurveyView, type Problem } from '../../modules/responses/index.ts';
import { brandPalette } from '../../modules/branding/index.ts';
import {
  allQuestions,
  BUILDER_DRAFT_KEY,
  customerEmailOf,
  customerNameOf,
  displayHandle,
  effectiveTemplate,
  HOSTED_VISION_DISCLOSURE,
  INCENTIVE_DISCLOSURE,
  POLICY_DISCLOSURE,
  isBlock,
  PART3_PENDING_MESSAGE,
  PLATFORM_LABELS,
  profileUrl,
  reviewUrl,
  VERIFICATION_KIND_BY_TYPE,
  type Block,
  type Question,
  type TierName,
  type VerificationKind,
} from '../../modules/surveys/index.ts';
import { tierRanges, tierRangeLabel, tierThresholds, type TierRange } from '../../modules/scoring/index.ts';
import { Toast } from '../components/toast.tsx';
import { ELEMENT, I18nProvider, useI18n, withElement } from '../components/i18n.tsx';
import { LOCALE_NAMES, LOCALES, rejectionMessage, type Locale, type Translator } from '../../modules/i18n/index.ts';
import { localizeProblem, localizeTemplate, platformLabel, withOwnerWords } from './localize.ts';
import { useHydrated } from '../components/ui.tsx';
import { readError, refusalMessage, sleep } from './fetching.ts';
import { BlockFields, InlineError, inputClass, QuestionInput, type FieldApi, type UploadApi } from './questions.tsx';
import { FIELD, checkingField, failedField, firstStep, simulatedStep, submittedStep, withRejectedBlock, type Submitted, type SurveyDone, type SurveyPageData, type SurveyStep } from './state.ts';
import { useEligibility, type Eligibility } from './use-eligibility.ts';
import { hiddenAnswers, useSurveySteps } from './use-survey-steps.ts';
import { useVerificationQueue } from './use-verification-queue.ts';

const tierBadge: Record<TierName | 'None', string> = {
  None: 'bg-slate-100 text-slate-700 border-slate-300',
  Bronze: 'bg-bronze-soft text-bronze border-bronze/40',
  Silver: 'bg-silver-soft text-silver border-silver/40',
  Gold: 'bg-gold-soft text-gold border-gold/40',
};

/** Whole dollars on the survey page (spec 9), in the customer's locale (Intl); None shows $0.00. */
const dollars = (tr: Translator, cents: number, tier: string | null) => (tier ? tr.money(cents) : tr.money(0, false));

/**
 * The customer's survey page. Free of Remix on purpose: the route renders it on the server, and in
 * production the browser hydrates it alone from a small island bundle (app/customer/island.tsx), so
 * a phone downloads React and this page, not the router. `action` is the URL the form posts to.
 */
export function SurveyApp({ page, action, translator }: { page: SurveyPageData; action: string; translator: Translator }) {
  // The customer's language (ADR 084): the server chose it and sent its messages; the route (server)
  // and the island (browser) each make the translator from them (app/customer/route.tsx, island.tsx).
  // The owner's names for the reward tiers in this language come first (ADR 090).
  const tr = useMemo(() => withOwnerWords(translator, page.view?.translations?.[translator.locale]), [translator, page.view]);
  return (
    <I18nProvider value={tr}>
      {page.custom ? (
        <CustomPreview action={action} />
      ) : !page.view ? (
        <SurveyNotFound action={action} />
      ) : (
        <SurveyForm key={page.view.surveyId ?? 'demo'} view={page.view} initial={page.step} action={action} />
      )}
    </I18nProvider>
  );
}

/** The page's URL in another language: its own path and query, `lang` replaced (a plain link: works without JavaScript). */
function languageHref(action: string, lang: string) {
  const url = new URL(action, 'http://x');
  url.searchParams.set('lang', lang);
  return `${url.pathname}${url.search}`;
}

/**
 * The language switcher: the current language, and under it (a native disclosure, so it opens
 * without JavaScript) one plain link per language the survey offers (ADR 086), each named in itself.
 * One line on a 360 px phone. A survey in one language has none. Without a survey ('Survey Not
 * Found'): every language.
 */
function LanguageSwitcher({ action, languages = LOCALES }: { action: string; languages?: readonly Locale[] }) {
  const { t, locale } = useI18n();
  if (languages.length < 2) return null;
  return (
    <nav aria-label={t('Language')} className="mb-3 flex justify-end" data-testid="language-switcher">
      <details className="relative">
        <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden">
          <svg aria-hidden viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="12" cy="12" r="10" />
            <path d="M2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20" />
          </svg>
          <span className="sr-only">{t('Language')}: </span>
          {LOCALE_NAMES[locale]}
          <svg aria-hidden viewBox="0 0 16 16" className="size-3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="m4 6 4 4 4-4" />
          </svg>
        </summary>
        <ul className="absolute right-0 z-20 mt-1 min-w-40 rounded-lg border border-slate-200 bg-white py-1 shadow-lg">
          {languages.map((lang) => (
            <li key={lang}>
              {lang === locale ? (
                <span lang={lang} aria-current="true" className="flex min-h-11 items-center px-4 text-sm font-semibold text-slate-900">
                  {LOCALE_NAMES[lang]}
                </span>
              ) : (
                <a lang={lang} hrefLang={lang} href={languageHref(action, lang)} className="flex min-h-11 items-center px-4 text-sm text-brand-700 hover:bg-slate-50">
                  {LOCALE_NAMES[lang]}
                </a>
              )}
            </li>
          ))}
        </ul>
      </details>
    </nav>
  );
}

/** The page frame; with the owner's brand colour, the theme's brand shades are replaced inside it. */
function PageShell({ children, brand }: { children: React.ReactNode; brand?: CustomerSurveyView['brand'] }) {
  const style = brand?.color ? (brandPalette(brand.color) as React.CSSProperties) : undefined;
  return (
    <main className="mx-auto w-full max-w-xl px-4 pb-16 pt-4" style={style}>
      {children}
    </main>
  );
}

/** The business's logo, when it has one. */
function BrandLogo({ view, className = '' }: { view: CustomerSurveyView; className?: string }) {
  const { t } = useI18n();
  if (!view.brand.logoUrl) return null;
  return <img src={view.brand.logoUrl} alt={t('{{business}} logo', { business: view.businessName })} className={`h-12 w-auto max-w-[60%] object-contain ${className}`} />;
}

function SurveyNotFound({ action }: { action: string }) {
  const { t } = useI18n();
  return (
    <PageShell>
      <LanguageSwitcher action={action} />
      <div className="mt-16 rounded-card border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="text-2xl font-bold">{t('Survey Not Found')}</h1>
        <p className="mt-2 text-slate-600">{t('This survey is not available right now. Please ask the staff for a current link or QR code.')}</p>
      </div>
    </PageShell>
  );
}

function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="mt-16 flex flex-col items-center gap-3 text-slate-700">
      <span aria-hidden className="size-8 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-none" />
      <span>{label}</span>
    </div>
  );
}

/** /survey/preview?custom=true: the builder's draft from this browser, turned into a view by the server. */
function CustomPreview({ action }: { action: string }) {
  const [state, setState] = useState<{ view: CustomerSurveyView | null; error: string | null }>({ view: null, error: null });
  useEffect(() => {
    const raw = localStorage.getItem(BUILDER_DRAFT_KEY);
    if (!raw) {
      setState({ view: null, error: 'No survey configuration found' });
      return;
    }
    let surveyConfig: unknown;
    try {
      surveyConfig = JSON.parse(raw);
    } catch {
      setState({ view: null, error: 'No survey configuration found' });
      return;
    }
    fetch('/api/survey/preview/custom', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ surveyConfig }) })
      .then(async (res) => {
        if (!res.ok) throw new Error((await readError(res)).message);
        setState({ view: ((await res.json()) as { view: CustomerSurveyView }).view, error: null });
      })
      .catch((error: unknown) => setState({ view: null, error: error instanceof Error ? error.message : 'No survey configuration found' }));
  }, []);
  if (state.view) return <SurveyForm view={state.view} initial={firstStep()} action={action} />;
  return (
    <PageShell>
      <noscript>
        <p className="mt-16 rounded-card border border-slate-200 bg-white p-6 text-center">Previewing a draft needs JavaScript: it is kept in this browser.</p>
      </noscript>
      {state.error ? (
        <div className="mt-16 rounded-card border border-slate-200 bg-white p-6 text-center shadow-sm">
          <h1 className="text-2xl font-bold">Preview unavailable</h1>
          <p className="mt-2 text-slate-600">{state.error}</p>
          <a href="/survey-builder" className="mt-4 inline-flex min-h-11 items-center font-semibold text-brand-700 underline">
            Open the survey builder
          </a>
        </div>
      ) : (
        <Spinner label="Loading survey…" />
      )}
    </PageShell>
  );
}

function ProgressCard({ section, total, points, tier, ranges, view }: { section: number; total: number; points: number; tier: TierName | null; ranges: TierRange[]; view: CustomerSurveyView }) {
  const next = ranges.find((r) => r.min_points > points);
  const values: Record<TierName, number> = { Bronze: view.bronzeRewardValue, Silver: view.silverRewardValue, Gold: view.goldRewardValue };
  const top = ranges.at(-1)?.min_points ?? 1;
  const tr = useI18n();
  const { t } = tr;
  return (
    <section aria-label={t('Your progress')} className="sticky top-0 z-10 -mx-4 border-b border-slate-200 bg-white px-4 py-3 sm:mx-0 sm:rounded-card sm:border">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-slate-700">{t('Section {{n}} of {{total}}', { n: section + 1, total })}</p>
        <p aria-live="polite" className="flex items-center gap-2">
          <span className="text-lg font-bold" data-testid="points">
            {t('{{count}} points', { count: points })}
          </span>
          <span data-testid="tier" className={`rounded-full border px-2.5 py-0.5 text-sm font-bold transition-colors ${tierBadge[tier ?? 'None']}`}>
            {t(tier ?? 'None')}
          </span>
        </p>
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${Math.min(100, Math.round((points / top) * 100))}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {next
          ? t('{{count}} more points for {{tier}} ({{value}})', { count: next.min_points - points, tier: t(next.tier), value: dollars(tr, values[next.tier], next.tier) })
          : t('You reached the top reward!')}
      </p>
    </section>
  );
}

function RewardTiers({ ranges, view, tier }: { ranges: TierRange[]; view: CustomerSurveyView; tier: TierName | null }) {
  const values: Record<TierName, number> = { Bronze: view.bronzeRewardValue, Silver: view.silverRewardValue, Gold: view.goldRewardValue };
  const tr = useI18n();
  const { t } = tr;
  return (
    <section aria-labelledby="rewards-title" className="mt-4 rounded-card border border-slate-200 bg-white p-4">
      <h2 id="rewards-title" className="text-sm font-semibold text-slate-700">
        {t('Gift card rewards')}
      </h2>
      <ul className="mt-2 grid grid-cols-3 gap-2">
        {ranges.map((r) => (
          <li key={r.tier} className={`rounded-lg border px-2 py-2 text-center ${tierBadge[r.tier]} ${tier === r.tier ? 'ring-2 ring-brand-600' : ''}`}>
            <p className="text-xs font-semibold">{t(r.tier)}</p>
            <p className="text-xl font-bold">{dollars(tr, values[r.tier], r.tier)}</p>
            <p className="text-xs">{t('{{range}} pts', { range: tierRangeLabel(r) })}</p>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-600" data-testid="incentive-disclosure">
        {`${t(INCENTIVE_DISCLOSURE)} ${t(POLICY_DISCLOSURE[view.reviewPolicy])}`}
      </p>
    </section>
  );
}

function ThankYou({ view, done }: { view: CustomerSurveyView; done: SurveyDone }) {
  const tier = done.tier as TierName | null;
  const tr = useI18n();
  const { t } = tr;
  const value = dollars(tr, done.rewardValue, tier);
  return (
    <div className="mt-8 rounded-card border border-slate-200 bg-white p-6 text-center shadow-sm">
      <BrandLogo view={view} className="mx-auto mb-4" />
      <svg aria-hidden viewBox="0 0 24 24" className="mx-auto size-14 text-emerald-600" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="12" cy="12" r="10" />
        <path d="m7.5 12.5 3 3 6-6.5" />
      </svg>
      <h1 className="mt-2 text-3xl font-bold" tabIndex={-1} id="thank-you">
        {t('Thank You!')}
      </h1>
      <p className="mt-2 text-slate-700">{t('Your feedback helps {{business}}.', { business: view.businessName })}</p>
      <p className="mt-4 flex items-center justify-center gap-2">
        <span className={`rounded-full border px-3 py-1 font-bold ${tierBadge[tier ?? 'None']}`}>{t(tier ?? 'No reward tier')}</span>
        <span className="font-semibold">{t('{{count}} points', { count: done.points })}</span>
      </p>
      {tier && done.checking ? (
        <p className="mt-4 text-slate-700" data-testid="reward-checking">
          {done.confirmEmail
            ? t("We've sent a link to {{email}}: confirm your address and your {{value}} gift card follows by email.", { email: done.email ?? t('your email'), value })
            : done.email
              ? t('Your {{value}} gift card is being checked and will arrive by email at {{email}}.', { value, email: done.email })
              : t('Your {{value}} gift card is being checked and will arrive by email.', { value })}
        </p>
      ) : tier ? (
        <p className="mt-4 text-slate-700">
          {done.demoGiftCard
            ? done.email
              ? t('Your {{value}} gift card would be sent to {{email}}.', { value, email: done.email })
              : t('Your {{value}} gift card would be sent.', { value })
            : done.email
              ? t('Your {{value}} gift card is on its way to {{email}}. It usually arrives within a few minutes.', { value, email: done.email })
              : t('Your {{value}} gift card is on its way. It usually arrives within a few minutes.', { value })}
        </p>
      ) : (
        <p className="mt-4 text-slate-700">{t("This visit didn't reach a reward tier, but we read every answer.")}</p>
      )}
      {done.demoGiftCard ? (
        <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {t(view.mode === 'demo' ? 'Demo: nothing was saved. Pretend gift card' : 'Preview: nothing was saved. Pretend gift card')} <span className="font-mono font-semibold">{done.demoGiftCard}</span>
        </p>
      ) : null}
    </div>
  );
}

function SurveyForm({ view, initial, action }: { view: CustomerSurveyView; initial: SurveyStep; action: string }) {
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
  const claimEmail = String(step.answers.customerEmail ?? step.answers.customer_email ?? '');

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

        {isPart3 ? (
          <section aria-labelledby="claim-title" className="mt-6 rounded-card border-2 border-brand-600 bg-brand-50 p-4">
            <h3 id="claim-title" className="text-lg font-bold">
              {t('Claim Your Reward')}
            </h3>
            <p className="mt-1 text-sm text-slate-700" data-testid="claim-text">
              {emailRefused
                ? t('This email cannot get a reward right now: see the message under the email field.')
                : score.tier
                  ? t("You've earned {{tier}}: a {{value}} gift card, sent by email.", { tier: t(score.tier), value: dollars(tr, score.rewardValueCents, score.tier) })
                  : t('Reach {{points}} points for a gift card, sent by email.', { points: ranges[0]?.min_points ?? 0 })}
            </p>
            <div className="mt-3 space-y-3">
              <div>
                <label htmlFor="customerEmail" className="mb-1 block text-sm font-medium text-slate-800">
                  {t('Email address')}
                </label>
                <input
                  id="customerEmail"
                  name="customerEmail"
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  maxLength={255}
                  value={claimEmail}
                  aria-invalid={step.errors.customerEmail ? true : undefined}
                  aria-describedby={step.errors.customerEmail ? 'customerEmail-error' : 'customerEmail-note'}
                  onChange={(e) => api.change('customerEmail', e.target.value)}
                  onBlur={() => api.blur?.('customerEmail')}
                  className={inputClass}
                />
                <InlineError id="customerEmail" message={step.errors.customerEmail} />
                <div id="customerEmail-note">
                  <EligibilityNote state={eligibility.state} shownError={step.errors.customerEmail} />
                </div>
              </div>
              <div>
                <label htmlFor="customerName" className="mb-1 block text-sm font-medium text-slate-800">
                  {t('Your name')} <span className="font-normal text-slate-600">{t('(optional)')}</span>
                </label>
                <input
                  id="customerName"
                  name="customerName"
                  type="text"
                  autoComplete="name"
                  maxLength={255}
                  value={String(step.answers.customerName ?? step.answers.customer_name ?? '')}
                  onChange={(e) => api.change('customerName', e.target.value)}
                  className={inputClass}
                />
              </div>
            </div>
          </section>
        ) : null}

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

      {submitting ? (
        <div role="alertdialog" aria-modal="true" aria-labelledby="submitting-title" className="fixed inset-0 z-50 grid place-items-center bg-slate-900/60 p-4">
          <div className="w-full max-w-xs rounded-card bg-white p-6 text-center shadow-xl">
            <span aria-hidden className="mx-auto block size-10 animate-spin rounded-full border-4 border-brand-600 border-t-transparent motion-reduce:animate-none" />
            <h2 id="submitting-title" className="mt-4 text-lg font-bold">
              {t('Submitting Your Survey')}
            </h2>
            <p className="mt-1 text-sm text-slate-600">{t('Please keep this page open.')}</p>
          </div>
        </div>
      ) : null}
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

/** The check's message in the customer's language: the repeat window's by its days left, any other looked up in the catalog. */
function eligibilityMessage(state: Eligibility, t: Translator['t']): string | null {
  if (state.daysRemaining) return t(WINDOW_MESSAGE_KEY, { count: state.daysRemaining });
  return state.message ? t(state.message) : null;
}

/** The eligibility check's answer under an email field; an ineligible message already shown as the field's error is not said twice. */
function EligibilityNote({ state, shownError }: { state: Eligibility; shownError?: string }) {
  const { t } = useI18n();
  const message = eligibilityMessage(state, t);
  return (
    <p aria-live="polite" className="mt-1 min-h-5 text-sm">
      {state.checking ? (
        <span className="text-slate-600">{t('Checking your email…')}</span>
      ) : state.eligible === true ? (
        <span className="text-emerald-700">{message ?? t('This email can receive a reward.')}</span>
      ) : state.eligible === false && message !== shownError && message !== (shownError ? t(shownError) : undefined) ? (
        <span className="font-medium text-red-700">{message}</span>
      ) : null}
    </p>
  );
}

function Part3({
  view,
  rating,
  questions,
  api,
  uploads,
  states,
}: {
  view: CustomerSurveyView;
  rating: number | undefined;
  questions: readonly Question[];
  api: FieldApi;
  uploads: UploadApi;
  states: Record<string, BlockState>;
}) {
  const { t } = useI18n();
  // Rating-routed, part 3 waits for the rating; "Ask every customer" offers everything whatever it is (ADR 040).
  if (rating === undefined && view.reviewPolicy === 'rating_routed') {
    return <p className="rounded-card border border-dashed border-slate-300 bg-white p-4 text-slate-700">{t(PART3_PENDING_MESSAGE)}</p>;
  }
  const of = (kind: VerificationKind) => questions.filter(isBlock).filter((q) => VERIFICATION_KIND_BY_TYPE[q.type] === kind);
  const block = (q: Block) => {
    const platform = q.platform;
    const label = PLATFORM_LABELS[platform];
    const isReview = VERIFICATION_KIND_BY_TYPE[q.type] === 'review';
    const link = isReview ? reviewUrl(view.reviewUrls, platform) : profileUrl(platform, view.socialHandles[platform]);
    const handle = displayHandle(view.socialHandles[platform]);
    return (
      <BlockFields
        key={q.id}
        q={q}
        api={api}
        uploads={uploads}
        state={states[blockKey(q)]}
        link={link}
        linkLabel={isReview ? t('Write a review on {{platform}}', { platform: label }) : t('Open {{name}} on {{platform}}', { name: handle ?? view.businessName, platform: label })}
        missingLink={t(isReview ? 'Review URL not configured' : 'Social handle not configured')}
      />
    );
  };
  const group = (title: string, qs: Block[]) =>
    qs.length ? (
      <div className="space-y-3">
        <h3 className="text-lg font-bold">{title}</h3>
        {qs.map(block)}
      </div>
    ) : null;
  const improvement = questions.find((q) => q.id === 'five_star_improvement');
  return (
    <>
      {/* What the branch holds decides the groups: the review policy and the rating chose it (visibleSections). */}
      {improvement ? (
        <div className="space-y-3">
          <h3 className="text-lg font-bold">{t('Help Us Improve')}</h3>
          <QuestionInput q={{ ...improvement, description: undefined }} api={api} />
        </div>
      ) : null}
      {view.hostedVision && questions.some(isBlock) ? (
        <p className="rounded-card border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700" data-testid="vision-disclosure">
          {t(HOSTED_VISION_DISCLOSURE)}
        </p>
      ) : null}
      {group(t('Share Your Review'), of('review'))}
      {group(t('Follow Us on Social Media'), of('follow'))}
      {group(t('Tag us'), of('tag'))}
      {!questions.length ? <p className="text-slate-700">{t('Nothing more to add: claim your reward below.')}</p> : null}
    </>
  );
}
