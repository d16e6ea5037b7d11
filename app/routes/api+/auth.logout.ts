import type { ActionFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '#app/utils/api.server.ts';
import { endSession } from '#app/utils/auth.server.ts';

export const loader = () => methodNotAllowed();

/** POST /api/auth/logout: destroys the session row and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  return Response.json({ success: true }, { headers: await endSession(request, context) });
}
