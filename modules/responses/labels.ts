import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { isUuid } from '../shared/ids.ts';
import { SurveyConfig } from '../surveys/server.ts';
import type { BlobStore } from '../uploads/index.ts';
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

/** One case of an exported labelled set, in the verification set's manifest schema (tests/fixtures/verification-set). */
export type LabelCase = {
  id: string;
  split: 'labels';
  image: string;
  kind: 'review' | 'social';
  platform: string;
  verificationType?: 'follow' | 'tag';
  businessId: string;
  businessName: string;
  input: Record<string, string>;
  expected: { valid: boolean };
  expect: { isValid: boolean };
  note: string;
  tags: Record<string, string>;
};

export type LabelExport = {
  manifest: {
    generatedBy: string;
    description: string;
    exportedAt: string;
    since: string;
    parts: ['labels'];
    counts: { cases: number };
    images: string[];
    cases: LabelCase[];
  };
  written: number;
  skipped: { notShared: number; imageMissing: number };
};

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * `reward-cli verifications labels export` (ADR 080): every proof an owner gave a verdict on since
 * `since`, of the businesses that share labelled screenshots (`businesses.share_labels`), as cases
 * of the verification set's schema (`expected.valid` is the owner's verdict; the verifier's is a
 * tag). `writeImage` receives each case's image (the stored, re-encoded copy) and its file name
 * under `images/`; the caller writes the manifest. Proofs of businesses that do not share, and
 * images no longer in the BlobStore, are skipped and counted.
 */
export async function exportLabels(
  deps: { em: EntityManager; blobStore: BlobStore },
  input: { since: Date; businessId?: string; now?: Date },
  writeImage: (file: string, data: Buffer) => Promise<void>,
): Promise<LabelExport> {
  const em = deps.em.fork();
  const where = {
    ownerVerdict: { $ne: null },
    ownerDecidedAt: { $gte: input.since },
    ...(input.businessId ? { businessId: input.businessId } : {}),
  };
  const rows = await em.find(ScreenshotVerification, where, { orderBy: { ownerDecidedAt: 'asc', id: 'asc' }, disableIdentityMap: true });
  const businesses = new Map(
    (await em.find(Business, { id: { $in: [...new Set(rows.map((r) => r.businessId))] } }, { fields: ['displayName', 'shareLabels'], disableIdentityMap: true })).map((b) => [b.id, b]),
  );
  const surveys = new Map(
    (await em.find(SurveyConfig, { id: { $in: [...new Set(rows.map((r) => r.surveyConfigId))] } }, { fields: ['socialHandles'], disableIdentityMap: true })).map((s) => [s.id, s]),
  );
  const cases: LabelCase[] = [];
  const skipped = { notShared: 0, imageMissing: 0 };
  for (const row of rows) {
    const business = businesses.get(row.businessId);
    if (!business?.shareLabels) {
      skipped.notShared++;
      continue;
    }
    const blob = await deps.blobStore.get(row.uploadKey).catch(() => null);
    if (!blob) {
      skipped.imageMissing++;
      continue;
    }
    const id = `label-${row.id}`;
    const image = `images/${id}.${EXTENSION[blob.contentType] ?? 'img'}`;
    await writeImage(image, blob.data);
    const handle = surveys.get(row.surveyConfigId)?.socialHandles?.[row.platform] ?? '';
    const valid = row.ownerVerdict === 'accepted';
    const isReview = row.kind === 'review';
    cases.push({
      id,
      split: 'labels',
      image,
      kind: isReview ? 'review' : 'social',
      platform: row.platform,
      ...(isReview ? {} : { verificationType: row.kind as 'follow' | 'tag' }),
      businessId: row.businessId,
      businessName: business.displayName,
      input: isReview
        ? { platform: row.platform, reviewerName: row.reviewerName ?? '', reviewLink: row.reviewLink ?? '', ...(handle ? { businessHandle: handle } : {}) }
        : { platform: row.platform, userHandle: row.userHandle ?? '', businessHandle: handle, verificationType: row.kind },
      expected: { valid },
      expect: { isValid: valid },
      note: `the owner's verdict (${row.ownerLabelSource ?? 'hold'}): ${row.ownerVerdict}; the verifier said ${row.verdict}${row.rejectionCode ? ` (${row.rejectionCode})` : row.reviewCode ? ` (${row.reviewCode})` : ''}`,
      tags: {
        class: valid ? 'genuine' : 'owner_rejected',
        ownerVerdict: row.ownerVerdict!,
        labelSource: row.ownerLabelSource ?? 'hold',
        verifierVerdict: row.verdict,
        ...(row.rejectionCode ? { rejectionCode: row.rejectionCode } : {}),
        ...(row.reviewCode ? { reviewCode: row.reviewCode } : {}),
        decidedAt: row.ownerDecidedAt!.toISOString(),
      },
    });
  }
  return {
    manifest: {
      generatedBy: 'reward-cli verifications labels export',
      description:
        "Screenshots owners gave a verdict on (Release/Reject of a held reward, or a correction on the response page), of businesses that share labelled screenshots. expected.valid is the owner's verdict; the verifier's is in tags. Score with: node bench/verification.ts --dir DIR (ADR 080).",
      exportedAt: (input.now ?? new Date()).toISOString(),
      since: input.since.toISOString().slice(0, 10),
      parts: ['labels'],
      counts: { cases: cases.length },
      images: cases.map((c) => c.image),
      cases,
    },
    written: cases.length,
    skipped,
  };
}
