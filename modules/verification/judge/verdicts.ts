/**
 * The three verdicts (accepted, rejected, sent to the owner's review, ADR 077) and the reasons
 * around the judgement: a missing field, a duplicate, an OCR timeout, an unreadable image.
 */
import { type RejectionCode, type ReviewReasonCode, type ReviewPlatform, type SocialPlatform, type SocialVerificationType, PLATFORM_LABELS } from '../port.ts';
import { normaliseHandle } from '../text.ts';
import type { OcrText } from './ocr.ts';


/**
 * A judgement: accepted (`ok`), rejected (a RejectionCode and the customer's words), or sent to the
 * owner's review (`review`: a ReviewReasonCode and the owner's words, ADR 077). A review verdict is
 * `ok: false` so that code which knows only two verdicts never takes it for an acceptance.
 */
export type Verdict =
  | { ok: true; reviewText?: string; normalisedReviewText?: string; starRating?: number | null }
  | { ok: false; review?: undefined; code: RejectionCode; reason: string }
  | { ok: false; review: true; code: ReviewReasonCode; reason: string; reviewText?: string; normalisedReviewText?: string; starRating?: number | null };

export type Rejection = Extract<Verdict, { ok: false; review?: undefined }>;

export const reject = (code: RejectionCode, reason: string): Rejection => ({ ok: false, code, reason });

/** The owner's review instead of an acceptance: `reason` says why the verifier was unsure, for the owner. */
export const needsReview = (code: ReviewReasonCode, reason: string): Verdict => ({ ok: false, review: true, code, reason });

/** A rejection (not an acceptance, not a review). */
export const isRejection = (verdict: Verdict): verdict is Rejection => !verdict.ok && !verdict.review;

// ---------------------------------------------------------------------------------------------
// Verdicts

/** Enough text to judge: a blank or a photo gives a handful of stray characters at most. */
export function hasText(ocr: OcrText): boolean {
  // Lines OCR itself doubts (a blurred picture gives 'teh A RR RB' at 40-50%) do not count.
  const letters = ocr.lines.filter((l) => l.confidence >= READABLE_LINE_CONFIDENCE).map((l) => l.text).join(' ').match(/\p{L}{2,}/gu) ?? [];
  return letters.join('').length >= 12;
}

/** Below this confidence (0-100) a line is what OCR made of a blur or a picture, not text. */
const READABLE_LINE_CONFIDENCE = 50;

/** 'a Google', 'an Instagram', 'an X'. */
export function withArticle(label: string): string {
  return `${/^(Instagram|X)$/.test(label) ? 'an' : 'a'} ${label}`;
}

export function quoted(value: string): string {
  return `"${value.trim()}"`;
}

export function atHandle(handle: string): string {
  return `@${normaliseHandle(handle)}`;
}

// ---------------------------------------------------------------------------------------------
// Reasons used around the judgement

export function missingField(field: 'reviewerName' | 'reviewLink' | 'userHandle' | 'businessHandle', platform: ReviewPlatform | SocialPlatform, kind?: SocialVerificationType): Verdict {
  const label = PLATFORM_LABELS[platform];
  switch (field) {
    case 'reviewerName':
      return reject('name_mismatch', `Please enter your name as it appears on your ${label} review.`);
    case 'reviewLink':
      return reject('not_posted', `Please paste the link to your posted ${label} review.`);
    case 'userHandle':
      return reject(kind === 'tag' ? 'author_mismatch' : 'wrong_account', `Please enter your ${label} handle.`);
    case 'businessHandle':
      return reject('wrong_business', `This survey has no ${label} handle set up, so the screenshot can't be checked. Please tell the business.`);
  }
}

export function duplicateImage(businessName: string): Verdict {
  return reject('duplicate', `This screenshot has already been used for a reward at ${businessName.trim()}. Each review or follow can earn a reward only once.`);
}

export function duplicateReviewText(businessName: string): Verdict {
  return reject('duplicate', `This review has already been used for a reward at ${businessName.trim()}. Each review can earn a reward only once.`);
}

export const OCR_TIMEOUT_REASON = "We couldn't read this screenshot in time. Please try again.";

export function ocrTimeout(): Verdict {
  return reject('unreadable', OCR_TIMEOUT_REASON);
}

export function unreadableImage(): Verdict {
  return reject('unreadable', "We couldn't open this image. Upload a screenshot saved as PNG, JPEG or WebP.");
}
