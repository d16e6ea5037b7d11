import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AnalyticsView } from '#app/components/analytics.tsx';
import { analyticsPage } from '#app/utils/analytics.server.ts';

export const meta: MetaFunction = () => [{ title: 'Survey analytics — RewardLoop' }];

/** /survey-analytics: all of the owner's surveys together, with the survey picker when there is more than one (`?survey=`). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return analyticsPage(request, context, null);
}

export default function SurveyAnalytics() {
  return <AnalyticsView data={useLoaderData<typeof loader>()} />;
}
