import type { LoaderFunctionArgs } from '@remix-run/node';
import { getAuthenticator, startSession } from '#app/utils/auth.server.ts';
import { safeReturnTo } from '#app/utils/return-to.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { returnToCookie } from '#app/routes/_auth+/auth.google.tsx';
import { oversizedState } from '#app/utils/api.server.ts';

/** GET /auth/google/callback: Google sends the owner back here with a code and our state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const tooLong = oversizedState(request);
  if (tooLong) return tooLong;
  if (!context.config.googleClientId) return redirectWithToast(context, '/auth', { title: 'Google sign in failed', type: 'error' });
  let business;
  try {
    business = await getAuthenticator(context).authenticate('google', request, { context, throwOnError: true });
  } catch (error) {
    if (error instanceof Response) throw error;
    context.logger.warn({ err: error }, 'google sign-in failed');
    const description = error instanceof Error ? error.message : 'Please try again.';
    return redirectWithToast(context, '/auth', { title: 'Google sign in failed', description, type: 'error' });
  }
  const headers = await startSession(request, context, business, { remember: true });
  const returnTo = safeReturnTo(await returnToCookie.parse(request.headers.get('Cookie')));
  headers.append('Set-Cookie', await returnToCookie.serialize('', { maxAge: 0 }));
  return redirectWithToast(
      context,
    returnTo ?? '/',
    { title: 'Welcome!', description: 'You have successfully signed in with Google.', type: 'success' },
    { headers },
  );
}
