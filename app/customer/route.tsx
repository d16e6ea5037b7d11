import { useMemo } from 'react';
import type { HeadersFunction, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { SURVEY_DATA_ID, SURVEY_ROOT_ID, type SurveyIslandData } from './island-data.ts';
import type { SurveyPageData } from './state.ts';
import { SurveyApp } from './survey-page.tsx';
import { createTranslator } from '../../modules/i18n/translator.ts';

/**
 * Survey pages are the business's, not RewardLoop's: the root leaves out the owner's top bar, and in
 * production it loads the survey island instead of the Remix runtime (see app/customer/island.tsx).
 */
export const handle = { bare: true };

/** The page is in the customer's language, chosen also from Accept-Language and the language cookie (ADR 084). */
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const vary = actionHeaders.get('Vary') ?? loaderHeaders.get('Vary');
  return vary ? { Vary: vary } : new Headers();
};

export const meta: MetaFunction = ({ data }) => {
  const page = data as SurveyPageData | undefined;
  const view = page?.view;
  return [
    { title: view ? `${view.title} — ${view.businessName}` : createTranslator(page?.locale ?? 'en', page?.messages).t('Survey Not Found') },
    { name: 'robots', content: 'noindex' },
  ];
};

/** JSON inside a script element: '<' escaped so no answer can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export default function CustomerSurveyRoute() {
  const loaderData = useLoaderData<SurveyPageData>();
  const actionData = useActionData<SurveyPageData>();
  const location = useLocation();
  const island: SurveyIslandData = { page: actionData ?? loaderData, action: `${location.pathname}${location.search}` };
  const translator = useMemo(() => createTranslator(island.page.locale ?? 'en', island.page.messages), [island.page.locale, island.page.messages]);
  return (
    <>
      <div id={SURVEY_ROOT_ID}>
        <SurveyApp page={island.page} action={island.action} translator={translator} />
      </div>
      <script type="application/json" id={SURVEY_DATA_ID} dangerouslySetInnerHTML={{ __html: scriptJson(island) }} />
    </>
  );
}
