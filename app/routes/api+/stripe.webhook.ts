import type { ActionFunctionArgs } from '@remix-run/node';
import { apiError, methodNotAllowed } from '#app/utils/api.server.ts';
import { readText } from '#app/utils/input.server.ts';

/**
 * POST /api/stripe/webhook: Stripe's subscription and invoice events. The raw body is read as text
 * (the signature covers its exact bytes) and verified with the stripe SDK against
 * STRIPE_WEBHOOK_SECRET: 400 for a bad or stale signature (nothing changed), 503 with BILLING=stripe
 * and no secret. A replayed event id answers 200 and changes nothing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const result = await context.billing.handleWebhook(await readText(request), request.headers.get('stripe-signature'));
  if (result.status !== 200) return apiError(result.status, result.message);
  return Response.json({ received: true, message: result.message });
}

export const loader = () => methodNotAllowed();
