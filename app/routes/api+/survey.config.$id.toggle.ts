import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { apiError, readJson } from '#app/utils/api.server.ts';
import { requireOwnerApi, surveyNotFound } from '#app/utils/owner-api.server.ts';

const bodySchema = z.object({ isActive: z.boolean({ error: 'isActive must be true or false' }) });

export const loader = () => apiError(405, 'Use PUT to switch a survey on or off.', { headers: { Allow: 'PUT' } });

/** PUT /api/survey/config/{id}/toggle: body isActive. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return apiError(405, 'Use PUT to switch a survey on or off.', { headers: { Allow: 'PUT' } });
  const owner = await requireOwnerApi(request, context);
  const { isActive } = await readJson(request, bodySchema);
  const survey = await context.surveys.setActive(owner.id, params.id ?? '', isActive);
  return survey ? Response.json(survey) : surveyNotFound();
}
