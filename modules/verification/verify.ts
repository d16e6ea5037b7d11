/**
 * The order of the checks, shared by the screenshot verifiers: cheap input checks first, then the
 * image hash against the history, then reading the image (the slow part) and the judgement, then
 * the review text against the history. An adapter supplies only the `ScreenshotReader`.
 */
import { checkReviewLink } from './judge/links.ts';
import { nameCandidateLines } from './judge/names.ts';
import type { OcrText, StarRow } from './judge/ocr.ts';
import { judgeReview } from './judge/review.ts';
import { judgeSocial } from './judge/social.ts';
import { duplicateImage, duplicateReviewText, isRejection, missingField, needsReview, ocrTimeout, unreadableImage, type Verdict } from './judge/verdicts.ts';
import {
  type RejectionCode,
  type ReviewReasonCode,
  REVIEW_PLATFORMS,
  SOCIAL_PLATFORMS,
  type ReviewVerificationRequest,
  type SocialVerificationRequest,
  type VerificationEvidence,
  type VerificationHistory,
  type VerificationResult,
} from './port.ts';
import { normaliseHandle } from './text.ts';

/**
 * What a reader made of an image. `more`: a closer reading (slower; e.g. OCR passes that look for
 * words inside buttons and over photos), asked for only when the first reading was rejected for a
 * reason more text could change; it returns everything read so far plus what it found.
 * `reread`: the given lines read again with models that know letters beyond English (á ñ ü ß ç ã
 * ł ś...), asked for only when a review's name does not match (ADR 076); it returns the reading with
 * those lines replaced, or null when it could not read them (a timeout).
 */
export type ScreenshotReading =
  | { kind: 'read'; ocr: OcrText; starRows: StarRow[]; more?: () => Promise<ScreenshotReading>; reread?: (lines: readonly number[]) => Promise<OcrText | null> }
  | { kind: 'timeout' };

/** Rejections that words the first OCR pass missed (a button's label, a caption over a video) may turn. */
export const CLOSER_READING_CODES: ReadonlySet<RejectionCode> = new Set<RejectionCode>([
  'not_following',
  'missing_mention',
  'author_mismatch',
  'wrong_account',
  'not_a_review',
  'name_mismatch',
  'wrong_business',
  'unreadable',
]);

/** Reviews sent for one thing the first pass did not read (a follow button, a post's author line). */
export const CLOSER_READING_REVIEW_CODES: ReadonlySet<ReviewReasonCode> = new Set<ReviewReasonCode>(['unsure_follow', 'unsure_author']);

/** The names a verdict may have been refused over, which a reading with other models may read right. */
type Names = { person?: string; business?: string };

/**
 * Judges the reading; when it is rejected for a reason in CLOSER_READING_CODES and the reader offers a
 * closer reading, judges that instead (its verdict, accept or reject, stands: it saw more).
 */
async function judgeCloser(
  reading: Extract<ScreenshotReading, { kind: 'read' }>,
  judge: (r: Extract<ScreenshotReading, { kind: 'read' }>) => Verdict,
  names: Names,
): Promise<{ verdict: Verdict; reading: Extract<ScreenshotReading, { kind: 'read' }> }> {
  const first = await judgeNameAgain(reading, judge, names);
  // A review verdict stands as it is (the owner sees the screenshot, ADR 077), except where the
  // verifier was unsure only because one thing was not read: the closer reading may read it.
  const closerMayTell = isRejection(first.verdict) ? CLOSER_READING_CODES.has(first.verdict.code) : !first.verdict.ok && CLOSER_READING_REVIEW_CODES.has(first.verdict.code);
  if (!closerMayTell || !reading.more) return first;
  const closer = await reading.more();
  if (closer.kind === 'timeout') return first;
  return judgeNameAgain(closer, judge, names);
}

/** Whether a name has letters the English OCR model does not know ('Müller', 'Łódź', 'Façade'). */
const beyondEnglish = (name: string) => /[^ -~’‘]/.test(name.normalize('NFC'));

/**
 * Judges the reading; when a review is rejected for its name and the reader can read lines again
 * with models that know accented letters, the lines that may show the name misread
 * (`nameCandidateLines`) are read again and the reading is judged once more (ADR 076). The second
 * verdict stands: the same rules judge a better reading of the same pixels. The same for a
 * business whose name has letters beyond English, refused as not found ('Kaffeehaus Müller' read
 * 'Kaffeehaus Miiller' by the English model), or a Facebook post's tag of it not found: the lines
 * that may show it are read again.
 */
