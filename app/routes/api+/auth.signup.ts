import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { newAccountSchema, toCurrentUser } from '../../../modules/accounts/server.ts';
import { apiError, methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { afterSignIn } from '#app/utils/draft.server.ts';
import { signUpOwner } from '#app/utils/sign-up.server.ts';

// Same rules as the form; the JSON body sends `terms` as a boolean.
const bodySchema = newAccountSchema.and(z.object({ surveyBuilderConfig: z.unknown().optional() }));

export const loader = () => methodNotAllowed();

/** POST /api/auth/signup: body email, password, confirmPassword, displayName, terms (+ surveyBuilderConfig). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  const signedUp = await signUpOwner(request, context, { account: body, remember: body.remember, draft: body.surveyBuilderConfig });
  if (!signedUp.ok) {
    return signedUp.status === 429
      ? apiError(429, signedUp.message, { headers: { 'Retry-After': String(signedUp.retryAfterSeconds) } })
      : apiError(409, signedUp.errors.email?.[0] ?? 'Sign up failed', { fieldErrors: signedUp.errors });
  }
  const { business, headers } = signedUp;
  const draftId = signedUp.draft.surveyId;
  return Response.json({ user: toCurrentUser(business), surveyConfigId: draftId, redirectTo: afterSignIn(null, draftId) }, { status: 201, headers });
}
