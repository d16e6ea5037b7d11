import type { ActionFunctionArgs } from '@remix-run/node';
import { apiError, methodNotAllowed } from '#app/utils/api.server.ts';
import { readText } from '#app/utils/input.server.ts';

/**
 * POST /api/square/webhook: Square's gift card events. The raw body is read as text (the signature
 * covers its exact bytes) and checked against `x-square-hmacsha256-signature`; 503 without a
 * configured key, 401 without a signature, 403 with a wrong one. A redelivered event id answers 200
 * and changes nothing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const result = await context.rewards.receiveSquareWebhook({
    body: await readText(request),
    signature: request.headers.get('x-square-hmacsha256-signature'),
  });
  if (result.status !== 200) return apiError(result.status, result.message);
  return Response.json({ received: true, duplicate: result.duplicate, ...(result.ignored ? { ignored: result.ignored } : {}) });
}

export const loader = () => methodNotAllowed();
