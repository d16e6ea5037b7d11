import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/** GET /api/square/status: {isConnected} for the signed-in owner; 401 signed out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(await context.pos.status(owner), { headers: { 'Cache-Control': 'private, no-store' } });
}
