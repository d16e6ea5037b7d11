import type { AppLoadContext } from '@remix-run/node';
import { businessReadiness, locationNotice, surveyAvailability, unavailableFixes } from '../../modules/surveys/index.ts';
import type { SurveyConfigView } from '../../modules/surveys/server.ts';
import { publicSurveyUrl } from '../../modules/sharing/index.ts';

/** A survey with its badge and public link, for management and the published page. */
export function surveyCard(survey: SurveyConfigView, readiness: ReturnType<typeof businessReadiness>, context: AppLoadContext) {
  const inputs = { isActive: survey.isActive, isPublished: survey.isPublished, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected };
  const fixes = unavailableFixes(inputs);
  return {
    ...survey,
    availability: surveyAvailability(inputs),
    unavailableReasons: fixes.map((f) => f.reason),
    unavailableFixes: fixes,
    locationNotice: locationNotice(readiness),
    publicUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id),
    previewUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id, { preview: true }),
  };
}
