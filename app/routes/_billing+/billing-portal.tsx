import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { BILLING_MESSAGES, dollars, findPlan, periodPrice, type BillingInterval } from '../../../modules/billing/index.ts';
import { buttonClass, Card } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { longDate } from '#app/utils/billing.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { safeReturnTo } from '#app/utils/return-to.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Billing Portal — RewardLoop' }];

const notFound = (): never => {
  throw Response.json({ message: 'This billing session has expired or does not exist. Open it again from your subscription details.' }, { status: 404 });
};

/** The portal session of the signed-in owner, or a 404 (unknown, expired, another owner's, or not the fake). */
async function session(request: Request, context: LoaderFunctionArgs['context']) {
  const owner = await requireOwner(request, context);
  const id = new URL(request.url).searchParams.get('session') ?? '';
  const view = context.fakeBilling && /^bps_fake_[0-9a-f]{24}$/.test(id) ? await context.fakeBilling.portalSession(id) : null;
  if (!view || view.customerId !== owner.stripeCustomerId) return notFound();
  const to = new URL(view.returnUrl, context.config.appUrl);
  const back = (to.origin === new URL(context.config.appUrl).origin ? safeReturnTo(to.pathname + to.search) : null) ?? '/subscription-details';
  return { owner, view, back };
}

/**
 * The fake's stand-in for Stripe's customer portal (BILLING=fake): the plan, the saved test card,
 * the next billing date, and Cancel plan; Return goes back where the session says.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { owner, view, back } = await session(request, context);
  const details = context.billing.details(owner);
  const plan = findPlan(details.plan);
  const interval: BillingInterval = details.subscriptionType === 'monthly' ? 'month' : 'year';
  return {
    business: owner.displayName,
    plan: plan ? `${plan.name}, ${dollars(periodPrice(plan, interval))} per ${interval}` : 'None',
    status: ({ active: 'Active', trialing: 'Free trial', trial_expired: 'Trial expired', canceled: 'Canceled', none: 'No subscription' } as const)[details.status],
    nextBilling: details.nextBillingDate ? longDate(new Date(details.nextBillingDate)) : null,
    card: view.cardLast4,
    canCancel: details.hasActiveSubscription || details.hasActiveTrial,
    back,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { owner, back } = await session(request, context);
  if ((await readForm(request)).get('intent') !== 'cancel') return data({ error: 'Please use the buttons on this page.' }, 400);
  const result = await context.billing.cancel(owner);
  if (!result.ok) return data({ error: `${result.title}: ${result.message}` }, result.status);
  return redirectWithToast(context, back, { title: BILLING_MESSAGES.canceledTitle, description: BILLING_MESSAGES.canceled, type: 'success' });
}

export default function BillingPortal() {
  const p = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <main className="mx-auto max-w-xl space-y-6 px-4 py-10">
      <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">Test mode: this is the local stand-in for Stripe&apos;s billing portal.</p>
      <h1 className="text-2xl font-bold">Billing Portal</h1>
      <p className="text-slate-600">{p.business}</p>
      {failed?.error ? (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-red-900">
          {failed.error}
        </p>
      ) : null}
      <Card>
        <dl className="divide-y divide-slate-100">
          <div className="flex justify-between gap-3 py-3">
            <dt className="text-slate-600">Current plan</dt>
            <dd className="font-semibold">{p.plan}</dd>
          </div>
          <div className="flex justify-between gap-3 py-3">
            <dt className="text-slate-600">Status</dt>
            <dd className="font-semibold">{p.status}</dd>
          </div>
          <div className="flex justify-between gap-3 py-3">
            <dt className="text-slate-600">Next billing date</dt>
            <dd className="font-semibold">{p.canCancel && p.nextBilling ? p.nextBilling : 'None'}</dd>
          </div>
          <div className="flex justify-between gap-3 py-3">
            <dt className="text-slate-600">Payment method</dt>
            <dd className="font-semibold">{p.card ? `Card ending in ${p.card}` : 'None'}</dd>
          </div>
        </dl>
        {p.canCancel ? (
          <Form method="post" className="mt-4">
            <button type="submit" name="intent" value="cancel" className={buttonClass.danger}>
              Cancel plan
            </button>
          </Form>
        ) : null}
      </Card>
      <Link to={p.back} className={buttonClass.secondary}>
        Return to RewardLoop
      </Link>
    </main>
  );
}
