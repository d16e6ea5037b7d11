import type { CustomerSurveyView } from '../../modules/responses/index.ts';
import { effectiveTemplate } from '../../modules/surveys/index.ts';
import { apiError } from './api.server.ts';

/**
 * The spec's "Public survey view" as JSON: config (title, the three reward values, platforms,
 * handles, review URLs), template, business {displayName}, isPreview. 404 'Survey Not Found' when
 * there is no such survey for the public.
 */
export function publicSurveyJson(view: CustomerSurveyView | null, extra: { frequencyDays?: number } = {}) {
  const template = view ? effectiveTemplate(view) : undefined;
  if (!view || !template) return apiError(404, 'Survey Not Found');
  return Response.json(
    {
      config: {
        id: view.surveyId,
        title: view.title,
        bronzeRewardValue: view.bronzeRewardValue,
        silverRewardValue: view.silverRewardValue,
        goldRewardValue: view.goldRewardValue,
        selectedReviewPlatforms: view.selectedReviewPlatforms,
        selectedSocialPlatforms: view.selectedSocialPlatforms,
        socialHandles: view.socialHandles,
        reviewUrls: view.reviewUrls,
        reviewPolicy: view.reviewPolicy,
        // Screenshots read by a hosted AI service (ADR 066): a client shows the disclosure too.
        hostedVision: view.hostedVision,
        // The languages the survey offers, the default first (ADR 086): a client offers only these.
        languages: view.languages,
        // The owner's translations of their own words (ADR 090): a client shows its language's, else the owner's words.
        translations: view.translations,
        ...(extra.frequencyDays ? { surveyFrequencyDays: extra.frequencyDays } : {}),
      },
      template,
      business: { displayName: view.businessName },
      isPreview: view.mode !== 'live',
      view,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
}
