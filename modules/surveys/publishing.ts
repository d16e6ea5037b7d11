import { publishStatus, type BillingAccount } from '../billing/index.ts';
import { publishCheck } from './publish-check.ts';
import type { Surveys, SurveyConfigView } from './service.ts';

export type PublishResult =
  | { ok: true; survey: SurveyConfigView }
  | { ok: false; status: 402 | 404 | 422; title: string; message: string };

/**
 * Publishes one of the owner's surveys: it must exist and be theirs, have a review and a social
 * platform, and the owner must have an active subscription or trial.
 */
export async function publishSurvey(surveys: Surveys, owner: BillingAccount, surveyId: string): Promise<PublishResult> {
  const survey = await surveys.get(owner.id, surveyId);
  if (!survey) return { ok: false, status: 404, title: 'Publish Failed', message: "Survey not found or you don't have access to it." };
  const check = publishCheck(survey);
  if (!check.ok) return { ok: false, status: 422, title: check.title, message: check.message };
  const readiness = publishStatus(owner);
  if (readiness.action !== 'publish') return { ok: false, status: 402, title: 'Publish Failed', message: readiness.message };
  const published = await surveys.publish(owner.id, surveyId);
  return published ? { ok: true, survey: published } : { ok: false, status: 404, title: 'Publish Failed', message: "Survey not found or you don't have access to it." };
}
