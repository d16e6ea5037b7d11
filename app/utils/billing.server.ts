import type { AppLoadContext } from '@remix-run/node';
import type { Business } from '../../modules/accounts/server.ts';
import { BILLING_MESSAGES, findPlan } from '../../modules/billing/index.ts';
import { apiError } from './api.server.ts';
import { getOwner } from './auth.server.ts';
import { redirectWithToast } from './toast.server.ts';

/** Billing JSON endpoints: the signed-in owner, or a 401 with the spec's wording. */
export async function requireBillingOwner(request: Request, context: AppLoadContext): Promise<Business> {
  const owner = await getOwner(request, context);
  if (!owner) throw apiError(401, BILLING_MESSAGES.signedOut);
  return owner;
}

export const checkoutPath = (setupIntentId: string) => `/stripe-checkout?setupIntentId=${encodeURIComponent(setupIntentId)}`;

/** Where a finished checkout goes: the carried survey's publish step, else the dashboard. */
export const afterCheckoutPath = (surveyId: string | null) => (surveyId ? `/subscription-check?surveyId=${encodeURIComponent(surveyId)}` : '/');

const longDate = (d: Date) => d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The toast of a finished checkout: a trial until a date, or an active plan. */
export function checkoutToast(owner: Business, trialEndsAt: Date | null) {
  const plan = findPlan(owner.subscriptionPlan)?.name ?? 'your';
  return trialEndsAt
    ? { title: 'Free trial started', description: `Your ${plan} trial runs until ${longDate(trialEndsAt)}. You can publish now.`, type: 'success' as const }
    : { title: 'Subscription active', description: `You are on the ${plan} plan. You can publish now.`, type: 'success' as const };
}

/** Redirect after a finished checkout, with its toast. */
export function redirectAfterCheckout(context: AppLoadContext, owner: Business, result: { trialEndsAt: Date | null; surveyId: string | null }, init: ResponseInit = {}) {
  return redirectWithToast(context, afterCheckoutPath(result.surveyId), checkoutToast(owner, result.trialEndsAt), init);
}

export { longDate };
