import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { plainRewardError } from '../../../modules/rewards/index.ts';
import { formatCents } from '../../../modules/scoring/index.ts';
import { isUuid } from '../../../modules/shared/index.ts';
import { buttonClass, Card, noticeClass, useHydrated } from '#app/components/ui.tsx';
import { ConfirmDecision, FailedRewards, HeldRewards, PendingRewards, RejectedRewards } from '#app/components/rewards/attention.tsx';
import { IssuedCards } from '#app/components/rewards/issued-cards.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';
import { readForm } from '#app/utils/input.server.ts';

export const meta: MetaFunction = () => [{ title: 'Gift cards — RewardLoop' }];

/** The owner's gift cards: totals, the rewards that failed or are on their way, and every card issued. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const { totals, issuances, failed, pending, held, rejected } = await context.rewards.overview(owner.id);
  // The confirm step of Release / Reject (issue 27 item 13): ?confirm=release|reject&responseId=…, one of this owner's waiting rewards.
  const query = new URL(request.url).searchParams;
  const decision = query.get('confirm');
  const toDecide = decision === 'release' || decision === 'reject' ? held.find((h) => h.surveyResponseId === query.get('responseId')) : undefined;
  return {
    totals,
    issuances,
    held,
    rejected,
    confirm: toDecide && (decision === 'release' || decision === 'reject') ? { decision, reward: toDecide } : null,
    failed: failed.map((f) => ({ ...f, reason: plainRewardError(f.stage, f.lastError) })),
    pending: pending.map((p) => ({ ...p, reason: p.lastError ? plainRewardError(p.stage, p.lastError) : null })),
  };
}


/**
 * "Try again" on the failed rewards, and Release / Reject on a held reward (ADR 050): form posts
 * (they work without JavaScript), answered with a toast, or with a message on the page. Release and
 * Reject are taken only from their confirm step (`confirmed=yes`).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  const intent = form.get('intent');
  if (intent === 'release' || intent === 'reject') {
    const responseId = String(form.get('responseId') ?? '').trim();
    if (!isUuid(responseId)) return data({ message: 'Choose a held reward to release or reject.' }, 400);
    // Asked first (issue 27 item 13): a post that did not come from the confirm step goes to it.
    if (form.get('confirmed') !== 'yes') throw redirect(`/rewards?confirm=${intent}&responseId=${responseId}`);
    const decided = await context.rewards.decideHold({ businessId: owner.id, responseId, decision: intent, actor: `owner:${owner.email}` });
    if (!decided.ok) return data({ message: decided.message }, decided.status);
    return redirectWithToast(
      context,
      '/rewards',
      decided.status === 'released'
        ? { title: 'Reward released', description: 'The gift card is being issued and emailed to the customer.', type: 'success' }
        : { title: 'Reward rejected', description: 'No gift card will be sent for this response.', type: 'error' },
    );
  }
  if (intent !== 'retry-failed') return data({ message: 'Unknown request.' }, 400);
  const queued = await context.rewards.retryFailed(owner.id);
  return redirectWithToast(
    context,
    '/rewards',
    queued > 0
      ? {
          title: queued === 1 ? 'Trying 1 reward again' : `Trying ${queued} rewards again`,
          description: 'They are back in progress; customers get their email once the card is issued.',
          type: 'success',
        }
      : { title: 'Nothing to retry', description: 'No reward has failed.', type: 'info' },
  );
}

function Stat({ label, value, note, tone = 'default' }: { label: string; value: string; note?: string | null; tone?: 'default' | 'alert' }) {
  return (
    <div className={`rounded-card border p-4 shadow-sm ${tone === 'alert' ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}>
      <dt className={`text-sm ${tone === 'alert' ? 'text-red-900' : 'text-slate-600'}`}>{label}</dt>
      <dd className={`mt-1 text-3xl font-bold ${tone === 'alert' ? 'text-red-800' : ''}`}>{value}</dd>
      {note ? <dd className="mt-1 text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

export default function Rewards() {
  const { totals, issuances, failed, pending, held, rejected, confirm } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ message?: string }>();
  const local = useHydrated();
  const nothingYet = issuances.length === 0 && failed.length === 0 && pending.length === 0 && held.length === 0 && rejected.length === 0;
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">Gift Cards</h1>
          <p className="text-slate-600">The rewards your customers earned with your surveys.</p>
        </div>
        <Link to="/survey-management" className={buttonClass.secondary}>
          Manage Surveys
        </Link>
      </div>

      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label="Gift Cards Issued" value={String(totals.cards)} />
        <Stat
          label="Money Issued"
          value={formatCents(totals.cents)}
          note={
            totals.testCards === 0
              ? null
              : totals.testCards === totals.cards
                ? 'All on Test cards, which have no value'
                : `${formatCents(totals.testCents)} of it on Test cards, which have no value`
          }
        />
        <Stat label="In Progress" value={String(pending.length)} />
        <Stat label="Failed" value={String(failed.length)} tone={failed.length > 0 ? 'alert' : 'default'} />
      </dl>

      {actionData?.message ? (
        <p role="alert" className={noticeClass.error}>
          {actionData.message}
        </p>
      ) : null}
      {held.length > 0 ? <HeldRewards held={held} local={local} /> : null}
      {failed.length > 0 ? <FailedRewards failed={failed} local={local} /> : null}
      {pending.length > 0 ? <PendingRewards pending={pending} local={local} /> : null}
      {rejected.length > 0 ? <RejectedRewards rejected={rejected} local={local} /> : null}
      {confirm ? <ConfirmDecision confirm={confirm} /> : null}

      {nothingYet ? (
        <Card className="py-12 text-center">
          <h2 className="text-xl font-semibold">No gift cards yet</h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">
            Gift cards appear here when customers complete a survey and earn a reward: who got one, its number, value and tier.
          </p>
          <Link to="/survey-management" className={`${buttonClass.primary} mt-6`}>
            Go to Survey Management
          </Link>
        </Card>
      ) : (
        <IssuedCards issuances={issuances} totals={totals} local={local} />
      )}
    </main>
  );
}
