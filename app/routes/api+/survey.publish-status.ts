import type { LoaderFunctionArgs } from '@remix-run/node';
import { publishStatus } from '../../../modules/billing/index.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/** GET /api/survey/publish-status: action publish / trial / subscribe, from the owner's billing state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(publishStatus(owner));
}
