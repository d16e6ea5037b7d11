import type { LoaderFunctionArgs } from '@remix-run/node';
import { responsesApi } from '#app/utils/responses-api.server.ts';

/** GET /api/survey/responses/{surveyId} (spec section 7): the responses to one of the owner's surveys; another owner's id is a 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return responsesApi(request, context, params.surveyId ?? '');
}
