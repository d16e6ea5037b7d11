import type { ActionFunctionArgs } from '@remix-run/node';
import { apiError, methodNotAllowed } from '#app/utils/api.server.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';
import { backTo, isFormPost } from '#app/utils/square.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/square/disconnect: revokes the grant at Square, then clears the connection (also when
 * the revoke fails: logged). JSON for API calls; a browser form post (dashboard, profile) gets a
 * redirect back with 'Square Disconnected' or 'Disconnection Failed'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  if (isFormPost(request)) {
    const owner = await requireOwner(request, context);
    const to = backTo((await readForm(request)).get('returnTo'));
    const result = await context.pos.disconnect(owner);
    return result.ok
      ? redirectWithToast(context, to, { title: 'Square Disconnected', description: 'Your Square account is no longer connected.', type: 'success' })
      : redirectWithToast(context, to, { title: 'Disconnection Failed', description: result.message, type: 'error' });
  }
  const owner = await requireOwnerApi(request, context);
  const result = await context.pos.disconnect(owner);
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json({ isConnected: false, message: 'Square Disconnected' });
}
