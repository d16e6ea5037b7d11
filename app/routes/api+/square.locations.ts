import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiError } from '#app/utils/api.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/**
 * GET /api/square/locations: the connected merchant's locations in the spec's shape, with
 * currentLocationId and currentLocationName. 401 signed out, 409 not connected (or the saved
 * connection no longer works), 502 Square unreachable.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  const result = await context.pos.locations(owner);
  if (!result.ok) return apiError(result.status, result.message);
  const { locations, currentLocationId, currentLocationName } = result;
  return Response.json({ locations, currentLocationId, currentLocationName }, { headers: { 'Cache-Control': 'private, no-store' } });
}
