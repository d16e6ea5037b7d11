import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { dollars, findPlan, parseInterval, periodPrice, selectionFailedMessage, TRIAL_DAYS } from '../../../modules/billing/index.ts';
import { DraftField, TermsAgreement } from '#app/components/auth-forms.tsx';
import { buttonClass, Card, PasswordField, TextField } from '#app/components/ui.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { checkoutPath } from '#app/utils/billing.server.ts';
import { signUpOwner } from '#app/utils/sign-up.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { parseTrialSignup } from '#app/utils/trial-signup.server.ts';

export const meta: MetaFunction = () => [{ title: 'Start Your Free Trial — RewardLoop' }];

function planChoice(planId: unknown, billing: unknown) {
  const plan = findPlan(planId);
  return plan ? { id: plan.id, name: plan.name, interval: parseInterval(billing) } : null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const choice = planChoice(url.searchParams.get('planId'), url.searchParams.get('billing'));
  if (await getOwner(request, context)) {
    // Signed in already: straight to the plans (with the chosen cycle).
    throw redirect(`/subscription-plans${choice ? `?billing=${choice.interval === 'year' ? 'yearly' : 'monthly'}` : ''}`);
  }
  return { plan: choice ? { ...choice, price: periodPrice(findPlan(choice.id)!, choice.interval), trialDays: TRIAL_DAYS[choice.interval] } : null };
}

/**
 * Creates the account (signed in at once, the builder draft saved to it), then goes to checkout with
 * the chosen plan, or to the plans when none was chosen yet.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const choice = planChoice(form.get('planId'), form.get('billing'));
  const parsed = parseTrialSignup(Object.fromEntries([...form].filter(([, v]) => typeof v === 'string')));
  const echo = { businessName: String(form.get('businessName') ?? '').slice(0, 255), email: String(form.get('email') ?? '').slice(0, 255) };
  if (!parsed.ok) return data({ errors: parsed.errors, values: echo, toast: null }, 400);
  const signedUp = await signUpOwner(request, context, { account: parsed.value, remember: false, draft: form.get('surveyBuilderConfig') });
  if (!signedUp.ok && signedUp.status === 429) {
    return data(
      { errors: { form: [signedUp.message] }, values: echo, toast: { title: 'Signup Failed', description: 'Failed to create account. Please try again.' } },
      { status: 429, headers: { 'Retry-After': String(signedUp.retryAfterSeconds) } },
    );
  }
  if (!signedUp.ok) return data({ errors: signedUp.errors, values: echo, toast: { title: 'Signup Failed', description: signedUp.errors.email?.[0] ?? 'Failed to create account. Please try again.' } }, 409);
  const { business, headers } = signedUp;
  const surveyId = signedUp.draft.surveyId;
  const welcome = { title: 'Account created!', description: 'Your business account has been created successfully.', type: 'success' as const };
  let toast: { title: string; description: string; type: 'success' | 'error' } = welcome;
  if (choice) {
    const started = await context.billing.startCheckout(business, { planId: choice.id, interval: choice.interval, surveyId });
    if (started.ok) return redirectWithToast(context, `${checkoutPath(started.checkout.setupIntentId)}${surveyId ? '&handover=1' : ''}`, welcome, { headers });
    // The account exists; the checkout did not start (the provider unreachable, say): say so, as the plans page does.
    toast = { title: started.title, description: `Your account was created, but the checkout could not start: ${selectionFailedMessage(started.status, started.message)}`, type: 'error' };
  }
  const query = new URLSearchParams({ billing: choice?.interval === 'month' ? 'monthly' : 'yearly', ...(surveyId ? { surveyId, handover: '1' } : {}) });
  return redirectWithToast(context, `/subscription-plans?${query}`, toast, { headers });
}

export default function TrialSignup() {
  const { plan } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const errors: Record<string, string[] | undefined> = result?.errors ?? {};
  const invalid = (name: string) => (errors[name]?.length ? true : undefined);
  return (
    <main className="mx-auto max-w-lg px-4 py-10">
      <Card className="space-y-5">
        <div className="space-y-1 text-center">
          <h1 className="text-2xl font-bold">Start Your Free Trial</h1>
          <p className="text-slate-600">Create your account, choose a plan, add a card. Nothing is charged during the trial.</p>
        </div>
        {plan ? (
          <p className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900" data-testid="chosen-plan">
            {plan.name} plan, {dollars(plan.price)} per {plan.interval}, with {plan.trialDays} days free.{' '}
            <Link to={`/subscription-plans?billing=${plan.interval === 'year' ? 'yearly' : 'monthly'}`} className="font-semibold underline">
              Change plan
            </Link>
          </p>
        ) : null}
        {result?.toast ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            <p className="font-semibold">{result.toast.title}</p>
            <p className="text-sm">{result.toast.description}</p>
          </div>
        ) : null}
        <Form method="post" className="space-y-1" noValidate>
          <DraftField />
          {plan ? (
            <>
              <input type="hidden" name="planId" value={plan.id} />
              <input type="hidden" name="billing" value={plan.interval === 'year' ? 'yearly' : 'monthly'} />
            </>
          ) : null}
          {errors.form ? (
            <p role="alert" className="text-sm text-red-700">
              {errors.form[0]}
            </p>
          ) : null}
          <TextField
            id="businessName"
            name="businessName"
            label="Business Name"
            autoComplete="organization"
            required
            defaultValue={result?.values.businessName}
            errors={errors.businessName}
            errorId="businessName-error"
            aria-invalid={invalid('businessName')}
            aria-describedby="businessName-error"
          />
          <TextField
            id="email"
            name="email"
            type="email"
            label="Email address"
            autoComplete="email"
            required
            defaultValue={result?.values.email}
            errors={errors.email}
            errorId="email-error"
            aria-invalid={invalid('email')}
            aria-describedby="email-error"
          />
          <PasswordField
            id="password"
            name="password"
            label="Password"
            autoComplete="new-password"
            required
            errors={errors.password}
            errorId="password-error"
            aria-invalid={invalid('password')}
            aria-describedby="password-error"
          />
          <PasswordField
            id="confirmPassword"
            name="confirmPassword"
            label="Confirm Password"
            autoComplete="new-password"
            required
            errors={errors.confirmPassword}
            errorId="confirmPassword-error"
            aria-invalid={invalid('confirmPassword')}
            aria-describedby="confirmPassword-error"
          />
          <TermsAgreement input={{ name: 'agreeToTerms', 'aria-invalid': invalid('agreeToTerms'), 'aria-describedby': 'agreeToTerms-error' }} errorId="agreeToTerms-error" errors={errors.agreeToTerms} />
          <button type="submit" className={`${buttonClass.primary} w-full`} disabled={busy}>
            {busy ? 'Creating account…' : plan ? 'Continue to Payment' : 'Continue to Plans'}
          </button>
        </Form>
        <p className="text-center text-sm text-slate-600">
          Already have an account?{' '}
          <Link to="/auth?returnTo=%2Fsubscription-plans" className="font-semibold text-brand-700 underline">
            Sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
