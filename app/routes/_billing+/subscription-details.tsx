import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { BILLING_MESSAGES, dollars, PLANS, yearlyPerMonth, type SubscriptionStatus } from '../../../modules/billing/index.ts';
import { buttonClass, Card, noticeClass } from '#app/components/ui.tsx';
import { UsageMeter } from '#app/components/usage.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { longDate } from '#app/utils/billing.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Subscription Details — RewardLoop' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const details = context.billing.details(owner);
  const url = new URL(request.url);
  return {
    details,
    usage: await context.billing.usage(owner),
    budget: await context.billing.budget(owner),
    nextBilling: details.nextBillingDate ? longDate(new Date(details.nextBillingDate)) : null,
    trialEnds: details.trialEndsAt ? longDate(new Date(details.trialEndsAt)) : null,
    confirmCancel: url.searchParams.get('confirm') === 'cancel' && details.canManageSubscription && details.status !== 'canceled',
    supportEmail: context.config.supportEmail,
  };
}

/** The page's own forms: Manage (the portal) and the confirmed Cancel. */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  const intent = form.get('intent');
  if (intent === 'portal') {
    const result = await context.billing.portal(owner, new URL('/subscription-details', context.config.appUrl).toString());
    if (result.ok) throw redirect(result.url, 303);
    return data({ error: { title: result.title, message: result.message } }, result.status);
  }
  if (intent === 'budget') {
    const result = await context.billing.setBudget(owner, form.get('monthlyRewardBudget'));
    if (!result.ok) return data({ error: { title: 'Budget Not Saved', message: result.message }, budgetError: result.message }, 400);
    return redirectWithToast(context, '/subscription-details', {
      title: 'Reward Budget Saved',
      description: result.cents === null ? 'No monthly reward budget: rewards are never paused.' : `Rewards pause once $${(result.cents / 100).toLocaleString('en-US')} of rewards are promised in a billing month.`,
      type: 'success',
    });
  }
  if (intent === 'cancel') {
    const result = await context.billing.cancel(owner);
    if (!result.ok) return data({ error: { title: result.title, message: result.message } }, result.status);
    return redirectWithToast(context, '/subscription-details', { title: BILLING_MESSAGES.canceledTitle, description: BILLING_MESSAGES.canceled, type: 'success' });
  }
  return data({ error: { title: 'Unknown action', message: 'Please use the buttons on this page.' } }, 400);
}

const statusLabel: Record<SubscriptionStatus, string> = {
  active: 'Active',
  trialing: 'Free trial',
  trial_expired: 'Trial expired',
  canceled: 'Canceled',
  none: 'No subscription',
};

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-2 py-3">
      <dt className="text-slate-600">{term}</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}

