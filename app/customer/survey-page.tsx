import { useEffect, useMemo, useState } from 'react';
import type { CustomerSurveyView } from '../../modules/responses/index.ts';
import { BUILDER_DRAFT_KEY } from '../../modules/surveys/index.ts';
import type { Translator } from '../../modules/i18n/index.ts';
import { I18nProvider, useI18n } from '../components/i18n.tsx';
import { readError } from './fetching.ts';
import { withOwnerWords } from './localize.ts';
import { LanguageSwitcher, PageShell } from './page-frame.tsx';
import { firstStep, type SurveyPageData } from './state.ts';
import { SurveyForm } from './survey-form.tsx';

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
