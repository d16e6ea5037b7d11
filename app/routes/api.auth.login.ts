import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { AUTH_RATE_RULES } from '../../modules/accounts/rate-limit.ts';
import { signInSchema } from '../../modules/accounts/schemas.ts';
import { BAD_CREDENTIALS_MESSAGE, toCurrentUser } from '../../modules/accounts/service.ts';
import { apiError, methodNotAllowed, rateLimited, readJson } from '../utils/api.server.ts';
import { startSession } from '../utils/auth.server.ts';
import { afterSignIn, saveHandedOverDraft } from '../utils/draft.server.ts';

const bodySchema = signInSchema.extend({
  remember: z.boolean().default(false),
  surveyBuilderConfig: z.unknown().optional(),
});

export const loader = () => methodNotAllowed();

/** POST /api/auth/login: body email, password (+ remember, surveyBuilderConfig); sets the session cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  const limited = rateLimited(context, [
    [`signin:ip:${context.clientIp}`, AUTH_RATE_RULES.signInPerIp],
    [`signin:email:${body.email}`, AUTH_RATE_RULES.signInPerEmail],
  ]);
  if (limited) return limited;
  const business = await context.accounts.signIn(body.email, body.password);
  if (!business) return apiError(401, BAD_CREDENTIALS_MESSAGE);
  const headers = await startSession(request, context, business, { remember: body.remember });
  const draftId = await saveHandedOverDraft(context, business.id, body.surveyBuilderConfig);
  return Response.json({ user: toCurrentUser(business), surveyConfigId: draftId, redirectTo: afterSignIn(null, draftId) }, { headers });
}
