import type { AppLoadContext } from '@remix-run/node';
import { businessReadiness, locationNotice, surveyAvailability, unavailableFixes } from '../../modules/surveys/index.ts';
import type { SurveyConfigView } from '../../modules/surveys/server.ts';
import { shortSurveyUrl } from '../../modules/sharing/index.ts';

/** A survey with its badge and its short link (ADR 082: no UUID in sight), for management and the published page. */
export function surveyCard(survey: SurveyConfigView, readiness: ReturnType<typeof businessReadiness>, context: AppLoadContext) {
  const inputs = { isActive: survey.isActive, isPublished: survey.isPublished, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected };
  const fixes = unavailableFixes(inputs);
  return {
    ...survey,
    availability: surveyAvailability(inputs),
    unavailableReasons: fixes.map((f) => f.reason),
    unavailableFixes: fixes,
    locationNotice: locationNotice(readiness),
    publicUrl: shortSurveyUrl(context.config.appUrl, survey.shortCode),
    previewUrl: shortSurveyUrl(context.config.appUrl, survey.shortCode, { preview: true }),
  };
}
