import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { labelProofs, SurveyResponse } from '../responses/server.ts';
import { isUuid } from '../shared/ids.ts';
import { decideHold as decideTrustHold, RewardHold, type HeldReward } from '../trust/server.ts';
import type { HoldStatus } from '../trust/index.ts';

/**
 * Held rewards as the rewards module offers them (ADR 050): the owner's page and `reward-cli rewards
 * review` reach the trust module's holds through here. Released rewards go through the one
 * exactly-once reward-issue job (ADR 018); rejected ones never do.
 */
export { auditTrail, confirmCustomerEmail, type HeldReward, type HoldDecision, type DecideResult, type AuditEntryView } from '../trust/server.ts';

/**
 * Held rewards, oldest first: waiting ones by default (`held` and `awaiting_email`), those of
 * `statuses`, or every hold (`all`).
 * One business's (the owner's page) or every business's (support's CLI). The holds are the trust
 * module's; the customer and the business come from their own modules' records (trust imports
 * neither: responses imports trust).
 */
export async function listHolds(
  em: EntityManager,
  options: { businessId?: string; all?: boolean; statuses?: readonly HoldStatus[]; responseId?: string; limit?: number } = {},
): Promise<HeldReward[]> {
  const limit = Math.min(Math.max(options.limit ?? 500, 1), 5000);
  const holds = await em.find(
    RewardHold,
    {
      ...(options.businessId ? { businessId: options.businessId } : {}),
      ...(options.responseId ? { surveyResponseId: options.responseId } : {}),
      ...(!options.all && !options.responseId ? { status: { $in: [...(options.statuses ?? (['held', 'awaiting_email'] as const))] } } : {}),
    },
    { orderBy: { createdAt: 'asc', surveyResponseId: 'asc' }, limit, disableIdentityMap: true },
  );
  if (holds.length === 0) return [];
  const [responses, businesses] = await Promise.all([
    em.find(
      SurveyResponse,
      { id: { $in: holds.map((h) => h.surveyResponseId) } },
      { fields: ['customerName', 'customerEmail', 'rewardTier', 'rewardValue', 'submittedAt'], disableIdentityMap: true },
    ),
    em.find(Business, { id: { $in: [...new Set(holds.map((h) => h.businessId))] } }, { fields: ['displayName'], disableIdentityMap: true }),
  ]);
  const response = new Map(responses.map((r) => [r.id, r]));
  const businessName = new Map(businesses.map((b) => [b.id, b.displayName]));
  // A hold whose response is gone (no foreign key, ADR 050) is not listed, as the join did not.
  return holds.flatMap((h) => {
    const r = response.get(h.surveyResponseId);
    const name = businessName.get(h.businessId);
    if (!r || name === undefined) return [];
    return [
      {
        surveyResponseId: h.surveyResponseId,
        businessId: h.businessId,
        businessName: name,
        status: h.status,
        reasons: h.reasons,
        customerName: r.customerName ?? null,
        customerEmail: r.customerEmail ?? null,
        rewardTier: r.rewardTier ?? null,
        rewardValue: r.rewardValue ?? null,
        submittedAt: r.submittedAt.toISOString(),
        heldAt: h.createdAt.toISOString(),
        emailConfirmedAt: h.emailConfirmedAt?.toISOString() ?? null,
        decidedBy: h.decidedBy ?? null,
        decidedAt: h.decidedAt?.toISOString() ?? null,
      },
    ];
  });
}

/** One response's hold for its owner, or null. */
export async function holdOf(em: EntityManager, input: { businessId: string; responseId: string }): Promise<HeldReward | null> {
  if (!isUuid(input.responseId)) return null;
  return (await listHolds(em, { businessId: input.businessId, responseId: input.responseId }))[0] ?? null;
}

/** The hold reason of a proof the verifier sent to the owner's review (ADR 077). */
const PROOF_NEEDS_REVIEW = 'proof_needs_review';

/**
 * Release or Reject of a held reward (trust's `decideHold`, ADR 050), and the owner's verdict stored
 * as a label on each proof that needed review among its reasons (ADR 080), in the same transaction:
 * Release labels them accepted, Reject rejected.
 */
export function decideHold(deps: { em: EntityManager; jobs: Parameters<typeof decideTrustHold>[0]['jobs'] }, input: Parameters<typeof decideTrustHold>[1]) {
  return decideTrustHold(
    {
      ...deps,
      onDecided: async (tx, decided) => {
        const verificationIds = decided.reasons.flatMap((r) => (r.code === PROOF_NEEDS_REVIEW && r.verificationId ? [r.verificationId] : []));
        if (verificationIds.length === 0) return;
        await labelProofs(tx, {
          businessId: decided.businessId,
          verificationIds,
          verdict: decided.status === 'released' ? 'accepted' : 'rejected',
          actor: decided.actor,
          source: 'hold',
        });
      },
    },
    input,
  );
}
