import { createCookie, redirect, type ActionFunctionArgs } from '@remix-run/node';
import { getAuthenticator } from '#app/utils/auth.server.ts';
import { safeReturnTo } from '#app/utils/return-to.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { GOOGLE_UNAVAILABLE } from '#app/components/auth-forms.tsx';
import { readForm } from '#app/utils/input.server.ts';

/** Where to go after Google sends the owner back; survives the round trip to Google for 10 minutes. */
export const returnToCookie = createCookie('rl_return_to', { httpOnly: true, sameSite: 'lax', path: '/', maxAge: 600 });

export const loader = () => redirect('/auth');

/** POST /auth/google: starts Google's OAuth flow (remix-auth-google) and redirects to Google. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!context.config.googleClientId) {
    return redirectWithToast(context, '/auth', { title: 'Google sign in failed', description: GOOGLE_UNAVAILABLE, type: 'error' });
  }
  const returnTo = safeReturnTo((await readForm(request.clone())).get('returnTo'));
  try {
    await getAuthenticator(context).authenticate('google', request, { context, throwOnError: true });
  } catch (response) {
    if (response instanceof Response && returnTo) {
      response.headers.append('Set-Cookie', await returnToCookie.serialize(returnTo, { secure: context.config.production }));
    }
    throw response;
  }
  return redirect('/auth');
}
