import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { apiError, methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { ownerPreview } from '#app/utils/auth.server.ts';

const bodySchema = z.object({
  email: z.string({ error: 'Invalid email address' }).trim().max(255, 'Email must be at most 255 characters').pipe(z.email('Invalid email address')),
  surveyId: z.string({ error: 'surveyId is required' }).min(1, 'surveyId is required'),
  bypassSquare: z.boolean().optional(),
});

export const loader = () => methodNotAllowed();

/** POST /api/survey/check-email-eligibility/{businessId}: body email, surveyId -> eligible, message, daysRemaining. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  // Rate limits: the edge's 'lookup' class (server/edge-limits.ts).
  const body = await readJson(request, bodySchema);
  const found = await context.responses.findPublicSurvey({ businessId: params.businessId ?? '', surveyId: body.surveyId, bypassSquare: await ownerPreview(request, context, params.businessId ?? '', body.bypassSquare) });
  if (!found) return apiError(404, 'Survey Not Found');
  return Response.json(await context.responses.checkEligibility({ businessId: found.survey.businessId, email: body.email, frequencyDays: found.survey.surveyFrequencyDays }));
}
