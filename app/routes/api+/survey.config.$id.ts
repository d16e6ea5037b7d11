import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyConfigApiSchema } from '../../../modules/surveys/forms.ts';
import { refusalFieldErrors } from '../../../modules/surveys/index.ts';
import { apiError, readJson } from '#app/utils/api.server.ts';
import { requireOwnerApi, surveyNotFound } from '#app/utils/owner-api.server.ts';

/** GET /api/survey/config/{id}: one of the owner's surveys (for editing). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  return survey ? Response.json(survey) : surveyNotFound();
}

/** PUT /api/survey/config/{id}: replaces the survey's fields through the one save (its rules, ADR 089); what the body leaves out is kept. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return apiError(405, 'Use PUT to update a survey.', { headers: { Allow: 'GET, PUT' } });
  const owner = await requireOwnerApi(request, context);
  // An unknown survey answers 404 before its body is read (as before).
  if (!(await context.surveys.owns(owner.id, params.id ?? ''))) return surveyNotFound();
  const input = await readJson(request, surveyConfigApiSchema);
  const saved = await context.surveys.save(owner.id, input, params.id ?? '');
  if (saved.status === 'refused') return apiError(400, saved.refusal.message, { fieldErrors: refusalFieldErrors(saved.refusal) });
  return saved.status === 'saved' ? Response.json(saved.survey) : surveyNotFound();
}
