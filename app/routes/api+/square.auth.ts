import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { getOwner } from '#app/utils/auth.server.ts';
import { connectStateStore } from '#app/utils/square.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

/**
 * GET /api/square/auth (spec: a full-page navigation): starts OAuth with a fresh state bound to
 * this session and sends the browser to Square (or to the demo consent page). Signed out: sign in
 * first, then back to the onboarding page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await getOwner(request, context);
  if (!owner) return redirect(`/auth?returnTo=${encodeURIComponent('/square-connect')}`);
  try {
    const { url } = await context.pos.start(owner, connectStateStore(request, context));
    return redirect(url, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    context.logger.error({ err: error, businessId: owner.id }, 'could not start the square connection');
    return redirectWithToast(context, '/', { title: 'Square connection failed', description: 'Failed to initiate Square connection', type: 'error' });
  }
}
