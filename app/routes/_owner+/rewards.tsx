import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { plainRewardError } from '../../../modules/rewards/index.ts';
import { formatCents } from '../../../modules/scoring/index.ts';
import { isUuid } from '../../../modules/shared/index.ts';
import { HOLD_STATUS_LABELS } from '../../../modules/trust/index.ts';
import { Cell, Customer, IssuedCardCells, pill, TierBadge } from '#app/components/gift-card-ui.tsx';
import { buttonClass, Card, noticeClass, useHydrated } from '#app/components/ui.tsx';
import { ConfirmDialog } from '#app/components/confirm-dialog.tsx';
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

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Dates are rendered in UTC on the server and in the owner's own time zone once the page has hydrated. */
function formatWhen(iso: string, local: boolean) {
  const text = new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', ...(local ? {} : { timeZone: 'UTC' }) });
  return local ? text : `${text} UTC`;
}

function When({ iso, local }: { iso: string; local: boolean }) {
  return <time dateTime={iso}>{formatWhen(iso, local)}</time>;
}

const emailLabel = {
  sent: ['Sent', 'border-emerald-200 bg-emerald-50 text-emerald-800'],
  sending: ['Sending', 'border-slate-300 bg-slate-100 text-slate-700'],
  failed: ['Not sent', 'border-red-300 bg-red-50 text-red-800'],
} as const;

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

