import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { PublishedSurvey } from '#app/components/published-survey.tsx';
import { buttonClass } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { publishedData } from '#app/utils/published.server.ts';

export const meta: MetaFunction = () => [{ title: 'Your survey — RewardLoop' }];

/** /survey-published without an id: the owner's latest survey. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const survey = await context.surveys.latest(owner.id);
  return { survey: survey ? publishedData(owner, survey, context) : null };
}

export default function LatestPublished() {
  const { survey } = useLoaderData<typeof loader>();
  if (survey) return <PublishedSurvey s={survey} />;
  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center">
      <h1 className="text-2xl font-bold">No survey found. Please create a survey first.</h1>
      <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
        Create Your First Survey
      </Link>
    </main>
  );
}
