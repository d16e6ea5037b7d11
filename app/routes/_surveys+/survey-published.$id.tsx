import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PublishedSurvey } from '#app/components/published-survey.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { publishedData } from '#app/utils/published.server.ts';

export const meta: MetaFunction = () => [{ title: 'Your survey — RewardLoop' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  if (!survey) throw new Response("Survey not found or you don't have access to it.", { status: 404 });
  return publishedData(owner, survey, context);
}

export default function SurveyPublishedRoute() {
  return <PublishedSurvey s={useLoaderData<typeof loader>()} />;
}
