import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { AUTH_RATE_RULES } from '../../modules/accounts/index.ts';
import { newAccountSchema, toCurrentUser } from '../../modules/accounts/server.ts';
import { apiError, methodNotAllowed, rateLimited, readJson } from '../utils/api.server.ts';
import { startSession } from '../utils/auth.server.ts';
import { afterSignIn, saveHandedOverDraft } from '../utils/draft.server.ts';

// Same rules as the form; the JSON body sends `terms` as a boolean.
const bodySchema = newAccountSchema.and(z.object({ surveyBuilderConfig: z.unknown().optional() }));

export const loader = () => methodNotAllowed();

/** POST /api/auth/signup: body email, password, confirmPassword, displayName, terms (+ surveyBuilderConfig). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  const limited = await rateLimited(context, [
    [`signup:ip:${context.clientIp}`, AUTH_RATE_RULES.signUpPerIp],
    [`signup:email:${body.email}`, AUTH_RATE_RULES.signUpPerEmail],
  ]);
  if (limited) return limited;
  const created = await context.accounts.signUp(body);
  if (!created.ok) return apiError(409, created.errors.email?.[0] ?? 'Sign up failed', { fieldErrors: created.errors });
  const headers = await startSession(request, context, created.business, { remember: body.remember });
  const draftId = await saveHandedOverDraft(context, created.business.id, body.surveyBuilderConfig);
  return Response.json({ user: toCurrentUser(created.business), surveyConfigId: draftId, redirectTo: afterSignIn(null, draftId) }, { status: 201, headers });
}
