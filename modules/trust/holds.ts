import { createHash, randomBytes } from 'node:crypto';
import type { JobQueue } from '../jobs/index.ts';
import { LockMode, raw, type EntityManager } from '@mikro-orm/core';
import { appendAudit } from './audit.ts';
import { RewardHold, type HoldReason, type HoldStatus } from './entities.ts';
import { isUuid } from '../shared/ids.ts';

export type HoldDecision = 'release' | 'reject';

/** A held reward as the owner's page and `reward-cli rewards review` show it. */
export type HeldReward = {
  surveyResponseId: string;
  businessId: string;
  businessName: string;
  status: HoldStatus;
  reasons: HoldReason[];
  customerName: string | null;
  customerEmail: string | null;
  rewardTier: string | null;
  rewardValue: number | null;
  submittedAt: string;
  heldAt: string;
  emailConfirmedAt: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
};

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Holds a response's reward instead of queueing it, inside the submission's transaction. With
 * `confirmEmail` the customer is asked to confirm their address first (the link's token is minted
 * when the email is sent, `mintEmailToken`); a hold with reasons then waits for the owner.
 */
export async function createHold(
  em: EntityManager,
  input: { responseId: string; businessId: string; reasons: HoldReason[]; confirmEmail: boolean; now: Date },
): Promise<{ status: HoldStatus }> {
  const status: HoldStatus = input.confirmEmail ? 'awaiting_email' : 'held';
  await em.insert(RewardHold, {
    surveyResponseId: input.responseId,
    businessId: input.businessId,
    status,
    reasons: input.reasons,
    emailTokenHash: null,
    createdAt: input.now,
  });
  return { status };
}

/**
 * A fresh confirmation token for a hold still awaiting the customer's email, minted by the job that
 * sends the link (issue 25): the secret exists only in that email, never in a job's payload or a
 * table; the hold keeps its SHA-256. A retried send mints again, and only the newest link works.
 * Null when the hold no longer waits for the email.
 */
export async function mintEmailToken(em: EntityManager, responseId: string): Promise<string | null> {
  const token = randomBytes(24).toString('base64url');
  const updated = await em.nativeUpdate(RewardHold, { surveyResponseId: responseId, status: 'awaiting_email' }, { emailTokenHash: tokenHash(token) });
  return updated > 0 ? token : null;
}

/** The hold of a response, if any: the issue job refuses every status but `released`. */
export async function holdStatus(em: EntityManager, responseId: string): Promise<HoldStatus | null> {
  const hold = await em.findOne(RewardHold, { surveyResponseId: responseId }, { fields: ['status'], disableIdentityMap: true });
  return hold?.status ?? null;
}

export type DecideResult =
  | { ok: true; status: 'released' | 'rejected'; businessId: string }
  | { ok: false; status: 404 | 409; message: string };

/**
 * The owner's (or support's) decision on a held reward. Release queues the reward-issue job in the
 * same transaction (keyed: at most once; the job itself issues at most one card); reject is final and
 * no card is ever issued. A decided hold is not decided again. `businessId` scopes the owner: another
 * business's hold is answered like a missing one.
 */
export async function decideHold(
  deps: {
    em: EntityManager;
    jobs: JobQueue | null;
    /**
     * Called in the decision's transaction once the hold is decided, with its reasons: the rewards
     * module stores the owner's verdict on the proofs that needed review (ADR 080). Trust knows no
     * screenshots (it imports neither responses nor rewards).
     */
    onDecided?: (tx: EntityManager, decided: { status: 'released' | 'rejected'; businessId: string; reasons: HoldReason[]; actor: string }) => Promise<void>;
  },
  input: { responseId: string; businessId: string | null; decision: HoldDecision; actor: string; note?: string | null },
): Promise<DecideResult> {
  if (!isUuid(input.responseId) || (input.businessId !== null && !isUuid(input.businessId))) {
    return { ok: false, status: 404, message: 'That held reward was not found.' };
  }
  if (input.decision === 'release' && !deps.jobs) throw new Error('Releasing a reward needs the job queue.');
  const result = await deps.em.fork().transactional(async (tx): Promise<DecideResult> => {
    // select ... for update: a concurrent decision (or the customer's confirmation) waits for this one.
    const hold = await tx.findOne(
      RewardHold,
      { surveyResponseId: input.responseId, ...(input.businessId ? { businessId: input.businessId } : {}) },
      { fields: ['status', 'businessId', 'reasons'], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!hold) return { ok: false, status: 404, message: 'That held reward was not found.' };
    if (hold.status === 'released' || hold.status === 'rejected') {
      return { ok: false, status: 409, message: `This reward was already ${hold.status}.` };
    }
    const status = input.decision === 'release' ? 'released' : 'rejected';
    await tx.nativeUpdate(RewardHold, { surveyResponseId: input.responseId }, { status, decidedBy: input.actor.slice(0, 255), decidedAt: raw('now()') });
    await appendAudit(tx, {
      responseId: input.responseId,
      businessId: hold.businessId,
      event: status,
      actor: input.actor,
      details: { from: hold.status, ...(input.note ? { note: input.note.slice(0, 500) } : {}) },
    });
    await deps.onDecided?.(tx, { status, businessId: hold.businessId, reasons: hold.reasons, actor: input.actor });
    if (status === 'released') await deps.jobs!.send('reward-issue', { responseId: input.responseId }, { em: tx, key: `${input.responseId}:released` });
    return { ok: true, status, businessId: hold.businessId };
  });
  if (result.ok && result.status === 'released') deps.jobs!.wake('reward-issue');
  return result;
}

export type ConfirmResult = { ok: true; status: 'released' | 'held'; already: boolean } | { ok: false };

/**
 * The customer's click on the confirmation link: the address is theirs. With no other reason to hold
 * it the reward is released (the issue job queued, once); otherwise it waits for the owner's review.
 */
export async function confirmCustomerEmail(deps: { em: EntityManager; jobs: JobQueue | null }, token: string): Promise<ConfirmResult> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return { ok: false };
  const result = await deps.em.fork().transactional(async (tx): Promise<ConfirmResult> => {
    // select ... for update, as decideHold: a second click waits, then sees the hold confirmed.
    const hold = await tx.findOne(
      RewardHold,
      { emailTokenHash: tokenHash(token) },
      { fields: ['surveyResponseId', 'businessId', 'status', 'reasons'], lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!hold) return { ok: false };
    if (hold.status !== 'awaiting_email') return { ok: true, status: hold.status === 'released' ? 'released' : 'held', already: true };
    const status = hold.reasons.length === 0 ? 'released' : 'held';
    await tx.nativeUpdate(
      RewardHold,
      { surveyResponseId: hold.surveyResponseId },
      { status, emailConfirmedAt: raw('now()'), decidedBy: status === 'released' ? 'customer' : null, decidedAt: status === 'released' ? new Date() : null },
    );
    await appendAudit(tx, { responseId: hold.surveyResponseId, businessId: hold.businessId, event: 'email_confirmed', actor: 'customer', details: {} });
    if (status === 'released') {
      await appendAudit(tx, { responseId: hold.surveyResponseId, businessId: hold.businessId, event: 'released', actor: 'system', details: { because: 'email confirmed, nothing else to check' } });
      await deps.jobs!.send('reward-issue', { responseId: hold.surveyResponseId }, { em: tx, key: `${hold.surveyResponseId}:released` });
    }
    return { ok: true, status, already: false };
  });
  if (result.ok && result.status === 'released' && !result.already) deps.jobs?.wake('reward-issue');
  return result;
}