function FailedRewards({ failed, local }: { failed: LoaderData['failed']; local: boolean }) {
  const navigation = useNavigation();
  const retrying = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'retry-failed';
  return (
    <section aria-labelledby="failed-heading" className="rounded-card border-2 border-red-300 bg-red-50 p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="max-w-2xl">
          <h2 id="failed-heading" className="text-lg font-semibold text-red-900">
            Failed rewards
          </h2>
          <p className="text-sm text-red-900">
            These customers have not received their reward: it failed every time we tried, over several hours. Fix what the message asks, then try
            again. A retry never issues a second card.
          </p>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="retry-failed" />
          <button type="submit" disabled={retrying} className={buttonClass.primary}>
            {retrying ? 'Trying again…' : 'Try Again'}
          </button>
        </Form>
      </div>
      <ul className="mt-4 space-y-3">
        {failed.map((f) => (
          <li key={`${f.stage}-${f.surveyResponseId}`} data-testid="failed-reward" className="rounded-lg border border-red-200 bg-white p-4">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <Customer name={f.customerName} email={f.customerEmail} />
              <div className="flex items-center gap-2">
                {f.rewardValue !== null ? <span className="font-semibold">{formatCents(f.rewardValue)}</span> : null}
                {f.rewardTier ? <TierBadge tier={f.rewardTier} /> : null}
              </div>
            </div>
            <p className="mt-2 text-sm font-semibold text-slate-900">
              {f.stage === 'issue' ? 'The gift card was not created.' : `Card ${f.giftCardNumber} was issued, but the email was not sent.`}
            </p>
            <p className="text-red-900">{f.reason}</p>
            <p className="mt-1 text-sm text-slate-600">
              Failed <When iso={f.failedAt} local={local} /> after {f.attempts} {f.attempts === 1 ? 'attempt' : 'attempts'}.
            </p>
            {f.lastError ? (
              <details className="mt-2 text-sm">
                <summary className="inline-flex min-h-11 cursor-pointer items-center font-medium text-slate-700">Technical detail</summary>
                <p className="font-mono text-xs break-words text-slate-700">{f.lastError}</p>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function HeldRewards({ held, local }: { held: LoaderData['held']; local: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' ? String(navigation.formData?.get('responseId') ?? '') : '';
  return (
    <section aria-labelledby="held-heading" className="rounded-card border-2 border-amber-400 bg-amber-50 p-4 sm:p-5">
      <h2 id="held-heading" className="text-lg font-semibold text-amber-950">
        Held for your review
      </h2>
      <p className="max-w-2xl text-sm text-amber-950">
        These rewards were not sent because something looked unusual, or the screenshot checker was not sure of a proof (look at the screenshot
        below it). Nothing is lost: the customer was told their reward is being checked. Release sends the gift card (once); Reject means no card is
        sent. For a screenshot the checker was not sure of, your decision is also saved as your verdict on it (genuine or not), to measure the
        checker.
      </p>
      <ul className="mt-4 space-y-3">
        {held.map((h) => (
          <li key={h.surveyResponseId} data-testid="held-reward" className="rounded-lg border border-amber-200 bg-white p-4">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <Customer name={h.customerName} email={h.customerEmail} />
              <div className="flex items-center gap-2">
                {h.rewardValue !== null ? <span className="font-semibold">{formatCents(h.rewardValue)}</span> : null}
                {h.rewardTier ? <TierBadge tier={h.rewardTier} /> : null}
              </div>
            </div>
            <p className="mt-2 text-sm text-slate-700">
              <span className="font-semibold text-slate-900">{HOLD_STATUS_LABELS[h.status]}</span>
              {' · '}submitted <When iso={h.submittedAt} local={local} />
              {' · '}
              <Link to={`/survey-analytics/responses/${h.surveyResponseId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                See the response
              </Link>
            </p>
            {h.reasons.length > 0 ? (
              <ul className="mt-2 list-disc pl-5 text-sm text-amber-950">
                {h.reasons.map((r, i) => (
                  <li key={`${r.code}:${i}`}>
                    {r.detail}
                    {r.verificationId ? (
                      // The screenshot the verifier was unsure of (ADR 077): the owner judges it here.
                      <a href={`/survey-analytics/screenshots/${r.verificationId}`} target="_blank" rel="noreferrer" className="mt-2 block w-fit">
                        <img
                          src={`/survey-analytics/screenshots/${r.verificationId}`}
                          alt="The screenshot to review (opens full size)"
                          loading="lazy"
                          className="max-h-72 rounded border border-amber-200"
                        />
                      </a>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {/* Each opens its confirm step (a link, so it works without JavaScript). */}
            <div className="mt-3 flex flex-wrap gap-2">
              <Link
                to={`/rewards?confirm=release&responseId=${h.surveyResponseId}`}
                preventScrollReset
                aria-disabled={busy === h.surveyResponseId}
                aria-label={`Release the reward of ${h.customerName ?? h.customerEmail ?? 'this customer'}`}
                className={buttonClass.primary}
              >
                Release
              </Link>
              <Link
                to={`/rewards?confirm=reject&responseId=${h.surveyResponseId}`}
                preventScrollReset
                aria-disabled={busy === h.surveyResponseId}
                aria-label={`Reject the reward of ${h.customerName ?? h.customerEmail ?? 'this customer'}`}
                className={buttonClass.secondary}
              >
                Reject
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PendingRewards({ pending, local }: { pending: LoaderData['pending']; local: boolean }) {
  return (
    <section aria-labelledby="pending-heading" className="rounded-card border border-amber-300 bg-amber-50 p-4 sm:p-5">
      <h2 id="pending-heading" className="text-lg font-semibold text-amber-950">
        In progress
      </h2>
      <p className="max-w-2xl text-sm text-amber-950">
        Rewards on their way. A card is usually issued and emailed within a minute; if Square or the mail server is down, we keep trying for a few
        hours.
      </p>
      <ul className="mt-4 space-y-3">
        {pending.map((p) => (
          <li key={`${p.stage}-${p.surveyResponseId}`} data-testid="pending-reward" className="rounded-lg border border-amber-200 bg-white p-4">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <Customer name={p.customerName} email={p.customerEmail} />
              <div className="flex items-center gap-2">
                <span className="font-semibold">{formatCents(p.rewardValue)}</span>
                <TierBadge tier={p.rewardTier} />
              </div>
            </div>
            <p className="mt-2 text-sm text-slate-700">
              <span className="font-semibold text-slate-900">{p.stage === 'issue' ? 'Creating the gift card' : `Emailing card ${p.giftCardNumber}`}</span>
              {' · '}
              {p.stage === 'issue' ? 'submitted' : 'issued'} <When iso={p.since} local={local} />
            </p>
            {p.reason ? (
              <p className="mt-1 text-sm text-amber-950">
                Retrying after {p.attempts} {p.attempts === 1 ? 'attempt' : 'attempts'}: {p.reason}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}


function IssuedCards({ issuances, totals, local }: { issuances: LoaderData['issuances']; totals: LoaderData['totals']; local: boolean }) {
  return (
    <section aria-labelledby="issued-heading" className="space-y-3">
      <h2 id="issued-heading" className="text-lg font-semibold">
        Gift cards issued
      </h2>
      {issuances.length === 0 ? (
        <p className="text-slate-600">No cards issued yet. The rewards in progress appear here once their card exists.</p>
      ) : (
        <>
          <div className="md:rounded-card md:border md:border-slate-200 md:bg-white md:shadow-sm">
            <table className="w-full text-left max-md:block">
              <caption className="sr-only">Gift cards issued, newest first</caption>
              <thead className="border-b border-slate-200 text-sm text-slate-600 max-md:sr-only">
                <tr>
                  {['Issued', 'Customer', 'Gift card number', 'Value', 'Tier', 'Card', 'Email'].map((h) => (
                    <th key={h} scope="col" className="px-3 py-3 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 max-md:block max-md:space-y-3 max-md:divide-y-0">
                {issuances.map((i) => {
                  const [emailText, emailTone] = emailLabel[i.emailStatus];
                  return (
                    <tr
                      key={i.id}
                      data-testid="issuance"
                      className="max-md:block max-md:rounded-card max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-sm"
                    >
                      <IssuedCardCells card={i} issued={<When iso={i.issuedAt} local={local} />} />
                      <Cell label="Email">
                        <span className={`${pill} ${emailTone}`}>{emailText}</span>
                      </Cell>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {totals.cards > issuances.length ? (
            <p className="text-sm text-slate-600">
              Showing the latest {issuances.length} of {totals.cards} cards.
            </p>
          ) : null}
          {issuances.some((i) => !i.isSquareGiftCard) ? (
            <p className="text-sm text-slate-600">
              Test cards have no value: they are issued while Square gift cards are not in use (Square not connected, or this server issues Test cards).
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** Release / Reject, asked first: what the decision does, for whom, and the one button that takes it. */
function ConfirmDecision({ confirm }: { confirm: NonNullable<LoaderData['confirm']> }) {
  const { decision, reward } = confirm;
  const who = reward.customerName ?? reward.customerEmail ?? 'this customer';
  const value = reward.rewardValue !== null ? `${formatCents(reward.rewardValue)}${reward.rewardTier ? ` ${reward.rewardTier}` : ''} ` : '';
  return decision === 'release' ? (
    <ConfirmDialog
      id="release"
      title="Release this reward?"
      cancelTo="/rewards"
      fields={{ responseId: reward.surveyResponseId }}
      intent="release"
      confirmLabel="Yes, Release"
      busyLabel="Releasing…"
    >
      <p>
        The {value}gift card for {who} is issued and emailed to them. This cannot be undone.
      </p>
    </ConfirmDialog>
  ) : (
    <ConfirmDialog
      id="reject"
      title="Reject this reward?"
      cancelTo="/rewards"
      fields={{ responseId: reward.surveyResponseId }}
      intent="reject"
      confirmLabel="Yes, Reject"
      busyLabel="Rejecting…"
      danger
    >
      <p>
        No {value}gift card is sent to {who}, now or later. The response and your decision stay on record. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

/** Rejected rewards stay in sight with their status (issue 27 item 13): who, what, when it was decided. */
function RejectedRewards({ rejected, local }: { rejected: LoaderData['rejected']; local: boolean }) {
  return (
    <section aria-labelledby="rejected-heading">
      <Card>
        <h2 id="rejected-heading" className="text-lg font-semibold">
          Rejected rewards
        </h2>
        <p className="text-sm text-slate-600">You rejected these after review: no gift card was sent.</p>
        <ul className="mt-4 divide-y divide-slate-200">
          {rejected.map((r) => (
            <li key={r.surveyResponseId} data-testid="rejected-reward" className="flex flex-wrap items-start justify-between gap-3 py-3">
              <Customer name={r.customerName} email={r.customerEmail} />
              <div className="flex flex-wrap items-center gap-2 text-sm">
                {r.rewardValue !== null ? <span className="font-semibold text-slate-500 line-through">{formatCents(r.rewardValue)}</span> : null}
                {r.rewardTier ? <TierBadge tier={r.rewardTier} /> : null}
                <span className={`${pill} border-red-300 bg-red-50 text-red-800`}>{HOLD_STATUS_LABELS[r.status]}</span>
                {r.decidedAt ? (
                  <span className="text-slate-600">
                    <When iso={r.decidedAt} local={local} />
                  </span>
                ) : null}
                <Link to={`/survey-analytics/responses/${r.surveyResponseId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  See the response
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
