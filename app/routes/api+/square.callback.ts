import type { LoaderFunctionArgs } from '@remix-run/node';
import { getOwner } from '#app/utils/auth.server.ts';
import { connectStateStore } from '#app/utils/square.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { oversizedState } from '#app/utils/api.server.ts';

/**
 * GET /api/square/callback: Square (or the demo consent page) sends the owner back with `code` and
 * our `state`, or with `error`. Success goes to the location choice when none is set, else to the
 * dashboard; a failure goes to the dashboard with 'Square connection failed' and the reason.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tooLong = oversizedState(request);
  if (tooLong) return tooLong;
  const owner = await getOwner(request, context);
  if (!owner) {
    return redirectWithToast(context, '/auth?returnTo=%2Fsquare-connect', {
      title: 'Square connection failed',
      description: 'Please sign in, then connect Square again.',
      type: 'error',
    });
  }
  const q = new URL(request.url).searchParams;
  const result = await context.pos.callback(
    owner,
    { code: q.get('code'), state: q.get('state'), error: q.get('error') },
    connectStateStore(request, context),
  );
  if (!result.ok) {
    return redirectWithToast(context, '/', { title: 'Square connection failed', description: result.message, type: 'error' });
  }
  return redirectWithToast(context, result.needsLocation ? '/square-location-selection' : '/', {
    title: 'Square Integration Detected',
    description: result.needsLocation
      ? 'Your Square account is connected. Choose the location your gift cards are issued from.'
      : 'Your Square account is connected.',
    type: 'success',
  });
}
