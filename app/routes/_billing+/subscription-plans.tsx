import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isUuid } from '../../../modules/surveys/index.ts';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import {
  canUseFreeTrial,
  dailyRewardsCopy,
  dollars,
  parseInterval,
  PLANS,
  selectionFailedMessage,
  subscriptionState,
  TRIAL_DAYS,
  TRIAL_USED_NOTICE,
  yearlyPerMonth,
  yearlySavings,
  type BillingInterval,
} from '../../../modules/billing/index.ts';
import { buttonClass, Card, noticeClass } from '#app/components/ui.tsx';
import { getOwner } from '#app/utils/auth.server.ts';
import { checkoutPath } from '#app/utils/billing.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Choose Your Plan — RewardLoop' }];

const surveyParam = (v: unknown) => (typeof v === 'string' && isUuid(v) ? v : null);

/** No login guard (spec): a visitor sees the plans and signs up on the way; an owner goes to checkout. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const interval = parseInterval(url.searchParams.get('billing'));
  const owner = await getOwner(request, context);
  const state = owner ? subscriptionState(owner) : null;
  return {
    interval,
    surveyId: surveyParam(url.searchParams.get('surveyId')),
    signedIn: Boolean(owner),
    hasPlan: Boolean(state && (state.hasActiveSubscription || state.hasActiveTrial)),
    trialAvailable: owner ? canUseFreeTrial(owner) : true,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const interval: BillingInterval = parseInterval(form.get('billing'));
  const planId = form.get('planId');
  const surveyId = surveyParam(form.get('surveyId'));
  const owner = await getOwner(request, context);
  if (!owner) {
    // A visitor signs up first and comes straight back to checkout with this plan.
    const query = new URLSearchParams({ planId: String(planId ?? ''), billing: interval === 'year' ? 'yearly' : 'monthly' });
    throw redirect(`/trial-signup?${query}`);
  }
  const result = await context.billing.startCheckout(owner, { planId, interval, surveyId });
  if (result.ok) throw redirect(checkoutPath(result.checkout.setupIntentId));
  if (result.status === 409) {
    return redirectWithToast(context, '/subscription-details', { title: result.title, description: result.message, type: 'error' });
  }
  if (result.status === 404) return data({ error: { title: result.message, message: 'Please choose one of the plans below.' } }, 404);
  return data({ error: { title: 'Selection Failed', message: selectionFailedMessage(result.status, result.message) } }, result.status);
}

function IntervalToggle({ interval, surveyId }: { interval: BillingInterval; surveyId: string | null }) {
  const href = (billing: string) => `/subscription-plans?${new URLSearchParams({ billing, ...(surveyId ? { surveyId } : {}) })}`;
  const item = (active: boolean) =>
    `inline-flex min-h-11 items-center gap-2 rounded-full px-4 font-semibold ${active ? 'bg-brand-600 text-white' : 'text-slate-800 hover:bg-slate-100'}`;
  return (
    <nav aria-label="Billing cycle" className="inline-flex rounded-full border border-slate-300 bg-white p-1">
      <Link to={href('monthly')} className={item(interval === 'month')} aria-current={interval === 'month' ? 'page' : undefined} preventScrollReset>
        Monthly
      </Link>
      <Link to={href('yearly')} className={item(interval === 'year')} aria-current={interval === 'year' ? 'page' : undefined} preventScrollReset>
        Yearly
        <span className={`rounded-full px-2 py-0.5 text-xs ${interval === 'year' ? 'bg-white text-brand-700' : 'bg-emerald-100 text-emerald-800'}`}>Save ~20%</span>
      </Link>
    </nav>
  );
}

export default function SubscriptionPlans() {
  const { interval, surveyId, signedIn, hasPlan, trialAvailable } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' ? navigation.formData?.get('planId') : null;
  const trialDays = trialAvailable ? TRIAL_DAYS[interval] : 0;
  return (
    <main className="mx-auto max-w-6xl space-y-8 px-4 py-10">
      <div className="space-y-3 text-center">
        <h1 className="text-3xl font-bold">Choose Your Plan</h1>
        <p className="text-slate-600">Every plan includes a free trial: 7 days on monthly billing, 14 days on yearly.</p>
        <IntervalToggle interval={interval} surveyId={surveyId} />
      </div>

      {hasPlan ? (
        <div role="status" className={`mx-auto max-w-2xl ${noticeClass.success}`}>
          <p className="font-semibold">You already have an active plan.</p>
          <p className="text-sm">
            See or change it on your{' '}
            <Link to="/subscription-details" className="font-semibold underline">
              subscription details
            </Link>
            .
          </p>
        </div>
      ) : null}
      {signedIn && !trialAvailable && !hasPlan ? (
        <div role="status" className={`mx-auto max-w-2xl ${noticeClass.warning}`}>
          <p className="font-semibold">Free trial already used</p>
          <p className="text-sm">{TRIAL_USED_NOTICE}</p>
        </div>
      ) : null}
      {failed?.error ? (
        <div role="alert" className="mx-auto max-w-2xl rounded-card border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">{failed.error.title}</p>
          <p className="text-sm">{failed.error.message}</p>
        </div>
      ) : null}

      <ul className="grid gap-6 md:grid-cols-3">
        {PLANS.map((plan) => {
          const perMonth = interval === 'year' ? yearlyPerMonth(plan) : plan.monthlyPrice;
          return (
            <li key={plan.id} className={`relative flex flex-col rounded-card border bg-white p-6 shadow-sm ${plan.mostPopular ? 'border-brand-600 ring-2 ring-brand-600' : 'border-slate-200'}`}>
              {plan.mostPopular ? (
                <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-bold text-white">Most Popular</span>
              ) : null}
              <h2 className="text-xl font-bold">{plan.name}</h2>
              <p className="mt-1 text-sm text-slate-600">{plan.description}</p>
              <p className="mt-4">
                <span className="text-4xl font-bold" data-testid={`price-${plan.id}`}>
                  {dollars(perMonth)}
                </span>
                <span className="text-slate-600">/month</span>
              </p>
              <p className="min-h-10 text-sm text-slate-600">
                {interval === 'year' ? (
                  <>
                    Billed {dollars(plan.yearlyPrice)} yearly. <span className="font-semibold text-emerald-800">Save {dollars(yearlySavings(plan))}</span> a year.
                  </>
                ) : (
                  'Billed monthly.'
                )}
              </p>
              <ul className="mt-4 space-y-2 text-sm">
                <li className="font-semibold">{plan.rewardRange}</li>
                <li>{dollars(plan.costPerEngagement)} per engagement</li>
                <li data-testid={`daily-${plan.id}`}>{dailyRewardsCopy(plan)}</li>
                {plan.features.map((f) => (
                  <li key={f} className="flex gap-2">
                    <span aria-hidden className="text-emerald-700">
                      ✓
                    </span>
                    {f}
                  </li>
                ))}
              </ul>
              <Form method="post" className="mt-6 pt-2 md:mt-auto">
                <input type="hidden" name="planId" value={plan.id} />
                <input type="hidden" name="billing" value={interval === 'year' ? 'yearly' : 'monthly'} />
                {surveyId ? <input type="hidden" name="surveyId" value={surveyId} /> : null}
                <button
                  type="submit"
                  className={`${plan.mostPopular ? buttonClass.primary : buttonClass.secondary} w-full`}
                  disabled={hasPlan || Boolean(pending)}
                  aria-label={`${trialDays > 0 ? `Start ${trialDays}-Day Free Trial` : 'Subscribe'}: ${plan.name}, ${interval === 'year' ? 'yearly' : 'monthly'}`}
                >
                  {pending === plan.id ? 'Preparing checkout…' : trialDays > 0 ? `Start ${trialDays}-Day Free Trial` : 'Subscribe'}
                </button>
              </Form>
            </li>
          );
        })}
      </ul>

      <Card className="mx-auto max-w-3xl">
        <h2 className="text-lg font-semibold">Free trial details</h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700">
          <li>7 days free on monthly billing, 14 days free on yearly billing.</li>
          <li>Add a card to start. Nothing is charged until the trial ends; cancel any time before then and you pay nothing.</li>
          <li>Publish surveys and reward customers with every feature of your plan during the trial.</li>
          <li>One free trial per business every 6 months.</li>
        </ul>
      </Card>
    </main>
  );
}
