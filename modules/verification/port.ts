/**
 * Screenshot verification (spec sections 4, 5, 7 and 8; design brief "Things the spec leaves
 * unshown"): a customer proves a review or a follow/tag with a screenshot, and the server judges it
 * from the text it can read: the reviewer's name, the business's name or handle, the platform's
 * markers; and the same image or the same review text may not earn twice for one business.
 *
 * The module owns the ports and the pure judgement (`judge/`, indexed by `judge.ts`). Adapters (`adapters/verification`)
 * read the image: `OcrScreenshotVerifier` (tesseract.js, offline) and `FakeScreenshotVerifier`.
 */

// The platforms and their labels are the survey template's: one list for the whole product.
export { PLATFORM_LABELS, REVIEW_PLATFORMS, SOCIAL_PLATFORMS, type ReviewPlatform, type SocialPlatform } from '../surveys/index.ts';
import type { ReviewPlatform, SocialPlatform } from '../surveys/index.ts';
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
  /**
   * The link to the review: it must be on the platform's domain and, where its path names a
   * business (a Yelp /biz/ slug, a Google /maps/place/ name, a Facebook page), name this one.
   */
  reviewLink: string;
  /** The survey's own handle of the business on this platform, if any (a Facebook page name in the link may be it). */
  businessHandle?: string;
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

/**
 * Machine-readable reason of a rejection (issue 13); the customer sees `rejectionReason`, a plain
 * sentence that says what to do. Answered by POST /api/verify-screenshot and /api/verify-social.
 */
