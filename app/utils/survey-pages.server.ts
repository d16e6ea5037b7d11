import type { AppLoadContext } from '@remix-run/node';
import { businessReadiness, surveyAvailability, unavailableReasons } from '../../modules/surveys/availability.ts';
import type { SurveyConfigView } from '../../modules/surveys/service.ts';
import { publicSurveyUrl } from '../../modules/sharing/urls.ts';

/** A survey with its badge and public link, for management and the published page. */
export function surveyCard(survey: SurveyConfigView, readiness: ReturnType<typeof businessReadiness>, context: AppLoadContext) {
  const inputs = { isActive: survey.isActive, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected };
  return {
    ...survey,
    availability: surveyAvailability(inputs),
    unavailableReasons: unavailableReasons(inputs),
    publicUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id),
    previewUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id, { preview: true }),
  };
}
