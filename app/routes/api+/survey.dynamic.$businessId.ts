import type { LoaderFunctionArgs } from '@remix-run/node';
import { customerView } from '../../../modules/responses/index.ts';
import { publicSurveyJson } from '#app/utils/public-survey.server.ts';
import { ownerPreview } from '#app/utils/auth.server.ts';

/** GET /api/survey/dynamic/{businessId}[?bypass_square=true]: the business's current survey, as the public view. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const bypassSquare = await ownerPreview(request, context, params.businessId ?? '', new URL(request.url).searchParams.get('bypass_square'));
  const found = await context.responses.findCurrentSurvey({ businessId: params.businessId ?? '', bypassSquare });
  const view = found ? customerView(found.survey, found.businessName, { dynamic: true, bypassSquare, brand: found.brand }) : null;
  return publicSurveyJson(view, { frequencyDays: found?.survey.surveyFrequencyDays });
}
