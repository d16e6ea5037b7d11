import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { AUTH_RATE_RULES } from '../../../modules/accounts/index.ts';
import { toCurrentUser } from '../../../modules/accounts/server.ts';
import { GOOGLE_UNAVAILABLE } from '#app/components/auth-forms.tsx';
import { apiError, methodNotAllowed, rateLimited, readJson } from '#app/utils/api.server.ts';
import { startSession } from '#app/utils/auth.server.ts';

const bodySchema = z.object({
  credential: z.string({ error: 'credential is required' }).min(1, 'credential is required').max(8192, 'credential is too long'),
});

export const loader = () => methodNotAllowed();

/** POST /api/auth/google: body credential (a Google ID token); signs in or creates the owner. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  if (!context.googleIdTokens) return apiError(503, GOOGLE_UNAVAILABLE);
  const limited = await rateLimited(context, [[`google:ip:${context.clientIp}`, AUTH_RATE_RULES.googlePerIp]]);
  if (limited) return limited;
  const { credential } = await readJson(request, bodySchema);
  const verified = await context.googleIdTokens.verify(credential);
  if (!verified.ok) return apiError(401, verified.reason);
  const result = await context.accounts.signInWithGoogle(verified.identity);
  if (!result.ok) return apiError(409, result.message);
  const headers = await startSession(request, context, result.business, { remember: true });
  return Response.json({ user: toCurrentUser(result.business), created: result.created }, { headers });
}
