import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation } from '@remix-run/react';
import { useState, type FormEvent } from 'react';
import { dollars, findPlan } from '../../../modules/billing/index.ts';
import { StripePaymentForm } from '#app/components/stripe-payment.tsx';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { longDate, redirectAfterCheckout } from '#app/utils/billing.server.ts';

export const meta: MetaFunction = () => [{ title: 'Complete Your Setup — RewardLoop' }];

const INTENT_ID = /^seti_[A-Za-z0-9_]{1,200}$/;
const EXPIRY = /^\d{2}\s?\/\s?\d{2}$/;

/**
 * Checkout for a started SetupIntent (`?setupIntentId=`). The card form confirms it (Stripe Elements
 * with BILLING=stripe; the fake's form posts to POST /api/billing/fake/confirm-setup), and the
 * provider comes back here with `redirect_status`, as Stripe's return_url does: the server then
 * re-reads the intent and completes the subscription (idempotent). Without a checkout: to the plans.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const setupIntentId = url.searchParams.get('setupIntentId') ?? url.searchParams.get('setup_intent');
  if (!setupIntentId) throw redirect('/subscription-plans');
  const owner = await getOwner(request, context);
  if (!owner) throw redirect(`/auth?returnTo=${encodeURIComponent(url.pathname + url.search)}`);
  const checkout = INTENT_ID.test(setupIntentId) ? await context.billing.checkout(owner, setupIntentId) : null;
  if (!checkout) return data({ setupError: true as const }, 404);
  let failure: string | null = null;
  if (checkout.completed || url.searchParams.get('redirect_status')) {
    // Back from the card form: the server asks the provider what happened (never the query string).
    const result = await context.billing.complete(owner, setupIntentId);
    if (result.ok) throw await redirectAfterCheckout(context, owner, result);
    if (result.status === 409) throw redirect('/subscription-details');
    failure = result.message;
  }
  const plan = findPlan(checkout.planDetails.id)!;
  // A declined card without JavaScript (issue 27 item 10): the expiry comes back filled (never the
  // number or the CVC); the plans link keeps the survey this checkout publishes.
  const expiry = url.searchParams.get('expiry');
  const plansQuery = new URLSearchParams({ billing: checkout.planDetails.period === 'year' ? 'yearly' : 'monthly', ...(checkout.surveyId ? { surveyId: checkout.surveyId } : {}) });
  return {
    expiry: failure && expiry && EXPIRY.test(expiry) ? expiry : '',
    plansHref: `/subscription-plans?${plansQuery}`,
    setupError: false as const,
    setupIntentId: checkout.setupIntentId,
    // Stripe.js and the fake's card form both confirm with it (the owner's own checkout: checked above).
    clientSecret: checkout.clientSecret,
    publishableKey: context.config.stripePublishableKey,
    provider: context.config.billing,
    plan: { name: plan.name, rewardRange: plan.rewardRange, costPerEngagement: plan.costPerEngagement },
    details: checkout.planDetails,
    firstCharge: longDate(new Date(checkout.firstChargeAt)),
    failure,
    appUrl: context.config.appUrl,
  };
}

function SetupError() {
  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center">
      <h1 className="text-2xl font-bold">Setup Error</h1>
      <p className="mt-2 text-slate-600">We could not find this checkout. Please choose your plan again.</p>
      <Link to="/subscription-plans" className={`${buttonClass.primary} mt-6`}>
        Return to Plans
      </Link>
    </main>
  );
}

export default function StripeCheckout() {
  const d = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // With JavaScript the fake's card form is confirmed in place: a declined card keeps every field as typed (issue 27 item 10).
  const [declined, setDeclined] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (d.setupError) return <SetupError />;
  const busy = navigation.state !== 'idle' || confirming;
  const failure = declined ?? d.failure;
  async function confirmInPlace(event: FormEvent<HTMLFormElement>) {
    if (d.setupError) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setConfirming(true);
    try {
      const res = await fetch('/api/billing/fake/confirm-setup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ clientSecret: d.clientSecret, setupIntentId: d.setupIntentId, cardNumber: form.get('cardNumber'), expiry: form.get('expiry'), cvc: form.get('cvc') }),
      });
      const body = (await res.json().catch(() => null)) as { status?: string; error?: { message?: string } | null; message?: string } | null;
      if (res.ok && body?.status === 'succeeded') {
        window.location.assign(`/stripe-checkout?${new URLSearchParams({ setupIntentId: d.setupIntentId, redirect_status: 'succeeded' })}`);
        return;
      }
      setDeclined(body?.error?.message ?? body?.message ?? 'Your card could not be set up. Please try another card.');
      setConfirming(false);
    } catch {
      setDeclined('We could not reach the payment service. Please try again.');
      setConfirming(false);
    }
  }
  const trial = d.details.trialDays > 0;
  const per = d.details.period === 'year' ? 'year' : 'month';
  const action = trial ? 'Start Free Trial' : 'Subscribe';
  return (
    <main className="mx-auto grid max-w-5xl gap-6 px-4 py-10 md:grid-cols-2">
      <div className="md:col-span-2">
        <h1 className="text-2xl font-bold sm:text-3xl">Complete Your Setup</h1>
        <p className="text-slate-600">{trial ? 'Add a card to start your free trial. You will not be charged today.' : 'Add a card to start your subscription.'}</p>
      </div>
      <Card className="space-y-3">
        <h2 className="text-lg font-semibold">Plan summary</h2>
        <dl className="divide-y divide-slate-100" data-testid="plan-summary">
          <div className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">Plan</dt>
            <dd className="font-semibold">{d.plan.name}</dd>
          </div>
          <div className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">Billing</dt>
            <dd className="font-semibold">
              {dollars(d.details.price)} per {per}
            </dd>
          </div>
          <div className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">Rewards</dt>
            <dd>{d.plan.rewardRange}</dd>
          </div>
          <div className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">Free trial</dt>
            <dd>{trial ? `${d.details.trialDays} days` : 'None (used within the last 6 months)'}</dd>
          </div>
          <div className="flex justify-between gap-3 py-2">
            <dt className="text-slate-600">Due today</dt>
            <dd className="font-semibold">{trial ? '$0.00' : dollars(d.details.price)}</dd>
          </div>
        </dl>
        <p className="text-sm text-slate-600">
          {trial
            ? `Then ${dollars(d.details.price)} per ${per} from ${d.firstCharge}, unless you cancel before.`
            : `Renews every ${per} at ${dollars(d.details.price)}. Cancel any time.`}
        </p>
      </Card>
      <Card className="space-y-4">
        <h2 className="text-lg font-semibold">Payment details</h2>
        {failure ? (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
            <p className="font-semibold">Setup Failed</p>
            <p className="text-sm">{failure}</p>
            {d.provider !== 'stripe' && !declined ? <p className="text-sm">For your security, enter the card number and CVC again, or use another card.</p> : null}
          </div>
        ) : null}
        {d.provider === 'stripe' && d.clientSecret && d.publishableKey ? (
          <StripePaymentForm
            publishableKey={d.publishableKey}
            clientSecret={d.clientSecret}
            setupIntentId={d.setupIntentId}
            returnUrl={`${d.appUrl}/stripe-checkout?setupIntentId=${d.setupIntentId}`}
            submitLabel={action}
          />
        ) : (
          <Form method="post" action="/api/billing/fake/confirm-setup" reloadDocument onSubmit={confirmInPlace} className="space-y-3">
            <input type="hidden" name="setupIntentId" value={d.setupIntentId} />
            <input type="hidden" name="clientSecret" value={d.clientSecret} />
            <div>
              <label htmlFor="cardNumber" className="mb-1 block text-sm font-medium text-slate-800">
                Card number
              </label>
              <input
                id="cardNumber"
                name="cardNumber"
                inputMode="numeric"
                autoComplete="cc-number"
                required
                placeholder="1234 1234 1234 1234"
                aria-describedby="card-hint"
                className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
              />
            </div>
            <div className="grid grid-cols-2 gap-3">
              <div>
                <label htmlFor="expiry" className="mb-1 block text-sm font-medium text-slate-800">
                  Expiry (MM/YY)
                </label>
                <input
                  id="expiry"
                  name="expiry"
                  defaultValue={d.expiry}
                  autoComplete="cc-exp"
                  placeholder="MM/YY"
                  className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
                />
              </div>
              <div>
                <label htmlFor="cvc" className="mb-1 block text-sm font-medium text-slate-800">
                  CVC
                </label>
                <input
                  id="cvc"
                  name="cvc"
                  inputMode="numeric"
                  autoComplete="cc-csc"
                  placeholder="123"
                  className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
                />
              </div>
            </div>
            <p id="card-hint" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              Test mode, no real charges: use 4242 4242 4242 4242 with any future date and any CVC. 4000 0000 0000 0002 is declined.
            </p>
            <button type="submit" className={`${buttonClass.primary} w-full`} disabled={busy}>
              {busy ? 'Confirming…' : action}
            </button>
          </Form>
        )}
        <Link to={d.plansHref} className="block text-center text-sm font-medium text-brand-700 hover:underline">
          Choose another plan
        </Link>
      </Card>
    </main>
  );
}
