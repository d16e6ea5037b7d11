import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { intervalFromYearly } from '../../../modules/billing/index.ts';
import { methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { requireBillingOwner } from '#app/utils/billing.server.ts';

// price and trialDays are accepted (the spec's body has them) and ignored: the server's plan table decides.
const bodySchema = z.object({
  planId: z.unknown(),
  isYearly: z.boolean({ error: 'isYearly must be true or false' }).default(true),
  price: z.unknown().optional(),
  trialDays: z.unknown().optional(),
  surveyId: z.string().max(100).nullish(),
});

export const loader = () => methodNotAllowed();

/**
 * POST /api/create-subscription-existing: body planId, isYearly (price, trialDays ignored); for the
 * signed-in owner starts a checkout: { clientSecret, planDetails, businessId, setupIntentId,
 * hasSetupIntent }. 401 signed out, 404 'Plan not found', 409 'Subscription Already Exists'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const owner = await requireBillingOwner(request, context);
  const body = await readJson(request, bodySchema);
  const result = await context.billing.startCheckout(owner, { planId: body.planId, interval: intervalFromYearly(body.isYearly), surveyId: body.surveyId });
  if (!result.ok) return Response.json({ title: result.title, message: result.message }, { status: result.status });
  const c = result.checkout;
  return Response.json({ clientSecret: c.clientSecret, planDetails: c.planDetails, businessId: c.businessId, setupIntentId: c.setupIntentId, hasSetupIntent: true }, { status: 201 });
}
