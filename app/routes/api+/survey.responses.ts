import type { LoaderFunctionArgs } from '@remix-run/node';
import { responsesApi } from '#app/utils/responses-api.server.ts';

/** GET /api/survey/responses (spec section 7): the signed-in owner's responses to all surveys, newest first, paginated by cursor. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return responsesApi(request, context, null);
}
