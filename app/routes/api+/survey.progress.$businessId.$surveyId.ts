import type { ActionFunctionArgs } from '@remix-run/node';
import { parseFunnelEvent } from '../../../modules/analytics/index.ts';
import { effectiveTemplate } from '../../../modules/surveys/index.ts';
import { apiError, methodNotAllowed, readJsonObject } from '#app/utils/api.server.ts';

/**
 * POST /api/survey/progress/{businessId}/{surveyId} (ADR 026): the customer page's first-party
 * beacon with JavaScript: `{step: 'start'}` at the first answer, `{step: 'section', section: n}` when
 * section n is reached for the first time. Counted as anonymous per-day totals of a live survey;
 * nothing about the visitor is stored. 204; 400 for another body; 404 when the survey is not live.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  // Rate limits: the edge's 'public' class (server/edge-limits.ts, ADR 032), shared by every instance.
  const found = await context.responses.findPublicSurvey({ businessId: params.businessId ?? '', surveyId: params.surveyId ?? '' });
  if (!found) return apiError(404, 'Survey Not Found');
  const body = await readJsonObject(request);
  const template = effectiveTemplate(found.survey);
  const event = template ? parseFunnelEvent(body, template.sections.length) : null;
  if (!event) return apiError(400, "The body must be {\"step\": \"start\"} or {\"step\": \"section\", \"section\": n} with n from 2 to the survey's number of sections.");
  context.analytics.countFunnel({ businessId: found.survey.businessId, surveyId: found.survey.id, events: [event] });
  return new Response(null, { status: 204 });
}

export async function loader() {
  return methodNotAllowed();
}