export default function SubscriptionDetails() {
  const { details: d, usage, budget, nextBilling, trialEnds, confirmCancel, supportEmail } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const budgetError = failed && 'budgetError' in failed ? String(failed.budgetError) : null;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const live = d.hasActiveSubscription || d.hasActiveTrial;
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Subscription Details</h1>
        <Link to="/profile" className="font-medium text-brand-700 hover:underline">
          Back to Profile
        </Link>
      </div>

      {failed?.error ? (
        <div role="alert" className={noticeClass.error}>
          <p className="font-semibold">{failed.error.title}</p>
          <p className="text-sm">{failed.error.message}</p>
        </div>
      ) : null}
      {d.paymentFailed ? (
        <div role="alert" className={noticeClass.warning}>
          <p className="font-semibold">Payment failed</p>
          <p className="text-sm">We could not charge your card. Update it with Manage Subscription so your surveys stay available.</p>
        </div>
      ) : null}

      <Card>
        <dl className="divide-y divide-slate-100">
          <Row term="Status">
            <span
              data-testid="subscription-status"
              className={`rounded-full px-3 py-1 text-sm ${live ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-800'}`}
            >
              {statusLabel[d.status]}
            </span>
          </Row>
          <Row term="Plan">{d.planName ?? 'None'}</Row>
          <Row term="Billing cycle">{d.subscriptionType === 'yearly' ? 'Yearly' : d.subscriptionType === 'monthly' ? 'Monthly' : 'None'}</Row>
          <Row term="Next billing date">{live && nextBilling ? nextBilling : 'None'}</Row>
          {d.hasActiveTrial ? (
            <Row term="Free trial">
              {d.trialDaysRemaining} day{d.trialDaysRemaining === 1 ? '' : 's'} left, ends {trialEnds}
            </Row>
          ) : d.status === 'trial_expired' ? (
            <Row term="Free trial">Ended {trialEnds}</Row>
          ) : null}
        </dl>
        {!live ? (
          <div className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900">
            <p className="font-semibold">Surveys are unavailable</p>
            <p className="text-sm">
              {d.status === 'none' ? 'Choose a plan to publish surveys.' : 'Your surveys, responses and rewards are kept. Choose a plan to make your surveys available again.'}
            </p>
          </div>
        ) : null}
        <div className="mt-5 flex flex-wrap gap-3">
          {d.canManageSubscription ? (
            <Form method="post">
              <button type="submit" name="intent" value="portal" className={buttonClass.secondary} disabled={busy}>
                Manage Subscription
              </button>
            </Form>
          ) : null}
          {d.canManageSubscription && live ? (
            <Link to="/subscription-details?confirm=cancel" className={`${buttonClass.secondary} text-red-700`}>
              Cancel Subscription
            </Link>
          ) : null}
          {!live ? (
            <Link to="/subscription-plans" className={buttonClass.primary}>
              Choose a Plan
            </Link>
          ) : null}
        </div>
      </Card>

      {usage ? (
        <Card>
          <h2 className="mb-3 text-lg font-semibold">Usage this billing month</h2>
          <UsageMeter usage={usage} />
        </Card>
      ) : null}

      <Card>
        <h2 className="text-lg font-semibold">Monthly reward budget</h2>
        <p className="mt-1 text-sm text-slate-600">
          Optional. Once the rewards promised in a billing month reach it, new submissions earn no reward until the next month; your survey says so before customers start.
        </p>
        {budget ? (
          <p className={`mt-3 font-medium ${budget.reached ? 'text-red-800' : 'text-slate-800'}`} data-testid="budget-status">
            {dollars(budget.spentCents / 100)} of {dollars(budget.budgetCents / 100)} promised this month{budget.reached ? ': rewards are paused.' : '.'}
          </p>
        ) : null}
        <Form method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <div className="w-56">
            <label htmlFor="monthlyRewardBudget" className="mb-1 block text-sm font-medium text-slate-800">
              Budget in dollars (empty: no budget)
            </label>
            <input
              id="monthlyRewardBudget"
              name="monthlyRewardBudget"
              inputMode="numeric"
              defaultValue={budget ? String(budget.budgetCents / 100) : ''}
              aria-invalid={budgetError ? true : undefined}
              aria-describedby="monthlyRewardBudget-error"
              className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
            />
          </div>
          <button type="submit" name="intent" value="budget" className={buttonClass.secondary} disabled={busy}>
            Save Budget
          </button>
          <p id="monthlyRewardBudget-error" className="w-full text-sm text-red-700" aria-live="polite">
            {budgetError}
          </p>
        </Form>
      </Card>

      {confirmCancel ? (
        <div className="fixed inset-0 z-40 grid place-items-center bg-slate-900/50 p-4">
          <section role="alertdialog" aria-modal="true" aria-labelledby="cancel-title" aria-describedby="cancel-text" className="w-full max-w-md rounded-card bg-white p-6 shadow-xl">
            <h2 id="cancel-title" className="text-xl font-bold">
              Cancel your subscription?
            </h2>
            <p id="cancel-text" className="mt-2 text-slate-700">
              Cancellation is immediate and cannot be undone. Your surveys become unavailable to customers right away; your surveys, responses and rewards are kept.
            </p>
            <div className="mt-5 flex flex-wrap justify-end gap-3">
              <Link to="/subscription-details" className={buttonClass.secondary} autoFocus>
                Keep Subscription
              </Link>
              <Form method="post" action="/subscription-details">
                <button type="submit" name="intent" value="cancel" className={buttonClass.danger} disabled={busy}>
                  {busy ? 'Canceling…' : 'Yes, Cancel Subscription'}
                </button>
              </Form>
            </div>
          </section>
        </div>
      ) : null}

      <Card>
        <h2 className="text-lg font-semibold">Compare plans</h2>
        <p className="text-sm text-slate-600">Per month with annual billing.</p>
        <ul className="mt-4 grid gap-4 sm:grid-cols-3">
          {PLANS.map((plan) => (
            <li key={plan.id} className={`rounded-lg border p-4 ${d.plan === plan.id ? 'border-brand-600 bg-brand-50' : 'border-slate-200'}`}>
              <p className="font-semibold">
                {plan.name} {d.plan === plan.id ? <span className="text-sm font-normal text-brand-800">(your plan)</span> : null}
              </p>
              <p className="mt-1 text-2xl font-bold" data-testid={`compare-${plan.id}`}>
                {dollars(yearlyPerMonth(plan))}
                <span className="text-sm font-normal text-slate-600">/month</span>
              </p>
              <p className="mt-1 text-sm text-slate-700">{plan.rewardRange}</p>
              <p className="text-sm text-slate-700">{dollars(plan.costPerEngagement)} per engagement</p>
            </li>
          ))}
        </ul>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">Need help?</h2>
        <p className="mt-1 text-slate-700">
          Questions about billing? Email{' '}
          <a href={`mailto:${supportEmail}`} className="font-semibold text-brand-700 underline">
            {supportEmail}
          </a>
          .
        </p>
      </Card>
    </main>
  );
}
