import { Form, Link, useNavigation } from '@remix-run/react';
import { formatCents } from '../../../modules/scoring/index.ts';
import { HOLD_STATUS_LABELS } from '../../../modules/trust/index.ts';
import { Customer, pill, TierBadge } from '../gift-card-ui.tsx';
import { buttonClass, Card } from '../ui.tsx';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import type { FailedRewardRow, HeldRewardRow, PendingRewardRow, RewardDecision } from './rows.ts';
import { When } from './when.tsx';

// The owner's /rewards page: the rewards that need the owner or are still on their way (held for
// review with Release / Reject and its confirm step, failed with Try Again, in progress, rejected).

export function FailedRewards({ failed, local }: { failed: FailedRewardRow[]; local: boolean }) {
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

export function HeldRewards({ held, local }: { held: HeldRewardRow[]; local: boolean }) {
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

export function PendingRewards({ pending, local }: { pending: PendingRewardRow[]; local: boolean }) {
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

/** Release / Reject, asked first: what the decision does, for whom, and the one button that takes it. */
export function ConfirmDecision({ confirm }: { confirm: RewardDecision }) {
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
export function RejectedRewards({ rejected, local }: { rejected: HeldRewardRow[]; local: boolean }) {
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
