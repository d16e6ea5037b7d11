import type { ActionFunctionArgs } from '@remix-run/node';
import { BILLING_MESSAGES } from '../../../modules/billing/index.ts';
import { methodNotAllowed } from '#app/utils/api.server.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { requireBillingOwner } from '#app/utils/billing.server.ts';
import { isFormType } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/stripe/cancel-subscription (no body): cancels the owner's subscription at once. JSON
 * { status: 'canceled', message }; a form post goes back to /subscription-details with
 * 'Subscription Canceled' or 'Cancellation Failed'. Surveys, responses and rewards are kept; the
 * surveys become Unavailable.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  if (isFormType(request)) {
    const owner = await requireOwner(request, context);
    const result = await context.billing.cancel(owner);
    return result.ok
      ? redirectWithToast(context, '/subscription-details', { title: BILLING_MESSAGES.canceledTitle, description: BILLING_MESSAGES.canceled, type: 'success' })
      : redirectWithToast(context, '/subscription-details', { title: result.title, description: result.message, type: 'error' });
  }
  const owner = await requireBillingOwner(request, context);
  const result = await context.billing.cancel(owner);
  if (!result.ok) return Response.json({ title: result.title, message: result.message }, { status: result.status });
  return Response.json({ status: 'canceled', title: BILLING_MESSAGES.canceledTitle, message: BILLING_MESSAGES.canceled });
}