export const REJECTION_CODES = [
  /** The reviewer's name is not the review's author line (or was not given). */
  'name_mismatch',
  /** The review (or its link) is about another business, or the survey has no handle to check against. */
  'wrong_business',
  /** The screenshot or the link is of another platform than the one claimed. */
  'wrong_platform',
  /** Not a review at all: a chat, a note, a flyer, a page without the review layout. */
  'not_a_review',
  /** A review not posted yet (a draft with its Post button), or no usable link to the posted review. */
  'not_posted',
  /** The profile shows a Follow button, or no Following state. */
  'not_following',
  /** A follow screenshot of another account than the business's (or no handle given). */
  'wrong_account',
  /** A tag screenshot without an @mention of the business (outside likes and comments). */
  'missing_mention',
  /** A tag screenshot of a post whose author is not the customer. */
  'author_mismatch',
  /** The same image or review already earned a reward at this business. */
  'duplicate',
  /** The image could not be opened or read (blank, a photo, OCR timed out). */
  'unreadable',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

/**
 * The codes stored before issue 13 and the code each means now (migration
 * Migration20261124000000RejectionCodes rewrites stored rows with it). 'missing_field' and
 * 'user_not_found' depended on the field or kind, so they map to the commonest meaning.
 */
export const LEGACY_REJECTION_CODES: Readonly<Record<string, RejectionCode>> = {
  missing_field: 'name_mismatch',
  invalid_link: 'not_posted',
  link_wrong_platform: 'wrong_platform',
  unreadable_image: 'unreadable',
  ocr_timeout: 'unreadable',
  duplicate_image: 'duplicate',
  no_text: 'unreadable',
  wrong_platform: 'wrong_platform',
  not_platform: 'not_a_review',
  business_not_found: 'wrong_business',
  reviewer_not_found: 'name_mismatch',
  duplicate_review_text: 'duplicate',
  not_following: 'not_following',
  mention_not_found: 'missing_mention',
  user_not_found: 'author_mismatch',
  rejected: 'not_a_review',
};

/**
 * The three verdicts (issue 31): accepted, rejected (with a RejectionCode and the customer's words),
 * or needs_review when the verifier is not sure. A proof that needs review counts for the customer
 * (`isValid` is true: the points count provisionally) and its reward is held for the owner, who
 * sees the screenshot, the claim and `reviewReason` (ADR 077).
 */
export const VERDICTS = ['accepted', 'rejected', 'needs_review'] as const;
export type VerdictName = (typeof VERDICTS)[number];

/**
 * Why a proof needs the owner's review: one code per rule family that can be unsure (ADR 077).
 * Every needs_review verdict carries one; no other rule may send a proof to review.
 */
export const REVIEW_REASON_CODES = [
  /**
   * A handle (the business's, or the customer's on a tag) read under 70% OCR confidence one
   * look-alike letter away (b/h, h/n, e/c, e/g, g/q, u/v swapped, or a letter before it): a blurred
   * right handle, or another account's. Read confidently it is another account (rejected).
   */
  'unsure_handle',
  /**
   * 'I' or '|' before an Instagram or TikTok handle that is otherwise the business's (or the
   * customer's): an icon read as a letter, or the account 'l' + handle, which those apps' fonts draw
   * alike. OCR cannot tell them apart at any confidence.
   */
  'stray_letter',
  /**
   * The reviewer's name on the review's author line read under 70% OCR confidence with one word one
   * look-alike letter off ('Ana Pcreira'): the customer's blurred review, or someone else's.
   */
  'unsure_name',
  /**
   * A follow screenshot that only the fingerprint (ADR 074) finds alike to one already rewarded at
   * this business, not the same bytes: a re-saved copy of someone else's proof, or the same
   * customer's new capture of the profile a minute later (a one-digit clock change matches).
   */
  'similar_capture',
  /**
   * A follow screenshot of the business's own profile (its handle or name read) on which no follow
   * button was read at all, neither "Following" nor "Follow": the one thing OCR missed, not a sign
   * of not following. A button read as "Follow" is still a rejection.
   */
  'unsure_follow',
  /**
   * A Facebook post that tags the page, whose author line names a person the customer's username
   * does not spell: Facebook shows the author's name, not the username ('priya.rag' posts as
   * 'Priya Raghunathan'), so only the owner can tell whether it is the customer.
   */
  'unsure_author',
] as const;
export type ReviewReasonCode = (typeof REVIEW_REASON_CODES)[number];

/** What the customer is told about a proof that needs review (the page and the verify APIs say the same). */
export const NEEDS_REVIEW_MESSAGE = 'Screenshot received. The business will check it by hand: your points count, and your reward arrives by email once it is confirmed.';

export type VerificationEvidence = {
  /**
   * Identity of the picture, 'sha256:<hex>'. The OCR adapter hashes the decoded pixels (so a
   * re-saved or EXIF-stripped copy of the same screenshot has the same hash); the fake hashes bytes.
   * Store it with the reward so `VerificationHistory.isImageRewarded` can find it.
   */
  imageHash: string;
  /**
   * The picture's fingerprint (`fingerprint.ts`, ADR 067): a small greyscale thumbnail that finds a
   * lossy copy (re-saved as JPEG or WebP, downscaled, the status bar cropped) of a rewarded
   * screenshot. Absent when the adapter does not decode images (the fake). Store it with the reward
   * so `VerificationHistory.isCopyRewarded` can find it.
   */
  imageFingerprint?: string;
  /** The review's text as read from the screenshot (reviews only, when a body was found). */
  reviewText?: string;
  /** `normaliseReviewText(reviewText)`: the key to store for `isReviewTextRewarded`. */
  normalisedReviewText?: string;
  /** Stars of the review counted from pixels, or null when no star row could be read. */
  starRating?: number | null;
};

export type VerificationResult = {
  verdict: VerdictName;
  /** True for accepted and needs_review (the customer goes on; a needs_review reward is held). */
  isValid: boolean;
  /** Plain words for the customer when rejected; null otherwise. */
  rejectionReason: string | null;
  rejectionCode: RejectionCode | null;
  /** needs_review only: which unsure rule, and why in the owner's words; null otherwise. */
  reviewCode: ReviewReasonCode | null;
  reviewReason: string | null;
  evidence: VerificationEvidence;
};

export interface ScreenshotVerifier {
  readonly id: 'ocr' | 'fake' | 'vision';
  verifyReview(request: ReviewVerificationRequest): Promise<VerificationResult>;
  verifySocial(request: SocialVerificationRequest): Promise<VerificationResult>;
  /** Releases workers and timers; the verifier may be used again afterwards (it restarts lazily). */
  close(): Promise<void>;
}

/**
 * What has already earned a reward, per business. `modules/responses/verification-history.ts`
 * implements it over the database (`screenshot_verifications` rows used by a response keep
 * `evidence.imageHash`, `evidence.imageFingerprint` and `evidence.normalisedReviewText`); `InMemoryVerificationHistory` serves tests.
 */
export interface VerificationHistory {
  isImageRewarded(businessId: string, imageHash: string): Promise<boolean>;
  /**
   * Whether a rewarded image of this business is the same capture as the one with this
   * fingerprint, re-saved (`isSameCapture`): not merely another screenshot of the same screen.
   */
  isCopyRewarded(businessId: string, imageFingerprint: string): Promise<boolean>;
  /** `normalisedText` is always the output of `normaliseReviewText`. */
  isReviewTextRewarded(businessId: string, normalisedText: string): Promise<boolean>;
}


