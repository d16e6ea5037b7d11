import type { EntityManager } from '@mikro-orm/core';
import { isCopyOfAny } from '../verification/server.ts';
import type { VerificationHistory } from '../verification/index.ts';
import { isUuid } from '../shared/ids.ts';
import { REVIEW_TEXT_KEY_MAX, ScreenshotVerification } from './entities.ts';


/** The stored duplicate key of a review's text: `normaliseReviewText` output, cut to REVIEW_TEXT_KEY_MAX letters. */
export function reviewTextKey(normalisedText: string): string {
  return normalisedText.slice(0, REVIEW_TEXT_KEY_MAX);
}

/**
 * VerificationHistory over `screenshot_verifications` (ADR 015): an image (or a lossy copy of it,
 * by its fingerprint, ADR 067) or a review text is
 * rewarded for a business when a row of that business with it has been used by a submission
 * (`survey_response_id` set). One process-wide instance; each lookup forks its own EntityManager
 * from `em` (the root's), so it never touches a request's unit of work.
 */
export function createDatabaseVerificationHistory(
  em: EntityManager,
  /** `excludeResponseId`: ignore what this response used (a replay of its own checks must not find itself). */
  options: { excludeResponseId?: string } = {},
): VerificationHistory {
  const usedBy = options.excludeResponseId ? { $ne: null, $nin: [options.excludeResponseId] } : { $ne: null };
  const used = async (where: { businessId: string; imageHash?: string; normalisedReviewText?: string }) =>
    isUuid(where.businessId) && (await em.fork().count(ScreenshotVerification, { ...where, surveyResponseId: usedBy })) > 0;
  return {
    isImageRewarded: (businessId, imageHash) => used({ businessId, imageHash }),
    // Every rewarded fingerprint of the business, compared here (ADR 067, 072: a few ms each for
    // another screen, up to about 20 for a copy; a business has a few hundred rewards a year at most).
    isCopyRewarded: async (businessId, imageFingerprint) => {
      if (!isUuid(businessId)) return false;
      const rows = await em
        .fork()
        .find(ScreenshotVerification, { businessId, surveyResponseId: usedBy, imageFingerprint: { $ne: null } }, { fields: ['imageFingerprint'], populate: ['imageFingerprint'] });
      return isCopyOfAny(imageFingerprint, rows.flatMap((row) => (row.imageFingerprint ? [row.imageFingerprint] : [])));
    },
    isReviewTextRewarded: (businessId, normalisedText) => used({ businessId, normalisedReviewText: reviewTextKey(normalisedText) }),
  };
}
