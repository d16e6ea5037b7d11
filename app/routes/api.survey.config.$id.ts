import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { fairnessFieldErrors, surveyFairnessProblems } from '../../modules/scoring/index.ts';
import { surveyConfigApiSchema } from '../../modules/surveys/forms.ts';
import { apiError, readJson } from '../utils/api.server.ts';
import { translationFieldErrors, translationProblems } from '../../modules/surveys/index.ts';
import { requireOwnerApi, surveyNotFound } from '../utils/owner-api.server.ts';
import { HOSTED_VISION_UNAVAILABLE, hostedVisionRefused } from '../utils/hosted-vision.server.ts';

/** GET /api/survey/config/{id}: one of the owner's surveys (for editing). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  const survey = await context.surveys.get(owner.id, params.id ?? '');
  return survey ? Response.json(survey) : surveyNotFound();
}

/** PUT /api/survey/config/{id}: replaces the survey's fields after the same validation as the builder. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return apiError(405, 'Use PUT to update a survey.', { headers: { Allow: 'GET, PUT' } });
  const owner = await requireOwnerApi(request, context);
  const stored = await context.surveys.get(owner.id, params.id ?? '');
  if (!stored) return surveyNotFound();
  const input = await readJson(request, surveyConfigApiSchema);
  if (hostedVisionRefused(context, input.hostedVision, stored)) return apiError(400, HOSTED_VISION_UNAVAILABLE, { fieldErrors: { hostedVision: [HOSTED_VISION_UNAVAILABLE] } });
  // Tier fairness (ADR 041), with the stored questions, policy and thresholds for what the body leaves out.
  const unfair = surveyFairnessProblems({
    ...input,
    customQuestions: input.customQuestions ?? stored.customQuestions,
    reviewPolicy: input.reviewPolicy ?? stored.reviewPolicy,
    tierThresholds: input.tierThresholds === undefined ? stored.tierThresholds : input.tierThresholds,
  });
  if (unfair.length) return apiError(400, unfair[0]!.message, { fieldErrors: fairnessFieldErrors(unfair) });
  // Translations (ADR 090) against the languages and questions the survey will have: the body's, else the stored ones.
  const untranslatable = input.translations
    ? translationProblems(input.translations, { surveyTemplateId: input.surveyTemplateId, customQuestions: input.customQuestions ?? stored.customQuestions, languages: input.languages ?? stored.languages })
    : [];
  if (untranslatable.length) return apiError(400, untranslatable[0]!.message, { fieldErrors: translationFieldErrors(untranslatable) });
  const survey = await context.surveys.update(owner.id, params.id ?? '', input);
  return survey ? Response.json(survey) : surveyNotFound();
}