async function judgeNameAgain(
  reading: Extract<ScreenshotReading, { kind: 'read' }>,
  judge: (r: Extract<ScreenshotReading, { kind: 'read' }>) => Verdict,
  names: Names,
): Promise<{ verdict: Verdict; reading: Extract<ScreenshotReading, { kind: 'read' }> }> {
  const verdict = judge(reading);
  // A name read unsure (needs_review, ADR 077) is read again too: the other models may read it sure.
  const personInDoubt = verdict.ok ? false : verdict.review ? verdict.code === 'unsure_name' : verdict.code === 'name_mismatch';
  const businessInDoubt = isRejection(verdict) && (verdict.code === 'wrong_business' || verdict.code === 'missing_mention') && names.business !== undefined && beyondEnglish(names.business);
  const name = personInDoubt ? names.person : businessInDoubt ? names.business : undefined;
  if (name === undefined || !reading.reread) return { verdict, reading };
  const lines = nameCandidateLines(reading.ocr, name);
  if (lines.length === 0) return { verdict, reading };
  const ocr = await reading.reread(lines);
  if (!ocr) return { verdict, reading };
  const again = { ...reading, ocr };
  const second = judge(again);
  // A name in doubt that the other models read no better ('tukasz' for Łukasz, its initial lost)
  // stays in doubt: two readings that disagree are the owner's to settle, not a refusal.
  if (!verdict.ok && verdict.review && isRejection(second)) return { verdict, reading };
  return { verdict: second, reading: again };
}

export type OpenedScreenshot = {
  /** 'sha256:<hex>' identity of the picture (see VerificationEvidence.imageHash). */
  imageHash: string;
  /** Its fingerprint (VerificationEvidence.imageFingerprint), when the reader decoded it. */
  imageFingerprint?: string;
  /** Reads the text (and star rows); null when the bytes are not an image we can decode. */
  read: (() => Promise<ScreenshotReading>) | null;
};

export interface ScreenshotReader {
  open(image: Buffer): Promise<OpenedScreenshot>;
}

/** The verdict as the port answers it: the three verdicts, `isValid` true for accepted and needs_review. */
export function verificationResult(verdict: Verdict, evidence: VerificationEvidence): VerificationResult {
  const none = { rejectionReason: null, rejectionCode: null, reviewCode: null, reviewReason: null };
  if (verdict.ok) return { verdict: 'accepted', isValid: true, ...none, evidence };
  if (verdict.review) return { verdict: 'needs_review', isValid: true, ...none, reviewCode: verdict.code, reviewReason: verdict.reason, evidence };
  return { verdict: 'rejected', isValid: false, ...none, rejectionReason: verdict.reason, rejectionCode: verdict.code, evidence };
}
const result = verificationResult;

/**
 * Whether the picture already earned a reward at this business: `'same'` (its pixels' hash) or
 * `'similar'` (only the fingerprint finds it alike, ADR 067 and 074: a lossy or edited copy, or a
 * new capture of the same screen a minute later), else null.
 */
async function rewardedPicture(history: VerificationHistory, businessId: string, opened: OpenedScreenshot): Promise<'same' | 'similar' | null> {
  if (await history.isImageRewarded(businessId, opened.imageHash)) return 'same';
  return opened.imageFingerprint && (await history.isCopyRewarded(businessId, opened.imageFingerprint)) ? 'similar' : null;
}

/**
 * A follow screenshot only the fingerprint finds alike to a rewarded one (ADR 077): it is judged
 * as any other, and what would be accepted goes to the owner, since an honest customer may
 * screenshot their follow again (a one-digit clock change matches, ADR 074), and a re-saved copy
 * of another customer's proof matches too. The owner compares the two.
 */
function similarFollow(verdict: Verdict, businessName: string): Verdict {
  if (!verdict.ok) return verdict;
  return needsReview(
    'similar_capture',
    `This follow screenshot looks almost the same as one already rewarded at ${businessName.trim()} (its picture, not its file). It may be the same customer's new screenshot of the profile, or a copy of another customer's. Compare it with the follows already rewarded.`,
  );
}

