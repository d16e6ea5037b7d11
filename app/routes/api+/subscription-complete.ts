import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { afterCheckoutPath, checkoutToast, requireBillingOwner } from '#app/utils/billing.server.ts';

const bodySchema = z.object({
  setupIntentId: z.string({ error: 'setupIntentId is required' }).regex(/^seti_[A-Za-z0-9_]{1,200}$/, 'setupIntentId must be a SetupIntent id (seti_...)'),
  businessId: z.string().max(100).nullish(),
  paymentIntentId: z.unknown().optional(),
});

export const loader = () => methodNotAllowed();

/**
 * POST /api/subscription-complete: body setupIntentId, businessId (must be the signed-in owner's).
 * The server re-reads the SetupIntent from the provider and, when it succeeded, creates the
 * subscription (idempotent). 200 { status, trialEndsAt, redirectTo, toast }; 402 'Setup Failed'
 * with the provider's message; 403 another business; 404 unknown checkout.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const owner = await requireBillingOwner(request, context);
  const body = await readJson(request, bodySchema);
  const result = await context.billing.complete(owner, body.setupIntentId, body.businessId ?? null);
  if (!result.ok) return Response.json({ title: result.title, message: result.message }, { status: result.status });
  return Response.json({
    status: result.status,
    trialEndsAt: result.trialEndsAt?.toISOString() ?? null,
    redirectTo: afterCheckoutPath(result.surveyId),
    toast: checkoutToast(owner, result.trialEndsAt),
  });
}
