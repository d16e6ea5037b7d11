import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/** GET /api/survey/configs: the owner's surveys, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  return Response.json(await context.surveys.list(owner.id));
}
