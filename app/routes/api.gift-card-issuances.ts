import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwnerApi } from '../utils/owner-api.server.ts';

/** GET /api/gift-card-issuances (spec section 7): the signed-in owner's gift cards, newest first, as a list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(await context.rewards.issuances(owner.id));
}
