import type { ActionFunctionArgs } from '@remix-run/node';
import { apiError, methodNotAllowed } from '#app/utils/api.server.ts';
import { action as submitToSurvey } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/survey/dynamic/submit/{businessId}: a submission to the business's current survey (the
 * one /survey/dynamic/{businessId} shows). Same body and answers as the per-survey endpoint.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed();
  // Find the current survey's id; the per-survey endpoint then checks availability with the body's bypassSquare.
  const current = await args.context.responses.findCurrentSurvey({ businessId: args.params.businessId ?? '', bypassSquare: true });
  if (!current) return apiError(404, 'Survey Not Found');
  return submitToSurvey({ ...args, params: { businessId: current.survey.businessId, surveyId: current.survey.id } });
}
