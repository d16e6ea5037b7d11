/**
 * ScreenshotVerifier for tests and demos: no OCR, deterministic, instant.
 *
 * Valid unless one of these holds (checked in this order, each with a customer-facing reason):
 * - a required field is blank, or (reviews) the link is not on the platform's domain, exactly as
 *   the OCR verifier decides (`checkLinks: false` turns the link check off);
 * - the image is empty;
 * - the image's sha256 (of the bytes) is already rewarded for the business (the history);
 * - the image bytes contain `rejectMarker` (default 'FAKE-REJECT'; put it in a PNG text chunk or
 *   simply use Buffer.from('FAKE-REJECT'));
 * - the reviewer name or user handle is `rejectName` (default 'reject', any case, '@' ignored);
 *   the code is `rejectionCode`, by default not_a_review (reviews), not_following or missing_mention.
 *
 * Needs review (ADR 077) when, none of those holding, the image bytes contain `reviewMarker`
 * (default 'FAKE-REVIEW') or the reviewer name or user handle is `reviewName` (default 'review'):
 * reviewCode `unsure_handle`, with a reason for the owner.
 *
 * evidence.imageHash is the bytes' sha256; no review text and no stars are read (`starRating: null`).
 */
import { createHash } from 'node:crypto';
import { EMPTY_VERIFICATION_HISTORY, checkReviewLink, duplicateImage, missingField, unreadableImage, type Verdict, PLATFORM_LABELS, REVIEW_PLATFORMS, SOCIAL_PLATFORMS, type RejectionCode, type ReviewVerificationRequest, type ScreenshotVerifier, type SocialVerificationRequest, type VerificationHistory, type VerificationResult, normaliseHandle, needsReview, verificationResult } from '../../modules/verification/server.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

export type FakeScreenshotVerifierOptions = {
  history?: VerificationHistory;
  rejectMarker?: string;
  rejectName?: string;
  /** Bytes that make the verdict needs_review (default 'FAKE-REVIEW'). */
  reviewMarker?: string;
  /** A reviewer name or user handle that makes the verdict needs_review (default 'review'). */
  reviewName?: string;
  /** Rejection given for the marker or the name; default a plain "we couldn't verify" reason. */
  rejectionReason?: string;
  rejectionCode?: RejectionCode;
  /** Check review links against the platform's domain, like the OCR verifier. Default true. */
  checkLinks?: boolean;
  /** Milliseconds to wait before answering (to exercise "verifying" states). Default 0. */
  delayMs?: number;
};

export class FakeScreenshotVerifier implements ScreenshotVerifier {
  readonly id = 'fake' as const;
  /** Every request seen, in order (for assertions in other tests). */
  readonly calls: Array<{ kind: 'review'; request: ReviewVerificationRequest } | { kind: 'social'; request: SocialVerificationRequest }> = [];
  private readonly options: Required<Omit<FakeScreenshotVerifierOptions, 'rejectionReason' | 'rejectionCode'>> & {
    rejectionReason: string | null;
    rejectionCode: RejectionCode | null;
  };

  constructor(options: FakeScreenshotVerifierOptions = {}) {
    this.options = {
      history: options.history ?? EMPTY_VERIFICATION_HISTORY,
      rejectMarker: options.rejectMarker ?? 'FAKE-REJECT',
      rejectName: options.rejectName ?? 'reject',
      reviewMarker: options.reviewMarker ?? 'FAKE-REVIEW',
      reviewName: options.reviewName ?? 'review',
      rejectionReason: options.rejectionReason ?? null,
      rejectionCode: options.rejectionCode ?? null,
      checkLinks: options.checkLinks ?? true,
      delayMs: options.delayMs ?? 0,
    };
  }

