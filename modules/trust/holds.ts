import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { JobQueue } from '../jobs/port.ts';
import { appendAudit } from './audit.ts';
import type { HoldReason, HoldStatus } from './entities.ts';
import { isUuid } from '../shared/ids.ts';
import { iso, sqlOn, type Sql } from './sql.ts';

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
 * `confirmEmail` the customer is asked to confirm their address first (the returned token goes in
 * the link); a hold with reasons then waits for the owner.
 */
export async function createHold(
  sql: Sql,
  input: { responseId: string; businessId: string; reasons: HoldReason[]; confirmEmail: boolean; now: Date },
): Promise<{ status: HoldStatus; emailToken: string | null }> {
  const emailToken = input.confirmEmail ? randomBytes(24).toString('base64url') : null;
  const status: HoldStatus = input.confirmEmail ? 'awaiting_email' : 'held';
  await sql(`insert into reward_holds (survey_response_id, business_id, status, reasons, email_token_hash, created_at) values (?, ?, ?, ?, ?, ?)`, [
    input.responseId,
    input.businessId,
    status,
    JSON.stringify(input.reasons),
    emailToken ? tokenHash(emailToken) : null,
    input.now,
  ]);
  return { status, emailToken };
}

/** The hold of a response, if any: the issue job refuses every status but `released`. */
export async function holdStatus(sql: Sql, responseId: string): Promise<HoldStatus | null> {
  const [row] = await sql<{ status: HoldStatus }>(`select status from reward_holds where survey_response_id = ?`, [responseId]);
  return row?.status ?? null;
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
  deps: { em: EntityManager; jobs: JobQueue | null },
  input: { responseId: string; businessId: string | null; decision: HoldDecision; actor: string; note?: string | null },
): Promise<DecideResult> {
  if (!isUuid(input.responseId) || (input.businessId !== null && !isUuid(input.businessId))) {
    return { ok: false, status: 404, message: 'That held reward was not found.' };
  }
  if (input.decision === 'release' && !deps.jobs) throw new Error('Releasing a reward needs the job queue.');
  const result = await deps.em.fork().transactional(async (tx): Promise<DecideResult> => {
    const sql = sqlOn(tx);
    const scope = input.businessId ? ' and business_id = ?' : '';
    const params = input.businessId ? [input.responseId, input.businessId] : [input.responseId];
    const [hold] = await sql<{ status: HoldStatus; business_id: string }>(`select status, business_id from reward_holds where survey_response_id = ?${scope} for update`, params);
    if (!hold) return { ok: false, status: 404, message: 'That held reward was not found.' };
    if (hold.status === 'released' || hold.status === 'rejected') {
      return { ok: false, status: 409, message: `This reward was already ${hold.status}.` };
    }
    const status = input.decision === 'release' ? 'released' : 'rejected';
    await sql(`update reward_holds set status = ?, decided_by = ?, decided_at = now() where survey_response_id = ?`, [status, input.actor.slice(0, 255), input.responseId]);
    await appendAudit(sql, {
      responseId: input.responseId,
      businessId: hold.business_id,
      event: status,
      actor: input.actor,
      details: { from: hold.status, ...(input.note ? { note: input.note.slice(0, 500) } : {}) },
    });
    if (status === 'released') await deps.jobs!.send('reward-issue', { responseId: input.responseId }, { em: tx, key: `${input.responseId}:released` });
    return { ok: true, status, businessId: hold.business_id };
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
    const sql = sqlOn(tx);
    const [hold] = await sql<{ survey_response_id: string; business_id: string; status: HoldStatus; reasons: HoldReason[] | string; email_confirmed_at: Date | null }>(
      `select survey_response_id, business_id, status, reasons, email_confirmed_at from reward_holds where email_token_hash = ? for update`,
      [tokenHash(token)],
    );
    if (!hold) return { ok: false };
    if (hold.status !== 'awaiting_email') return { ok: true, status: hold.status === 'released' ? 'released' : 'held', already: true };
    const reasons = typeof hold.reasons === 'string' ? (JSON.parse(hold.reasons) as HoldReason[]) : hold.reasons;
    const status = reasons.length === 0 ? 'released' : 'held';
    await sql(`update reward_holds set status = ?, email_confirmed_at = now(), decided_by = ?, decided_at = ? where survey_response_id = ?`, [
      status,
      status === 'released' ? 'customer' : null,
      status === 'released' ? new Date() : null,
      hold.survey_response_id,
    ]);
    await appendAudit(sql, { responseId: hold.survey_response_id, businessId: hold.business_id, event: 'email_confirmed', actor: 'customer', details: {} });
    if (status === 'released') {
      await appendAudit(sql, { responseId: hold.survey_response_id, businessId: hold.business_id, event: 'released', actor: 'system', details: { because: 'email confirmed, nothing else to check' } });
      await deps.jobs!.send('reward-issue', { responseId: hold.survey_response_id }, { em: tx, key: `${hold.survey_response_id}:released` });
    }
    return { ok: true, status, already: false };
  });
  if (result.ok && result.status === 'released' && !result.already) deps.jobs?.wake('reward-issue');
  return result;
}

