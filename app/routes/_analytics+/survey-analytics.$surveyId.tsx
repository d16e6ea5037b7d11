import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AnalyticsView } from '#app/components/analytics.tsx';
import { analyticsPage } from '#app/utils/analytics.server.ts';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.survey?.title ?? 'Survey'} analytics — RewardLoop` }];

/** /survey-analytics/{surveyId}: one of the owner's surveys; another owner's id is a 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return analyticsPage(request, context, params.surveyId ?? '');
}

export default function SurveyAnalyticsOfOne() {
  return <AnalyticsView data={useLoaderData<typeof loader>()} />;
}
