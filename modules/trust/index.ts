/**
 * modules/trust, the browser-safe face: the words for holds and audit entries, and the record types.
 * Fraud checks, holds and the audit trail are in `./server.ts` (ADR 050).
 */
export * from './labels.ts';
export type { HoldReason, HoldStatus } from './entities.ts';
export type { AuditEntryView, AuditEvent } from './audit.ts';
export type { HeldReward, HoldDecision, DecideResult, ConfirmResult } from './holds.ts';