type HoldRow = {
  survey_response_id: string;
  business_id: string;
  display_name: string;
  status: HoldStatus;
  reasons: HoldReason[] | string;
  customer_name: string | null;
  customer_email: string | null;
  reward_tier: string | null;
  reward_value: number | null;
  submitted_at: Date;
  created_at: Date;
  email_confirmed_at: Date | null;
  decided_by: string | null;
  decided_at: Date | null;
};

/**
 * Held rewards, oldest first: waiting ones by default (`held` and `awaiting_email`), or every hold.
 * One business's (the owner's page) or every business's (support's CLI).
 */
export async function listHolds(em: EntityManager, options: { businessId?: string; all?: boolean; responseId?: string; limit?: number } = {}): Promise<HeldReward[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.businessId) {
    where.push('h.business_id = ?');
    params.push(options.businessId);
  }
  if (options.responseId) {
    where.push('h.survey_response_id = ?');
    params.push(options.responseId);
  }
  if (!options.all && !options.responseId) where.push(`h.status in ('held', 'awaiting_email')`);
  const limit = Math.min(Math.max(options.limit ?? 500, 1), 5000);
  const rows = await sqlOn(em)<HoldRow>(
    `select h.survey_response_id, h.business_id, b.display_name, h.status, h.reasons, r.customer_name, r.customer_email, r.reward_tier, r.reward_value,
            r.submitted_at, h.created_at, h.email_confirmed_at, h.decided_by, h.decided_at
       from reward_holds h join survey_responses r on r.id = h.survey_response_id join businesses b on b.id = h.business_id
      ${where.length ? `where ${where.join(' and ')}` : ''}
      order by h.created_at, h.survey_response_id limit ${limit}`,
    params,
  );
  return rows.map((r) => ({
    surveyResponseId: r.survey_response_id,
    businessId: r.business_id,
    businessName: r.display_name,
    status: r.status,
    reasons: typeof r.reasons === 'string' ? (JSON.parse(r.reasons) as HoldReason[]) : r.reasons,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    rewardTier: r.reward_tier,
    rewardValue: r.reward_value,
    submittedAt: iso(r.submitted_at)!,
    heldAt: iso(r.created_at)!,
    emailConfirmedAt: iso(r.email_confirmed_at),
    decidedBy: r.decided_by,
    decidedAt: iso(r.decided_at),
  }));
}

/** One response's hold for its owner, or null. */
export async function holdOf(em: EntityManager, input: { businessId: string; responseId: string }): Promise<HeldReward | null> {
  if (!isUuid(input.responseId)) return null;
  return (await listHolds(em, { businessId: input.businessId, responseId: input.responseId }))[0] ?? null;
}
