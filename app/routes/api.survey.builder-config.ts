import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { fairnessFieldErrors, surveyFairnessProblems } from '../../modules/scoring/index.ts';
import { surveyConfigApiSchema } from '../../modules/surveys/forms.ts';
import { DEFAULT_REVIEW_POLICY } from '../../modules/surveys/index.ts';
import { apiError, readJson } from '../utils/api.server.ts';
import { translationFieldErrors, translationProblems } from '../../modules/surveys/index.ts';
import { requireOwnerApi } from '../utils/owner-api.server.ts';
import { HOSTED_VISION_UNAVAILABLE, hostedVisionRefused } from '../utils/hosted-vision.server.ts';

/** GET /api/survey/builder-config: the owner's latest survey to start the builder from, or null. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(await context.surveys.latest(owner.id));
}

/** POST /api/survey/builder-config: body form fields plus customQuestions; creates a survey. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Use POST to create a survey.', { headers: { Allow: 'GET, POST' } });
  const owner = await requireOwnerApi(request, context);
  const input = await readJson(request, surveyConfigApiSchema);
  if (hostedVisionRefused(context, input.hostedVision, null)) return apiError(400, HOSTED_VISION_UNAVAILABLE, { fieldErrors: { hostedVision: [HOSTED_VISION_UNAVAILABLE] } });
  // Tier fairness (ADR 041): Gold needs sharing, no rating path outranks another, rewards rise with the tier.
  const unfair = surveyFairnessProblems({ ...input, reviewPolicy: input.reviewPolicy ?? DEFAULT_REVIEW_POLICY, tierThresholds: input.tierThresholds ?? null });
  if (unfair.length) return apiError(400, unfair[0]!.message, { fieldErrors: fairnessFieldErrors(unfair) });
  // Translations name only this survey's languages (other than the default) and questions (ADR 090).
  const untranslatable = input.translations ? translationProblems(input.translations, { ...input, languages: input.languages ?? ['en'] }) : [];
  if (untranslatable.length) return apiError(400, untranslatable[0]!.message, { fieldErrors: translationFieldErrors(untranslatable) });
  return Response.json(await context.surveys.create(owner.id, input), { status: 201 });
}
