import type { EntityManager } from '@mikro-orm/core';
import { isUuid } from '../shared/ids.ts';
import { iso, sqlOn, type Sql } from './sql.ts';

/** What happened to a reward, in order. */
export type AuditEvent = 'queued' | 'held' | 'not_rewarded' | 'email_confirmed' | 'released' | 'rejected' | 'issued';

export type AuditEntryInput = {
  responseId: string;
  businessId: string;
  event: AuditEvent;
  /** 'system', 'customer', 'owner:{email}' or 'cli:{user}'. */
  actor: string;
  details: Record<string, unknown>;
};

export type AuditEntryView = { id: string; event: AuditEvent; actor: string; details: Record<string, unknown>; at: string };

/**
 * Appends one entry to the reward audit trail, on the caller's connection (inside its transaction:
 * the entry is committed with the decision it records, or not at all). The table refuses UPDATE and
 * DELETE (a trigger), so what is written here stays as written.
 */
export async function appendAudit(sql: Sql, entry: AuditEntryInput): Promise<void> {
  await sql(`insert into reward_audit (survey_response_id, business_id, event, actor, details) values (?, ?, ?, ?, ?)`, [
    entry.responseId,
    entry.businessId,
    entry.event,
    entry.actor.slice(0, 255),
    JSON.stringify(entry.details),
  ]);
}

/** One response's audit trail, oldest first; only when the response is this business's. */
export async function auditTrail(em: EntityManager, input: { businessId: string; responseId: string }): Promise<AuditEntryView[]> {
  if (!isUuid(input.responseId) || !isUuid(input.businessId)) return [];
  const rows = await sqlOn(em)<{ id: string | number; event: AuditEvent; actor: string; details: Record<string, unknown> | string; created_at: Date }>(
    `select id, event, actor, details, created_at from reward_audit where survey_response_id = ? and business_id = ? order by created_at, id`,
    [input.responseId, input.businessId],
  );
  return rows.map((r) => ({
    id: String(r.id),
    event: r.event,
    actor: r.actor,
    details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
    at: iso(r.created_at)!,
  }));
}
