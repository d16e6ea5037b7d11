import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { BillingError } from '../../../modules/billing/index.ts';
import { apiError, methodNotAllowed, rateLimited, readJson } from '#app/utils/api.server.ts';
import { isFormType, readForm } from '#app/utils/input.server.ts';

const bodySchema = z.object({
  clientSecret: z
    .string({ error: 'clientSecret is required' })
    .regex(/^seti_[A-Za-z0-9_]{1,200}_secret_[A-Za-z0-9]{1,100}$/, 'clientSecret must be the SetupIntent’s client secret (seti_..._secret_...)'),
  setupIntentId: z.string().regex(/^seti_[A-Za-z0-9_]{1,200}$/, 'setupIntentId must be a SetupIntent id (seti_...)').nullish(),
  cardNumber: z.string({ error: 'cardNumber is required' }).min(1, 'cardNumber is required').max(40, 'cardNumber is too long'),
  expiry: z.string().max(10).nullish(),
  cvc: z.string().max(10).nullish(),
});

export const loader = () => methodNotAllowed();

/**
 * POST /api/billing/fake/confirm-setup (BILLING=fake only; 404 otherwise): the fake's stand-in for
 * Stripe.js confirming a SetupIntent. In: clientSecret (as Stripe.js, so only the page that started
 * the checkout can confirm it; setupIntentId optional, and then it must be the secret's) and
 * cardNumber (expiry MM/YY and cvc optional), as JSON or a form. 404 for an unknown intent or a
 * secret that is not its own. JSON out: { id, status, error } where status is `succeeded` or
 * `requires_payment_method` and error is Stripe's wording of a refusal. A form post (the checkout
 * page without JavaScript) is sent back to the checkout page with `redirect_status`, as Stripe
 * returns to a return_url; the server then reads the intent's status itself.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const fake = context.fakeBilling;
  if (!fake) return apiError(404, 'The fake card form is only available with BILLING=fake.');
  const limited = await rateLimited(context, [[`fake-confirm:ip:${context.clientIp}`, { limit: 60, windowMs: 60_000 }]]);
  if (limited) return limited;
  const form = isFormType(request);
  let input: z.output<typeof bodySchema>;
  if (form) {
    const parsed = bodySchema.safeParse(Object.fromEntries([...(await readForm(request))].filter(([, v]) => typeof v === 'string')));
    if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? 'Please check the card details.');
    input = parsed.data;
  } else {
    input = await readJson(request, bodySchema);
  }
  if (input.setupIntentId && !input.clientSecret.startsWith(`${input.setupIntentId}_secret_`)) return apiError(404, `No such setupintent: '${input.setupIntentId}'`);
  try {
    const intent = await fake.confirmSetupIntent(input.clientSecret, { number: input.cardNumber, expiry: input.expiry, cvc: input.cvc });
    if (form) {
      const ok = intent.status === 'succeeded';
      // A declined card comes back with its expiry (not sensitive alone) so the page refills it; never the number or CVC (issue 27 item 10).
      const expiry: Record<string, string> = !ok && input.expiry && /^\d{2}\s?\/\s?\d{2}$/.test(input.expiry.trim()) ? { expiry: input.expiry.trim() } : {};
      const query = new URLSearchParams({ setupIntentId: intent.id, redirect_status: ok ? 'succeeded' : 'failed', ...expiry });
      return redirect(`/stripe-checkout?${query}`, 303);
    }
    return Response.json({ id: intent.id, status: intent.status, error: intent.lastError ? { message: intent.lastError } : null });
  } catch (error) {
    if (error instanceof BillingError && error.code === 'not_found') return apiError(404, error.message);
    throw error;
  }
}
