/**
 * Held rewards as the rewards module offers them (ADR 050): the owner's page and `reward-cli rewards
 * review` reach the trust module's holds through here. Released rewards go through the one
 * exactly-once reward-issue job (ADR 018); rejected ones never do.
 */
export { auditTrail, confirmCustomerEmail, decideHold, holdOf, listHolds, type HeldReward, type HoldDecision, type DecideResult, type AuditEntryView } from '../trust/server.ts';
