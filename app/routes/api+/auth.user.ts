import type { LoaderFunctionArgs } from '@remix-run/node';
import { toCurrentUser } from '../../../modules/accounts/server.ts';
import { apiError } from '#app/utils/api.server.ts';
import { getOwner } from '#app/utils/auth.server.ts';

/** GET /api/auth/user: the current user (spec section 3 shape), or 401 when signed out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  if (!owner) return apiError(401, 'Not signed in.');
  return Response.json(toCurrentUser(owner), { headers: { 'Cache-Control': 'private, no-store' } });
}
