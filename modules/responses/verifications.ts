import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { perceptualHash, storeImageUpload, type BlobStore } from '../uploads/server.ts';
import type { RejectionCode, ScreenshotVerifier, VerdictName, VerificationResult } from '../verification/index.ts';
import { PLATFORM_LABELS, REVIEW_PLATFORMS, SOCIAL_PLATFORMS, VERIFICATION_KINDS, type ReviewPlatform, type SocialPlatform, type VerificationKind } from '../surveys/index.ts';
import { ScreenshotVerification } from './entities.ts';
import { findPublicSurvey } from './public-survey.ts';
import { reviewTextKey } from './verification-history.ts';
import { correctProofVerdict } from './labels.ts';

/** Longest reviewer name, handle and review link taken (the columns' sizes; answers allow 2000 characters). */
export const VERIFY_FIELD_LIMITS = { reviewerName: 255, userHandle: 255, reviewLink: 2000 } as const;

export type VerifyInput = {
  businessId: string;
  surveyId: string;
  /** The spec's bypass_square=true (owner previews): waives the Square requirement, as findPublicSurvey does. */
  bypassSquare?: boolean;
  kind: VerificationKind;
  /** A review platform for 'review', a social platform for 'follow' and 'tag', and selected on that survey. */
  platform: string;
  /** The uploaded bytes, as received (checked, re-encoded and stored by modules/uploads). */
  image: Uint8Array;
  /** Reviews. */
  reviewerName?: string;
  reviewLink?: string;
  /** Follows and tags. */
  userHandle?: string;
};

export type VerifyResult =
  | { ok: true; id: string; verdict: VerdictName; isValid: boolean; rejectionReason: string | null; rejectionCode: RejectionCode | null }
  | { ok: false; status: 400 | 404 | 413 | 415; message: string };

type Deps = {
  em: EntityManager;
  verifier: ScreenshotVerifier;
  /** The hosted vision verifier, for surveys whose owner chose it (ADR 066); null when not configured. */
  visionVerifier?: ScreenshotVerifier | null;
  blobStore: BlobStore;
  logger: Logger;
  now?: () => Date;
};

const refuse = (status: 400 | 404 | 413 | 415, message: string): VerifyResult => ({ ok: false, status, message });
const shown = (value: string) => JSON.stringify(value.slice(0, 40));

/**
 * Screenshot verification for the customer's page (spec 4, 5, 7 and 8; ADR 015). Every attempt that
 * gets as far as the verifier is stored as a `screenshot_verifications` row, valid or not, with the
 * image in the BlobStore; a refusal before that (unknown survey, platform not on the survey, a bad
 * upload) stores nothing. The submission names the row by id in the block's screenshot answer.
 * The verifier reads the original upload; the BlobStore keeps the re-encoded copy.
 *
 * The business's name and handle come from our records, never from the request.
 */
