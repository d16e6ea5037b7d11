import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { SURVEY_DATA_ID, SURVEY_ROOT_ID, type SurveyIslandData } from './island-data.ts';
import type { SurveyPageData } from './state.ts';
import { SurveyApp } from './survey-page.tsx';

/**
 * Survey pages are the business's, not RewardLoop's: the root leaves out the owner's top bar, and in
 * production it loads the survey island instead of the Remix runtime (see app/customer/island.tsx).
 */
export const handle = { bare: true };

export const meta: MetaFunction = ({ data }) => {
  const view = (data as SurveyPageData | undefined)?.view;
  return [
    { title: view ? `${view.title} — ${view.businessName}` : 'Survey Not Found' },
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
  return (
    <>
      <div id={SURVEY_ROOT_ID}>
        <SurveyApp page={island.page} action={island.action} />
      </div>
      <script type="application/json" id={SURVEY_DATA_ID} dangerouslySetInnerHTML={{ __html: scriptJson(island) }} />
    </>
  );
}
