import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { VERIFY_FAILURE, VERIFY_SUCCESS } from '#app/components/verify-result.tsx';
import { apiError } from '#app/utils/api.server.ts';

/** GET reports whether the link is still good without using it (no GET changes state). */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const valid = await context.accounts.checkVerificationToken(params.token ?? '');
  return valid ? Response.json({ valid: true }) : apiError(400, VERIFY_FAILURE, {});
}

/** POST verifies the owner's email with the emailed token. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return apiError(405, 'Use POST to verify an email address.', { headers: { Allow: 'GET, POST' } });
  const ok = await context.accounts.verifyEmail(params.token ?? '');
  return ok ? Response.json({ success: true, message: VERIFY_SUCCESS }) : apiError(400, VERIFY_FAILURE);
}