export async function verifyScreenshot(deps: Deps, input: VerifyInput): Promise<VerifyResult> {
  if (!VERIFICATION_KINDS.includes(input.kind)) return refuse(400, 'The verification kind must be review, follow or tag.');
  const isReview = input.kind === 'review';
  const platforms: readonly string[] = isReview ? REVIEW_PLATFORMS : SOCIAL_PLATFORMS;
  if (typeof input.platform !== 'string' || !platforms.includes(input.platform)) {
    return refuse(400, `${shown(String(input.platform))} is not a ${isReview ? 'review' : 'social'} platform (${platforms.join(', ')}).`);
  }
  for (const field of ['reviewerName', 'userHandle', 'reviewLink'] as const) {
    const value = input[field];
    if (value !== undefined && (typeof value !== 'string' || value.length > VERIFY_FIELD_LIMITS[field])) {
      return refuse(400, `${field} must be text of at most ${VERIFY_FIELD_LIMITS[field]} characters.`);
    }
  }

  const found = await findPublicSurvey(deps.em, {
    businessId: input.businessId,
    surveyId: input.surveyId,
    bypassSquare: input.bypassSquare,
    now: deps.now?.() ?? new Date(),
  });
  if (!found) return refuse(404, 'Survey Not Found');
  const { survey, businessName } = found;
  // The owner's choice (ADR 066): the hosted vision model reads this survey's screenshots when it is
  // configured; otherwise (and for every other survey) the configured verifier, and nothing leaves.
  const verifier = survey.hostedVision && deps.visionVerifier ? deps.visionVerifier : deps.verifier;
  const selected = isReview ? survey.selectedReviewPlatforms : survey.selectedSocialPlatforms;
  const label = PLATFORM_LABELS[input.platform as ReviewPlatform | SocialPlatform];
  if (!selected.includes(input.platform)) return refuse(400, `${label} is not one of this survey's ${isReview ? 'review' : 'social'} platforms.`);

  const stored = await storeImageUpload(deps.blobStore, input.image);
  if (!stored.ok) return refuse(stored.status, stored.message);

  // The verifier reads the upload as sent, at full resolution (issue 13): the stored copy is
  // re-encoded and at most 1600 px, which blurs the small text OCR needs. storeImageUpload has
  // already checked that these bytes are a PNG, JPEG or WebP image within the limits.
  const original = Buffer.from(input.image.buffer, input.image.byteOffset, input.image.byteLength);
  const reviewerName = input.reviewerName?.trim() ?? '';
  const reviewLink = input.reviewLink?.trim() ?? '';
  const userHandle = input.userHandle?.trim() ?? '';
  try {
    let result: VerificationResult;
    if (isReview) {
      result = await verifier.verifyReview({
        businessId: survey.businessId,
        businessName,
        platform: input.platform as ReviewPlatform,
        image: original,
        reviewerName,
        reviewLink,
        // A Facebook review link may name the page by the survey's own handle.
        ...(survey.socialHandles[input.platform] ? { businessHandle: survey.socialHandles[input.platform] } : {}),
      });
    } else {
      result = await verifier.verifySocial({
        businessId: survey.businessId,
        businessName,
        platform: input.platform as SocialPlatform,
        image: original,
        userHandle,
        // The survey's configured handle: the request's businessHandle is the customer's claim.
        businessHandle: survey.socialHandles[input.platform] ?? '',
        verificationType: input.kind as 'follow' | 'tag',
      });
    }
    const { evidence } = result;
    // Near-copies sent by other customers are found at submission (modules/trust, ADR 050).
    const phash = await perceptualHash(stored.data).catch(() => null);
    const row = deps.em.create(ScreenshotVerification, {
      businessId: survey.businessId,
      surveyConfigId: survey.id,
      kind: input.kind,
      platform: input.platform,
      uploadKey: stored.upload.key,
      imageHash: evidence.imageHash,
      perceptualHash: phash,
      imageFingerprint: evidence.imageFingerprint ?? null,
      normalisedReviewText: evidence.normalisedReviewText ? reviewTextKey(evidence.normalisedReviewText) : null,
      reviewText: evidence.reviewText ?? null,
      starRating: evidence.starRating ?? null,
      reviewerName: isReview ? reviewerName : null,
      reviewLink: isReview ? reviewLink : null,
      userHandle: isReview ? null : userHandle,
      isValid: result.isValid,
      verdict: result.verdict,
      rejectionCode: result.rejectionCode,
      rejectionReason: result.rejectionReason,
      reviewCode: result.reviewCode,
      reviewReason: result.reviewReason,
      surveyResponseId: null,
    });
    await deps.em.flush();
    deps.logger.info(
      { verificationId: row.id, businessId: survey.businessId, kind: input.kind, platform: input.platform, verifier: verifier.id, verdict: result.verdict, rejectionCode: result.rejectionCode, reviewCode: result.reviewCode },
      'screenshot verified',
    );
    return { ok: true, id: row.id, verdict: result.verdict, isValid: result.isValid, rejectionReason: result.rejectionReason, rejectionCode: result.rejectionCode };
  } catch (error) {
    // No row, no image: a failed attempt leaves nothing behind.
    await deps.blobStore.delete(stored.upload.key).catch((cleanup: unknown) => deps.logger.warn({ err: cleanup }, 'could not remove an unused upload'));
    throw error;
  }
}

/** `context.verifications`: one instance per request, over the request's EntityManager. */
export function createVerifications(deps: Deps) {
  return {
    verify: (input: VerifyInput) => verifyScreenshot(deps, input),
    /** The owner's correction of a proof's automatic verdict on the response page: a label only (ADR 080). */
    correct: (input: Parameters<typeof correctProofVerdict>[1]) => correctProofVerdict(deps.em, input),
  };
}

export type Verifications = ReturnType<typeof createVerifications>;
