/**
 * Screenshot verification (spec sections 4, 5, 7 and 8; design brief "Things the spec leaves
 * unshown"): a customer proves a review or a follow/tag with a screenshot, and the server judges it
 * from the text it can read: the reviewer's name, the business's name or handle, the platform's
 * markers; and the same image or the same review text may not earn twice for one business.
 *
 * The module owns the ports and the pure judgement (`judge.ts`). Adapters (`adapters/verification`)
 * read the image: `OcrScreenshotVerifier` (tesseract.js, offline) and `FakeScreenshotVerifier`.
 */

// The platforms and their labels are the survey template's: one list for the whole product.
export { PLATFORM_LABELS, REVIEW_PLATFORMS, SOCIAL_PLATFORMS, type ReviewPlatform, type SocialPlatform } from '../surveys/template.ts';
import type { ReviewPlatform, SocialPlatform } from '../surveys/template.ts';
export type SocialVerificationType = 'follow' | 'tag';

export type ReviewVerificationRequest = {
  businessId: string;
  /** The business's display name, from our records (never from the request body). */
  businessName: string;
  platform: ReviewPlatform;
  /** The uploaded screenshot (PNG, JPEG or WebP bytes). */
  image: Buffer;
  /** The name the customer typed: it must appear on the screenshot (fuzzy). */
  reviewerName: string;
  /** The link to the review: it must be on the platform's domain. */
  reviewLink: string;
};

export type SocialVerificationRequest = {
  businessId: string;
  businessName: string;
  platform: SocialPlatform;
  image: Buffer;
  /** The customer's own handle ('@ana.pereira', 'ana.pereira' or a profile URL). */
  userHandle: string;
  /**
   * The business's handle on that platform. The spec's request body carries one, but callers
   * should pass the survey's configured handle (socialHandles), not the customer's claim.
   */
  businessHandle: string;
  verificationType: SocialVerificationType;
};

/** Machine-readable reason of a rejection; the customer sees `rejectionReason`. */
export type RejectionCode =
  | 'missing_field'
  | 'invalid_link'
  | 'link_wrong_platform'
  | 'unreadable_image'
  | 'ocr_timeout'
  | 'duplicate_image'
  | 'no_text'
  | 'wrong_platform'
  | 'not_platform'
  | 'business_not_found'
  | 'reviewer_not_found'
  | 'duplicate_review_text'
  | 'not_following'
  | 'mention_not_found'
  | 'user_not_found'
  | 'rejected';

export type VerificationEvidence = {
  /**
   * Identity of the picture, 'sha256:<hex>'. The OCR adapter hashes the decoded pixels (so a
   * re-saved or EXIF-stripped copy of the same screenshot has the same hash); the fake hashes bytes.
   * Store it with the reward so `VerificationHistory.isImageRewarded` can find it.
   */
  imageHash: string;
  /** The review's text as read from the screenshot (reviews only, when a body was found). */
  reviewText?: string;
  /** `normaliseReviewText(reviewText)`: the key to store for `isReviewTextRewarded`. */
  normalisedReviewText?: string;
  /** Stars of the review counted from pixels, or null when no star row could be read. */
  starRating?: number | null;
};

export type VerificationResult = {
  isValid: boolean;
  /** Plain words for the customer when isValid is false; null when valid. */
  rejectionReason: string | null;
  rejectionCode: RejectionCode | null;
  evidence: VerificationEvidence;
};

export interface ScreenshotVerifier {
  readonly id: 'ocr' | 'fake';
  verifyReview(request: ReviewVerificationRequest): Promise<VerificationResult>;
  verifySocial(request: SocialVerificationRequest): Promise<VerificationResult>;
  /** Releases workers and timers; the verifier may be used again afterwards (it restarts lazily). */
  close(): Promise<void>;
}

/**
 * What has already earned a reward, per business. `modules/responses/verification-history.ts`
 * implements it over the database (`screenshot_verifications` rows used by a response keep
 * `evidence.imageHash` and `evidence.normalisedReviewText`); `InMemoryVerificationHistory` serves tests.
 */
export interface VerificationHistory {
  isImageRewarded(businessId: string, imageHash: string): Promise<boolean>;
  /** `normalisedText` is always the output of `normaliseReviewText`. */
  isReviewTextRewarded(businessId: string, normalisedText: string): Promise<boolean>;
}


