import type { EntityManager } from '@mikro-orm/core';
import { isUuid } from '../shared/ids.ts';
import { ScreenshotVerification, type OwnerLabelSource, type OwnerVerdict } from './entities.ts';

/**
 * Owners' decisions as labels (issue 31 item 2, ADR 080): the owner's verdict on a proof is stored
 * beside the verifier's on its `screenshot_verifications` row. A label changes no reward and no
 * verdict the product acts on; `reward-cli verifications labels export` writes the labelled proofs of
 * businesses that share them, for the bench to score the verifier on real screenshots.
 */
export const OWNER_VERDICTS = ['accepted', 'rejected'] as const;

export const isOwnerVerdict = (value: unknown): value is OwnerVerdict => typeof value === 'string' && (OWNER_VERDICTS as readonly string[]).includes(value);

/**
 * Stores the owner's verdict on some of a business's proofs (a held reward's Release or Reject), in
 * the caller's transaction. Ids of another business, or not ids, are skipped. Returns how many rows
 * were labelled.
 */
export async function labelProofs(
  em: EntityManager,
  input: { businessId: string; verificationIds: string[]; verdict: OwnerVerdict; actor: string; source: OwnerLabelSource; now?: Date },
): Promise<number> {
  const ids = [...new Set(input.verificationIds.filter(isUuid))];
  if (ids.length === 0 || !isUuid(input.businessId)) return 0;
  return em.nativeUpdate(
    ScreenshotVerification,
    { id: { $in: ids }, businessId: input.businessId },
    { ownerVerdict: input.verdict, ownerDecidedAt: input.now ?? new Date(), ownerDecidedBy: input.actor.slice(0, 255), ownerLabelSource: input.source },
  );
}

export type CorrectionResult = { ok: true; verdict: OwnerVerdict } | { ok: false; status: 400 | 404; message: string };

/**
 * The owner's correction of an automatic verdict on the response page ("This proof was wrongly
 * rejected / accepted"). Only a proof this response used, of the owner's business: anything else is
 * answered like a missing one (404). It issues and revokes nothing: it is a label.
 */
export async function correctProofVerdict(
  em: EntityManager,
  input: { businessId: string; responseId: string; verificationId: string; verdict: unknown; actor: string },
): Promise<CorrectionResult> {
  if (!isOwnerVerdict(input.verdict)) return { ok: false, status: 400, message: 'Choose whether the proof is genuine (accepted) or not (rejected).' };
  if (!isUuid(input.businessId) || !isUuid(input.responseId) || !isUuid(input.verificationId)) {
    return { ok: false, status: 404, message: 'That screenshot was not found.' };
  }
  const updated = await em.fork().nativeUpdate(
    ScreenshotVerification,
    { id: input.verificationId, businessId: input.businessId, surveyResponseId: input.responseId },
    { ownerVerdict: input.verdict, ownerDecidedAt: new Date(), ownerDecidedBy: input.actor.slice(0, 255), ownerLabelSource: 'correction' },
  );
  if (updated === 0) return { ok: false, status: 404, message: 'That screenshot was not found.' };
  return { ok: true, verdict: input.verdict };
}

