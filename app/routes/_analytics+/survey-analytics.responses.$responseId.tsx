import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { isLocale, LOCALE_ENGLISH_NAMES } from '../../../modules/i18n/index.ts';
import { formatCents } from '../../../modules/scoring/index.ts';
import { actorLabel, AUDIT_EVENT_LABELS, HOLD_STATUS_LABELS, type AuditEntryView } from '../../../modules/trust/index.ts';
import { formatWhen, platformLabel } from '#app/components/analytics.tsx';
import { CardTypeBadge, TierBadge } from '#app/components/gift-card-ui.tsx';
import { buttonClass, Card, noticeClass } from '#app/components/ui.tsx';
import { requireOwner } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';
import { redirectWithToast } from '#app/utils/toast.server.ts';

export const meta: MetaFunction = () => [{ title: 'Survey response — RewardLoop' }];

/** A stored language code named in English ('es' -> 'Spanish'); responses from before languages were stored are English. */
const languageName = (code: string | null | undefined) => (isLocale(code) ? LOCALE_ENGLISH_NAMES[code] : 'English');

/** /survey-analytics/responses/{responseId}: one customer's response, for the owner of its business only (404 otherwise). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const owner = await requireOwner(request, context);
  const response = await context.analytics.response(owner.id, params.responseId ?? '');
  if (!response) throw new Response('Response not found.', { status: 404 });
  // The reward's hold and its append-only audit trail (ADR 050), scoped to this owner like the response.
  const { hold, trail } = await context.rewards.trust(owner.id, response.id);
  return { response, hold, trail };
}

/**
 * The owner's correction of a proof's automatic verdict ("This proof was wrongly rejected / accepted",
 * ADR 080): a form post that works without JavaScript. It stores the owner's verdict beside the
 * verifier's as a label; it issues and revokes no reward. Only this owner's response and its proofs
 * (anything else is a 404).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const owner = await requireOwner(request, context);
  const form = await readForm(request);
  if (form.get('intent') !== 'label-proof') return data({ message: 'Unknown request.' }, 400);
  const responseId = params.responseId ?? '';
  const corrected = await context.verifications.correct({
    businessId: owner.id,
    responseId,
    verificationId: String(form.get('verificationId') ?? '').trim(),
    verdict: form.get('verdict'),
    actor: `owner:${owner.email}`,
  });
  if (!corrected.ok) return data({ message: corrected.message }, corrected.status);
  return redirectWithToast(context, `/survey-analytics/responses/${responseId}`, {
    title: corrected.verdict === 'accepted' ? 'Marked as genuine' : 'Marked as not genuine',
    description: 'Your verdict is saved beside the checker\'s. No gift card was sent or taken back.',
    type: 'success',
  });
}

/** The verifier's three verdicts (ADR 077), as the owner reads them. */
const VERDICT_LABEL = { accepted: 'Verified', rejected: 'Rejected', needs_review: 'Needs review' } as const;
const KIND_LABEL = { review: 'review', follow: 'follow', tag: 'tag' } as const;
const emailLabel = { sent: 'Email sent', sending: 'Email on its way', failed: 'Email not sent' } as const;

