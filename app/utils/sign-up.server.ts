import type { AppLoadContext } from '@remix-run/node';
import { AUTH_RATE_RULES, tooManyAttemptsMessage } from '../../modules/accounts/index.ts';
import type { FieldErrors, SignUpInput } from '../../modules/accounts/forms.ts';
import { startSession } from './auth.server.ts';
import { handOverDraft, type HandOver } from './draft.server.ts';

type Business = Extract<Awaited<ReturnType<AppLoadContext['accounts']['signUp']>>, { ok: true }>['business'];

/** What a sign-up came to; each door (form or JSON) words it its own way. */
export type SignUpOutcome =
  | { ok: false; status: 429; message: string; retryAfterSeconds: number }
  | { ok: false; status: 409; errors: FieldErrors }
  | { ok: true; business: Business; headers: Headers; draft: HandOver };

/**
 * A new owner's sign-up (issue 28 item 1), the same for every door that makes an account (`/auth`,
 * `/trial-signup`, `POST /api/auth/signup`, `POST /api/create-subscription`): the deployment-wide
 * limits per address and per email (ADR 021, counted in PostgreSQL), the account, the session (its
 * Set-Cookie in `headers`), and the builder draft handed over (saved to the account, or left in the
 * browser with the reason: ADR 041). The input is already validated by the door's own schema.
 */
export async function signUpOwner(
  request: Request,
  context: AppLoadContext,
  input: { account: Pick<SignUpInput, 'displayName' | 'email' | 'password'>; remember: boolean; draft: unknown },
): Promise<SignUpOutcome> {
  const limited = await context.rateLimiter.hit([
    [`signup:ip:${context.clientIp}`, AUTH_RATE_RULES.signUpPerIp],
    [`signup:email:${input.account.email}`, AUTH_RATE_RULES.signUpPerEmail],
  ]);
  if (!limited.allowed) return { ok: false, status: 429, message: tooManyAttemptsMessage(limited.retryAfterSeconds), retryAfterSeconds: limited.retryAfterSeconds };
  const created = await context.accounts.signUp(input.account);
  if (!created.ok) return { ok: false, status: 409, errors: created.errors };
  const headers = await startSession(request, context, created.business, { remember: input.remember });
  const draft = await handOverDraft(context, created.business.id, input.draft);
  return { ok: true, business: created.business, headers, draft };
}
