import type { ActionFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { methodNotAllowed } from '#app/utils/api.server.ts';
import { requireOwner } from '#app/utils/auth.server.ts';
import { requireBillingOwner } from '#app/utils/billing.server.ts';
import { isFormType } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/stripe/create-portal-session (no body): { url } of the customer portal (Stripe's, or the
 * fake's local /billing-portal), returning to /subscription-details. A form post is redirected
 * there. Errors carry the message the page maps to 'Trial Setup Incomplete', 'No Subscription
 * Found' or 'Billing Portal Unavailable'.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const returnUrl = new URL('/subscription-details', context.config.appUrl).toString();
  if (isFormType(request)) {
    const owner = await requireOwner(request, context);
    const result = await context.billing.portal(owner, returnUrl);
    if (result.ok) return redirect(result.url, 303);
    return redirectWithToast(context, '/subscription-details', { title: result.title, description: result.message, type: 'error' });
  }
  const owner = await requireBillingOwner(request, context);
  const result = await context.billing.portal(owner, returnUrl);
  if (!result.ok) return Response.json({ title: result.title, message: result.message }, { status: result.status });
  return Response.json({ url: result.url });
}
