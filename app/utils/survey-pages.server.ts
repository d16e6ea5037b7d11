import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/entities.ts';
import { subscriptionState } from '../../modules/billing/status.ts';
import { posStatus } from '../../modules/pos/status.ts';
import { surveyAvailability, unavailableReasons } from '../../modules/surveys/availability.ts';
import type { SurveyConfigView } from '../../modules/surveys/service.ts';
import { publicSurveyUrl } from '../../modules/sharing/urls.ts';

/** The owner's plan and point-of-sale state, as every survey page needs them. */
export function ownerReadiness(owner: Business) {
  const billing = subscriptionState(owner);
  return { hasPlan: billing.hasActiveSubscription || billing.hasActiveTrial, posConnected: posStatus(owner).isConnected, billing };
}

/** A survey with its badge and public link, for management and the published page. */
export function surveyCard(survey: SurveyConfigView, readiness: ReturnType<typeof ownerReadiness>, context: AppLoadContext) {
  const inputs = { isActive: survey.isActive, hasPlan: readiness.hasPlan, posConnected: readiness.posConnected };
  return {
    ...survey,
    availability: surveyAvailability(inputs),
    unavailableReasons: unavailableReasons(inputs),
    publicUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id),
    previewUrl: publicSurveyUrl(context.config.appUrl, survey.businessId, survey.id, { preview: true }),
  };
}
