import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { findPlan, intervalFromYearly, PLAN_NOT_FOUND } from '../../../modules/billing/index.ts';
import { apiError, methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { signUpOwner } from '#app/utils/sign-up.server.ts';
import { parseTrialSignup } from '#app/utils/trial-signup.server.ts';

const bodySchema = z.object({
  businessName: z.unknown(),
  email: z.unknown(),
  password: z.unknown(),
  confirmPassword: z.unknown().optional(),
  agreeToTerms: z.unknown().optional(),
  planId: z.unknown(),
  isYearly: z.boolean({ error: 'isYearly must be true or false' }).default(true),
  price: z.unknown().optional(),
  trialDays: z.unknown().optional(),
  surveyBuilderConfig: z.unknown().optional(),
});

export const loader = () => methodNotAllowed();

/**
 * POST /api/create-subscription: a new owner's account and checkout together. Body businessName,
 * email, password, planId, isYearly (price, trialDays ignored), surveyBuilderConfig (saved to the
 * account). The owner is signed in (Set-Cookie) and gets { clientSecret, planDetails, businessId,
 * setupIntentId, hasSetupIntent, surveyConfigId }; the card is confirmed next, then
 * POST /api/subscription-complete. 404 'Plan not found' before any account is made; 409 for a taken email.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  if (!findPlan(body.planId)) return apiError(404, PLAN_NOT_FOUND);
  // The spec's body has no terms flag (the trial form checks it in the browser): absent means agreed.
  const parsed = parseTrialSignup({ ...body, agreeToTerms: body.agreeToTerms ?? true });
  if (!parsed.ok) return apiError(400, 'Please correct the highlighted fields.', { fieldErrors: parsed.errors });
  const signedUp = await signUpOwner(request, context, { account: parsed.value, remember: false, draft: body.surveyBuilderConfig });
  if (!signedUp.ok) {
    return signedUp.status === 429
      ? apiError(429, signedUp.message, { headers: { 'Retry-After': String(signedUp.retryAfterSeconds) } })
      : apiError(409, signedUp.errors.email?.[0] ?? 'Failed to create account. Please try again.', { fieldErrors: signedUp.errors });
  }
  const { business, headers } = signedUp;
  const surveyId = signedUp.draft.surveyId;
  const result = await context.billing.startCheckout(business, { planId: body.planId, interval: intervalFromYearly(body.isYearly), surveyId });
  if (!result.ok) return Response.json({ title: result.title, message: result.message, businessId: business.id }, { status: result.status, headers });
  const c = result.checkout;
  return Response.json(
    { clientSecret: c.clientSecret, planDetails: c.planDetails, businessId: c.businessId, setupIntentId: c.setupIntentId, hasSetupIntent: true, surveyConfigId: surveyId },
    { status: 201, headers },
  );
}
