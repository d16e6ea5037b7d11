import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { publishSurvey } from '../../../modules/surveys/server.ts';
import { apiError, methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

const bodySchema = z.object({ surveyId: z.string({ error: 'surveyId is required' }).min(1, 'surveyId is required') });

export const loader = () => methodNotAllowed();

/** POST /api/survey/publish: body surveyId; response surveyConfig.id, or an error message. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const owner = await requireOwnerApi(request, context);
  const { surveyId } = await readJson(request, bodySchema);
  const result = await publishSurvey(context.surveys, owner, surveyId);
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json({ surveyConfig: result.survey });
}
