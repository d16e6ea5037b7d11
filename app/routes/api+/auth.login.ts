import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { AUTH_RATE_RULES, tooManyAttemptsMessage } from '../../../modules/accounts/index.ts';
import { signInSchema } from '../../../modules/accounts/forms.ts';
import { BAD_CREDENTIALS_MESSAGE, toCurrentUser } from '../../../modules/accounts/server.ts';
import { apiError, methodNotAllowed, rateLimited, readJson } from '#app/utils/api.server.ts';
import { signInGate, signInOutcome, startSession } from '#app/utils/auth.server.ts';
import { afterSignIn, saveHandedOverDraft } from '#app/utils/draft.server.ts';

const bodySchema = signInSchema.extend({
  remember: z.boolean().default(false),
  surveyBuilderConfig: z.unknown().optional(),
});

export const loader = () => methodNotAllowed();

/** POST /api/auth/login: body email, password (+ remember, surveyBuilderConfig); sets the session cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  const limited = await rateLimited(context, [[`signin:ip:${context.clientIp}`, AUTH_RATE_RULES.signInPerIp]]);
  if (limited) return limited;
  // Per account, with growing delays; a browser with this account's device cookie has its own count (ADR 021).
  const gate = await signInGate(request, context, body.email);
  if (gate.wait > 0) return apiError(429, tooManyAttemptsMessage(gate.wait), { headers: { 'Retry-After': String(gate.wait) } });
  const business = await context.accounts.signIn(body.email, body.password);
  if (!business) {
    await signInOutcome(context, gate, body.email, false);
    return apiError(401, BAD_CREDENTIALS_MESSAGE);
  }
  const headers = await startSession(request, context, business, { remember: body.remember });
  await signInOutcome(context, gate, body.email, true, headers);
  const draftId = await saveHandedOverDraft(context, business.id, body.surveyBuilderConfig);
  return Response.json({ user: toCurrentUser(business), surveyConfigId: draftId, redirectTo: afterSignIn(null, draftId) }, { headers });
}