  async verifyReview(request: ReviewVerificationRequest): Promise<VerificationResult> {
    if (!REVIEW_PLATFORMS.includes(request.platform)) throw new TypeError(`unknown review platform ${String(request.platform)}`);
    this.calls.push({ kind: 'review', request });
    const { imageHash, verdict } = await this.common(request.image, request.businessId, request.businessName, () => {
      if (isBlank(request.reviewerName)) return missingField('reviewerName', request.platform);
      if (isBlank(request.reviewLink)) return missingField('reviewLink', request.platform);
      if (this.options.checkLinks) {
        const link = checkReviewLink(request.platform, request.reviewLink, { name: request.businessName, handle: request.businessHandle });
        if (!link.ok) return link;
      }
      return null;
    });
    const named = normaliseHandle(request.reviewerName) === this.options.rejectName.toLowerCase();
    const unsure = normaliseHandle(request.reviewerName) === this.options.reviewName.toLowerCase();
    return this.finish(verdict, imageHash, request.image, named, PLATFORM_LABELS[request.platform], 'not_a_review', { starRating: null }, unsure);
  }

  async verifySocial(request: SocialVerificationRequest): Promise<VerificationResult> {
    if (!SOCIAL_PLATFORMS.includes(request.platform)) throw new TypeError(`unknown social platform ${String(request.platform)}`);
    if (request.verificationType !== 'follow' && request.verificationType !== 'tag') {
      throw new TypeError(`unknown verification type ${String(request.verificationType)}`);
    }
    this.calls.push({ kind: 'social', request });
    const { imageHash, verdict } = await this.common(request.image, request.businessId, request.businessName, () => {
      if (!normaliseHandle(request.businessHandle)) return missingField('businessHandle', request.platform);
      if (!normaliseHandle(request.userHandle)) return missingField('userHandle', request.platform, request.verificationType);
      return null;
    });
    const named = normaliseHandle(request.userHandle) === this.options.rejectName.toLowerCase();
    const unsure = normaliseHandle(request.userHandle) === this.options.reviewName.toLowerCase();
    return this.finish(verdict, imageHash, request.image, named, PLATFORM_LABELS[request.platform], request.verificationType === 'follow' ? 'not_following' : 'missing_mention', {}, unsure);
  }

  async close(): Promise<void> {}

  private async common(image: Buffer, businessId: string, businessName: string, inputCheck: () => Verdict | null) {
    if (this.options.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.delayMs));
    const bytes = Buffer.isBuffer(image) ? image : Buffer.alloc(0);
    const imageHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    let verdict = inputCheck();
    if (!verdict && bytes.length === 0) verdict = unreadableImage();
    if (!verdict && (await this.options.history.isImageRewarded(businessId, imageHash))) verdict = duplicateImage(businessName);
    return { imageHash, verdict };
  }

  private finish(
    verdict: Verdict | null,
    imageHash: string,
    image: Buffer,
    named: boolean,
    label: string,
    defaultCode: RejectionCode,
    extra: { starRating?: null },
    unsure = false,
  ): VerificationResult {
    if (!verdict && (named || (Buffer.isBuffer(image) && image.includes(this.options.rejectMarker)))) {
      verdict = {
        ok: false,
        code: this.options.rejectionCode ?? defaultCode,
        reason: this.options.rejectionReason ?? `We couldn't verify this ${label} screenshot. Please upload a different screenshot.`,
      };
    }
    if (!verdict && (unsure || (Buffer.isBuffer(image) && image.includes(this.options.reviewMarker)))) {
      verdict = needsReview('unsure_handle', `The fake verifier was told to be unsure of this ${label} screenshot.`);
    }
    if (verdict && !verdict.ok) return verificationResult(verdict, { imageHash });
    return verificationResult({ ok: true }, { imageHash, ...extra });
  }
}

function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

/** SCREENSHOT_VERIFIER=fake (ADR 055): instant and deterministic, over the given history. */
export const provider = defineProvider({
  id: 'fake',
  demo: 'fake screenshot verifier (SCREENSHOT_VERIFIER=fake)',
  options: z.object({}),
  create: (_options, deps: { history: VerificationHistory }) => new FakeScreenshotVerifier({ history: deps.history }),
});
