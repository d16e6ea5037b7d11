import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiError } from '#app/utils/api.server.ts';
import { requireBillingOwner } from '#app/utils/billing.server.ts';

/**
 * GET /api/stripe/subscription-status: both shapes of spec section 3 in one body
 * ({hasActiveSubscription, hasActiveTrial} and {status, trialDaysRemaining, subscriptionType, plan,
 * nextBillingDate, canManageSubscription, hasActiveSubscription}), from the business record.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireBillingOwner(request, context);
  return Response.json(context.billing.details(owner));
}

export const action = () => apiError(405, 'Use GET for this endpoint.', { headers: { Allow: 'GET' } });