export default function ResponseDetail() {
  const { response: r, hold, trail } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ message?: string }>();
  const waiting = hold && (hold.status === 'held' || hold.status === 'awaiting_email');
  const back = r.surveyId ? `/survey-analytics/${r.surveyId}` : '/survey-analytics';
  const who = r.customerName ?? r.customerEmail ?? 'Anonymous customer';
  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">Response{r.surveyTitle ? ` to ${r.surveyTitle}` : ''}</p>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{who}</h1>
          {r.customerName && r.customerEmail ? <p className="break-all text-slate-700">{r.customerEmail}</p> : null}
          <p className="text-sm text-slate-600">
            Submitted <time dateTime={r.submittedAt}>{formatWhen(r.submittedAt)}</time>
          </p>
          {/* The language the customer answered in (issue 30, ADR 090), named in English: owner pages stay English. */}
          <p className="text-sm text-slate-600">
            Language: <span data-testid="response-language">{languageName(r.locale)}</span>
          </p>
        </div>
        <Link to={back} className={buttonClass.secondary}>
          Back to Analytics
        </Link>
      </div>

      <dl className="grid grid-cols-3 gap-4">
        <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Points</dt>
          <dd className="mt-1 text-3xl font-bold">{r.totalPoints}</dd>
        </div>
        <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Tier</dt>
          <dd className="mt-2">
            <TierBadge tier={r.rewardTier} />
          </dd>
        </div>
        <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Reward</dt>
          <dd className="mt-1 text-3xl font-bold">{r.rewardValue ? formatCents(r.rewardValue) : '—'}</dd>
        </div>
      </dl>

      <Card>
        <h2 className="text-lg font-semibold">Answers</h2>
        <dl className="mt-3 divide-y divide-slate-100" data-testid="answers">
          {r.answers.map((a) => (
            <div key={a.key} className="grid gap-1 py-3 sm:grid-cols-[14rem_minmax(0,1fr)] sm:gap-4">
              <dt className="text-sm font-medium text-slate-700">{a.label}</dt>
              <dd className="min-w-0 break-words whitespace-pre-line">
                {a.screenshotId ? (
                  <a href={`/survey-analytics/screenshots/${a.screenshotId}`} className="font-medium text-brand-700 underline-offset-2 hover:underline">
                    Screenshot (see below)
                  </a>
                ) : a.value === 'yes' || a.value === 'no' ? (
                  a.value === 'yes' ? 'Yes' : 'No'
                ) : (
                  a.value
                )}
              </dd>
            </div>
          ))}
        </dl>
      </Card>

      <section aria-labelledby="shots-heading" className="space-y-3">
        <h2 id="shots-heading" className="text-lg font-semibold">
          Screenshots and verification
        </h2>
        {actionData?.message ? (
          <p role="alert" className={noticeClass.error}>
            {actionData.message}
          </p>
        ) : null}
        {r.screenshots.length === 0 ? (
          <p className="text-slate-600">This customer shared no screenshots.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {r.screenshots.map((s) => (
              <li key={s.id} data-testid="screenshot" className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="font-semibold">
                    {platformLabel(s.platform)} {KIND_LABEL[s.kind]}
                  </h3>
                  <span
                    className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${
                      s.verdict === 'needs_review'
                        ? 'border-amber-300 bg-amber-50 text-amber-900'
                        : s.isValid
                          ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
                          : 'border-red-300 bg-red-50 text-red-800'
                    }`}
                  >
                    {VERDICT_LABEL[s.verdict]}
                  </span>
                </div>
                {!s.isValid && s.rejectionReason ? <p className="mt-1 text-sm text-red-900">{s.rejectionReason}</p> : null}
                {s.verdict === 'needs_review' && s.reviewReason ? <p className="mt-1 text-sm text-amber-950">{s.reviewReason}</p> : null}
                <dl className="mt-2 space-y-1 text-sm">
                  {s.reviewerName ? (
                    <div className="flex gap-2">
                      <dt className="text-slate-600">Reviewer</dt>
                      <dd className="break-words">{s.reviewerName}</dd>
                    </div>
                  ) : null}
                  {s.userHandle ? (
                    <div className="flex gap-2">
                      <dt className="text-slate-600">Handle</dt>
                      <dd className="break-all">{s.userHandle}</dd>
                    </div>
                  ) : null}
                  {s.starRating !== null ? (
                    <div className="flex gap-2">
                      <dt className="text-slate-600">Stars read</dt>
                      <dd>{s.starRating}</dd>
                    </div>
                  ) : null}
                  {s.reviewLink ? (
                    <div className="flex gap-2">
                      <dt className="text-slate-600">Link</dt>
                      <dd className="min-w-0 break-all">{s.reviewLink}</dd>
                    </div>
                  ) : null}
                  <div className="flex gap-2">
                    <dt className="text-slate-600">Checked</dt>
                    <dd>{formatWhen(s.verifiedAt)}</dd>
                  </div>
                </dl>
                <OwnerVerdict shot={s} />
                <a href={`/survey-analytics/screenshots/${s.id}`} className="mt-3 block">
                  <img
                    src={`/survey-analytics/screenshots/${s.id}`}
                    alt={`Screenshot of the customer's ${platformLabel(s.platform)} ${KIND_LABEL[s.kind]}`}
                    loading="lazy"
                    className="max-h-80 w-full rounded-lg border border-slate-200 object-contain"
                  />
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      <Card>
        <h2 className="text-lg font-semibold">Reward</h2>
        {r.card ? (
          <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2" data-testid="reward">
            <div>
              <dt className="text-slate-600">Gift card</dt>
              <dd className="font-mono break-all">{r.card.giftCardNumber}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Value</dt>
              <dd className="flex items-center gap-2 font-semibold">
                {formatCents(r.card.rewardValue)} <TierBadge tier={r.card.rewardTier} /> <CardTypeBadge square={r.card.isSquareGiftCard} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Issued</dt>
              <dd>{formatWhen(r.card.issuedAt)}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Email</dt>
              <dd>{emailLabel[r.card.emailStatus]}</dd>
            </div>
            {r.card.isSquareGiftCard ? (
              <div>
                <dt className="text-slate-600">Balance at Square</dt>
                <dd>{r.card.cardBalanceCents !== null ? formatCents(r.card.cardBalanceCents) : 'Not reported yet'}</dd>
              </div>
            ) : null}
          </dl>
        ) : waiting || hold?.status === 'rejected' ? (
          <div className="mt-2 text-slate-700" data-testid="reward">
            <p>
              <span className="font-semibold">{HOLD_STATUS_LABELS[hold!.status]}.</span>{' '}
              {waiting ? (
                <Link to="/rewards" className="font-medium text-brand-700 underline-offset-2 hover:underline">
                  Review it on Gift Cards
                </Link>
              ) : (
                'No gift card is sent for this response.'
              )}
            </p>
            {hold!.reasons.length > 0 ? (
              <ul className="mt-2 list-disc pl-5 text-sm">
                {hold!.reasons.map((reason) => (
                  <li key={reason.code}>{reason.detail}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : r.pendingReward ? (
          <p className="mt-2 text-slate-700" data-testid="reward">
            {r.pendingReward.failed ? (
              <>
                The gift card could not be issued. <Link to="/rewards" className="font-medium text-brand-700 underline-offset-2 hover:underline">See failed rewards</Link>
              </>
            ) : (
              'The gift card is on its way.'
            )}
          </p>
        ) : (
          <p className="mt-2 text-slate-700" data-testid="reward">
            No reward: this response earned no tier{r.customerEmail ? '' : ' or left no email'}.
          </p>
        )}
      </Card>

      <AuditTrail trail={trail} />
    </main>
  );
}

type Shot = ReturnType<typeof useLoaderData<typeof loader>>['response']['screenshots'][number];

/**
 * The owner's own verdict on a proof (ADR 080) and the button to correct the checker's: the opposite
 * of the verdict that stands (the owner's if given, else the checker's); both for one that needs review.
 */
function OwnerVerdict({ shot }: { shot: Shot }) {
  const standing = shot.ownerVerdict ?? (shot.verdict === 'needs_review' ? null : shot.verdict);
  const choices: Array<{ verdict: 'accepted' | 'rejected'; label: string }> =
    standing === 'accepted'
      ? [{ verdict: 'rejected', label: shot.ownerVerdict ? 'Change to: not genuine' : 'This proof was wrongly accepted' }]
      : standing === 'rejected'
        ? [{ verdict: 'accepted', label: shot.ownerVerdict ? 'Change to: genuine' : 'This proof was wrongly rejected' }]
        : [
            { verdict: 'accepted', label: 'This proof is genuine' },
            { verdict: 'rejected', label: 'This proof is not genuine' },
          ];
  return (
    <div className="mt-3 border-t border-slate-100 pt-3 text-sm" data-testid="owner-verdict">
      {shot.ownerVerdict ? (
        <p className="font-medium text-slate-900">
          Your verdict: {shot.ownerVerdict === 'accepted' ? 'genuine' : 'not genuine'}
          {shot.ownerDecidedAt ? (
            <>
              {' '}
              (<time dateTime={shot.ownerDecidedAt}>{formatWhen(shot.ownerDecidedAt)}</time>)
            </>
          ) : null}
        </p>
      ) : null}
      <Form method="post" className="mt-2 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="label-proof" />
        <input type="hidden" name="verificationId" value={shot.id} />
        {choices.map((c) => (
          <button key={c.verdict} type="submit" name="verdict" value={c.verdict} className={buttonClass.secondary}>
            {c.label}
          </button>
        ))}
      </Form>
      <p className="mt-1 text-xs text-slate-600">
        This records your verdict to measure the screenshot checker. It does not send or take back a gift card.
      </p>
    </div>
  );
}

/** What one audit entry's details say, in a line: score, verdicts, reasons, the card. */
function auditSummary(e: AuditEntryView): string {
  const d = e.details as {
    score?: { points?: number; tier?: string | null; rewardValueCents?: number };
    verdicts?: Array<{ platform?: string; kind?: string; isValid?: boolean; verdict?: string }>;
    reasons?: Array<{ detail?: string }>;
    status?: string;
    because?: string;
    cardEnding?: string;
    rewardValueCents?: number;
    from?: string;
  };
  const parts: string[] = [];
  if (d.score) parts.push(`${d.score.points ?? 0} points, ${d.score.tier ?? 'no tier'}${d.score.rewardValueCents ? `, ${formatCents(d.score.rewardValueCents)}` : ''}`);
  if (d.verdicts?.length) parts.push(`screenshots: ${d.verdicts.map((v) => `${platformLabel(v.platform ?? '')} ${v.kind ?? ''} ${v.verdict === 'needs_review' ? 'needs review' : v.isValid ? 'verified' : 'rejected'}`).join('; ')}`);
  if (d.reasons?.length) parts.push(`held because: ${d.reasons.map((r) => r.detail).join(' ')}`);
  if (d.status === 'awaiting_email') parts.push('waiting for the customer to confirm their email');
  if (d.because) parts.push(d.because);
  if (d.cardEnding) parts.push(`card ending ${d.cardEnding}${d.rewardValueCents ? `, ${formatCents(d.rewardValueCents)}` : ''}`);
  return parts.join(' · ');
}

function AuditTrail({ trail }: { trail: AuditEntryView[] }) {
  return (
    <section aria-labelledby="audit-heading" className="space-y-3">
      <h2 id="audit-heading" className="text-lg font-semibold">
        Reward decisions
      </h2>
      <p className="text-sm text-slate-600">Every decision about this reward, as it was recorded. Entries are never changed or removed.</p>
      {trail.length === 0 ? (
        <p className="text-slate-600">No reward decision was recorded for this response.</p>
      ) : (
        <ol className="space-y-2" data-testid="audit-trail">
          {trail.map((e) => (
            <li key={e.id} data-testid="audit-entry" className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm">
              <p>
                <span className="font-semibold">{AUDIT_EVENT_LABELS[e.event] ?? e.event}</span> · {actorLabel(e.actor)} ·{' '}
                <time dateTime={e.at}>{formatWhen(e.at)}</time>
              </p>
              {auditSummary(e) ? <p className="mt-1 text-slate-700">{auditSummary(e)}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
