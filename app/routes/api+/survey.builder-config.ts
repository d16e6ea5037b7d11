import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyConfigApiSchema } from '../../../modules/surveys/forms.ts';
import { refusalFieldErrors } from '../../../modules/surveys/index.ts';
import { apiError, readJson } from '#app/utils/api.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/** GET /api/survey/builder-config: the owner's latest survey to start the builder from, or null. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(await context.surveys.latest(owner.id));
}

/** POST /api/survey/builder-config: body form fields plus customQuestions; creates a survey (the save's rules, ADR 089). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Use POST to create a survey.', { headers: { Allow: 'GET, POST' } });
  const owner = await requireOwnerApi(request, context);
  const input = await readJson(request, surveyConfigApiSchema);
  const saved = await context.surveys.save(owner.id, input);
  if (saved.status === 'refused') return apiError(400, saved.refusal.message, { fieldErrors: refusalFieldErrors(saved.refusal) });
  return Response.json(saved.survey, { status: 201 });
}
