import type { LoaderFunctionArgs } from '@remix-run/node';
import { customerView } from '../../../modules/responses/index.ts';
import { publicSurveyJson } from '#app/utils/public-survey.server.ts';
import { ownerPreview } from '#app/utils/auth.server.ts';

/**
 * GET /api/survey/public/{businessId}/{surveyId}[?bypass_square=true]: what the customer's page
 * needs (spec "Public survey view"): config, template, business display name, isPreview.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const bypassSquare = await ownerPreview(request, context, params.businessId ?? '', new URL(request.url).searchParams.get('bypass_square'));
  const found = await context.responses.findPublicSurvey({ businessId: params.businessId ?? '', surveyId: params.surveyId ?? '', bypassSquare });
  const view = found ? customerView(found.survey, found.businessName, { bypassSquare, brand: found.brand }) : null;
  return publicSurveyJson(view, { frequencyDays: found?.survey.surveyFrequencyDays });
}
