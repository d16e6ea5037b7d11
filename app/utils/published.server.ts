import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/server.ts';
import type { SurveyConfigView } from '../../modules/surveys/server.ts';
import { qrSvg } from '../../modules/sharing/server.ts';
import type { PublishedSurveyData } from '../components/published-survey.tsx';
import { businessReadiness } from '../../modules/surveys/index.ts';
import { surveyCard } from './survey-pages.server.ts';

export function publishedData(owner: Business, survey: SurveyConfigView, context: AppLoadContext): PublishedSurveyData {
  const readiness = businessReadiness(owner);
  const card = surveyCard(survey, readiness, context);
  return {
    ...card,
    qrSvg: qrSvg(card.publicUrl, { label: `QR code for ${survey.title}` }),
    hasPlan: readiness.hasPlan,
    posConnected: readiness.posConnected,
    trialDaysRemaining: readiness.billing.trialDaysRemaining,
  };
}
