import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

const now = () => new Date();

/**
 * Trust (issue 14, ADR 050). No foreign keys: these tables are read next to survey_responses but
 * must not take part in its cascades (the audit trail refuses every DELETE; a hold outlives nothing
 * it needs).
 */

/** Why a reward is held, or that it waits for the customer's email confirmation. */
export type HoldStatus = 'held' | 'awaiting_email' | 'released' | 'rejected';
/**
 * `verificationId`: the screenshot a reason is about (a proof that needs review, ADR 077); the
 * owner's page shows it.
 */
export type HoldReason = { code: string; detail: string; verificationId?: string };

/**
 * A reward held for the owner's review instead of issued (never lost): one row per survey response.
 * `held` and `awaiting_email` wait; `released` (the issue job is queued, once) and `rejected` (no card,
 * ever) are final.
 */
export const RewardHold = defineEntity({
  name: 'RewardHold',
  tableName: 'reward_holds',
  indexes: [{ properties: ['businessId', 'status', 'createdAt'] }],
  properties: {
    surveyResponseId: p.uuid().primary(),
    businessId: p.uuid(),
    status: p.string().length(20).$type<HoldStatus>(),
    reasons: p.json<HoldReason[]>(),
    /** SHA-256 (hex) of the token in the customer's confirmation link; null when no confirmation is asked. */
    emailTokenHash: p.string().length(64).nullable().unique(),
    emailConfirmedAt: p.datetime().nullable(),
    decidedBy: p.string().length(255).nullable(),
    decidedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type RewardHold = InferEntity<typeof RewardHold>;

/**
 * The append-only trail of reward decisions (queued, held, released, rejected, issued, email
 * confirmed): a trigger refuses UPDATE, DELETE and TRUNCATE (migration 20261124123000).
 */
export const RewardAuditEntry = defineEntity({
  name: 'RewardAuditEntry',
  tableName: 'reward_audit',
  indexes: [{ properties: ['surveyResponseId', 'createdAt'] }, { properties: ['businessId', 'createdAt'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    surveyResponseId: p.uuid(),
    businessId: p.uuid(),
    event: p.string().length(30),
    /** 'system', 'owner:{email}', 'cli:{user}' or 'customer'. */
    actor: p.string().length(255),
    details: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type RewardAuditEntry = InferEntity<typeof RewardAuditEntry>;

export type FingerprintKind = 'device' | 'ip' | 'text' | 'image' | 'email_domain';

/**
 * What a submission leaves for later comparisons: its device cookie, address, long texts (hashed)
 * and screenshots' perceptual hashes, with the customer's email so matches across customers only count.
 */
export const ResponseFingerprint = defineEntity({
  name: 'ResponseFingerprint',
  tableName: 'response_fingerprints',
  indexes: [{ properties: ['kind', 'value', 'createdAt'] }, { properties: ['businessId', 'kind', 'createdAt'] }, { properties: ['surveyResponseId'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    surveyResponseId: p.uuid(),
    businessId: p.uuid(),
    customerEmail: p.string().length(255).nullable(),
    kind: p.string().length(16).$type<FingerprintKind>(),
    value: p.string().length(128),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type ResponseFingerprint = InferEntity<typeof ResponseFingerprint>;
