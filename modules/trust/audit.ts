import type { EntityManager } from '@mikro-orm/core';
import { isUuid } from '../shared/ids.ts';
import { RewardAuditEntry } from './entities.ts';

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
 * Appends one entry to the reward audit trail, on the caller's EntityManager (inside its transaction:
 * the entry is committed with the decision it records, or not at all). A native insert, not the unit
 * of work: it is written now, whatever else the caller has pending. The table refuses UPDATE and
 * DELETE (a trigger), so what is written here stays as written.
 */
export async function appendAudit(em: EntityManager, entry: AuditEntryInput): Promise<void> {
  await em.insert(RewardAuditEntry, {
    surveyResponseId: entry.responseId,
    businessId: entry.businessId,
    event: entry.event,
    actor: entry.actor.slice(0, 255),
    details: entry.details,
  });
}

/** One response's audit trail, oldest first; only when the response is this business's. */
export async function auditTrail(em: EntityManager, input: { businessId: string; responseId: string }): Promise<AuditEntryView[]> {
  if (!isUuid(input.responseId) || !isUuid(input.businessId)) return [];
  const entries = await em.find(
    RewardAuditEntry,
    { surveyResponseId: input.responseId, businessId: input.businessId },
    { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true },
  );
  return entries.map((e) => ({ id: String(e.id), event: e.event as AuditEvent, actor: e.actor, details: e.details, at: e.createdAt.toISOString() }));
}