const blank = (value: unknown) => typeof value !== 'string' || value.trim() === '';

export async function verifyReviewWith(reader: ScreenshotReader, history: VerificationHistory, request: ReviewVerificationRequest): Promise<VerificationResult> {
  if (!REVIEW_PLATFORMS.includes(request.platform)) throw new TypeError(`unknown review platform ${String(request.platform)}`);
  const opened = await reader.open(request.image);
  const evidence: VerificationEvidence = { imageHash: opened.imageHash, ...(opened.imageFingerprint ? { imageFingerprint: opened.imageFingerprint } : {}) };
  if (blank(request.reviewerName)) return result(missingField('reviewerName', request.platform), evidence);
  if (blank(request.reviewLink)) return result(missingField('reviewLink', request.platform), evidence);
  const link = checkReviewLink(request.platform, request.reviewLink, { name: request.businessName, handle: request.businessHandle });
  if (!link.ok) return result(link, evidence);
  if (!opened.read) return result(unreadableImage(), evidence);
  if (await rewardedPicture(history, request.businessId, opened)) return result(duplicateImage(request.businessName), evidence);

  const first = await opened.read();
  if (first.kind === 'timeout') return result(ocrTimeout(), evidence);
  const judged = await judgeCloser(
    first,
    (reading) => judgeReview({ platform: request.platform, businessName: request.businessName, reviewerName: request.reviewerName }, reading.ocr, reading.starRows),
    { person: request.reviewerName, business: request.businessName },
  );
  const { verdict } = judged;
  // An acceptance, or a review the owner will look at (ADR 077): what was read is kept, and the same review text never earns twice.
  if (verdict.ok || verdict.review) {
    const found: VerificationEvidence = {
      ...evidence,
      ...(verdict.reviewText ? { reviewText: verdict.reviewText } : {}),
      ...(verdict.normalisedReviewText ? { normalisedReviewText: verdict.normalisedReviewText } : {}),
      starRating: verdict.starRating ?? null,
    };
    if (verdict.normalisedReviewText && (await history.isReviewTextRewarded(request.businessId, verdict.normalisedReviewText))) {
      return result(duplicateReviewText(request.businessName), found);
    }
    return result(verdict.ok ? { ok: true } : verdict, found);
  }
  return result(verdict, evidence);
}

export async function verifySocialWith(reader: ScreenshotReader, history: VerificationHistory, request: SocialVerificationRequest): Promise<VerificationResult> {
  if (!SOCIAL_PLATFORMS.includes(request.platform)) throw new TypeError(`unknown social platform ${String(request.platform)}`);
  if (request.verificationType !== 'follow' && request.verificationType !== 'tag') {
    throw new TypeError(`unknown verification type ${String(request.verificationType)}`);
  }
  const opened = await reader.open(request.image);
  const evidence: VerificationEvidence = { imageHash: opened.imageHash, ...(opened.imageFingerprint ? { imageFingerprint: opened.imageFingerprint } : {}) };
  if (!normaliseHandle(request.businessHandle)) return result(missingField('businessHandle', request.platform), evidence);
  // The spec requires the customer's handle for follows too, although only a tag shows it.
  if (!normaliseHandle(request.userHandle)) return result(missingField('userHandle', request.platform, request.verificationType), evidence);
  if (!opened.read) return result(unreadableImage(), evidence);
  const rewarded = await rewardedPicture(history, request.businessId, opened);
  // Only a follow's fingerprint-only likeness goes to the owner; reviews and tags stay duplicates.
  if (rewarded === 'same' || (rewarded === 'similar' && request.verificationType !== 'follow')) return result(duplicateImage(request.businessName), evidence);

  const first = await opened.read();
  if (first.kind === 'timeout') return result(ocrTimeout(), evidence);
  const judged = await judgeCloser(first, (reading) =>
    judgeSocial(
      {
        platform: request.platform,
        businessName: request.businessName,
        businessHandle: request.businessHandle,
        userHandle: request.userHandle,
        verificationType: request.verificationType,
      },
      reading.ocr,
    ),
    // Facebook tags a page by its name, not its handle: a name the English model misread is read again.
    request.platform === 'facebook' ? { business: request.businessName } : {},
  );
  return result(rewarded === 'similar' ? similarFollow(judged.verdict, request.businessName) : judged.verdict, evidence);
}
