import type { LoaderFunctionArgs } from '@remix-run/node';
import { getTemplate } from '../../modules/surveys/template.ts';
import { apiError } from '../utils/api.server.ts';

/**
 * GET /api/survey/public/{businessId}/{surveyId}[?bypass_square=true]: what the customer's page
 * needs (spec "Public survey view"): config, template, business display name, isPreview.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const bypassSquare = new URL(request.url).searchParams.get('bypass_square') === 'true';
  const found = await context.responses.findPublicSurvey({ businessId: params.businessId ?? '', surveyId: params.surveyId ?? '', bypassSquare });
  const template = found ? getTemplate(found.survey.surveyTemplateId) : undefined;
  if (!found || !template) return apiError(404, 'Survey Not Found');
  const s = found.survey;
  return Response.json({
    config: {
      id: s.id,
      title: s.title,
      bronzeRewardValue: s.bronzeRewardValue,
      silverRewardValue: s.silverRewardValue,
      goldRewardValue: s.goldRewardValue,
      selectedReviewPlatforms: s.selectedReviewPlatforms,
      selectedSocialPlatforms: s.selectedSocialPlatforms,
      socialHandles: s.socialHandles,
      reviewUrls: s.reviewUrls,
      surveyFrequencyDays: s.surveyFrequencyDays,
    },
    template,
    business: { displayName: found.businessName },
    isPreview: bypassSquare,
  });
}
