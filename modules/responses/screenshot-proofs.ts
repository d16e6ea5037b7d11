/**
 * A submission's part-3 screenshots (ADR 015, 077): each started block's verification found and
 * checked against the answers, the same picture or review text refused where it already earned a
 * reward, and what a proof that needs review holds. Split from submit.ts (issue 28 item 4).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Verified } from '../scoring/index.ts';
import { answerKey, isBlock, overallRatingOf, PLATFORM_LABELS, VERIFICATION_KIND_BY_TYPE, visibleSections, type Platform, type Question, type SurveyTemplate, type VerificationKind } from '../surveys/index.ts';
import type { HoldReason } from '../trust/server.ts';
import { duplicateImage, duplicateReviewText } from '../verification/server.ts';
import { isUuid } from '../shared/ids.ts';
import { ScreenshotVerification } from './entities.ts';
import type { SubmissionResult } from './submission-types.ts';

/** A started block and the verification that proves it. */
export type Use = { question: Question; kind: VerificationKind; platform: Platform; row: ScreenshotVerification };

function notVerified(q: Question & { platform: Platform }): Extract<SubmissionResult, { ok: false }> {
  return {
    ok: false,
    status: 400,
    title: 'Screenshot Not Verified',
    message: `Your ${PLATFORM_LABELS[q.platform]} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.`,
    key: 'Your {{platform}} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.',
    params: { platform: PLATFORM_LABELS[q.platform] },
    field: q.id,
  };
}

function rejected(use: Pick<Use, 'question' | 'kind' | 'platform'>, status: 409 | 422, message: string, rejectionCode: string | null): Extract<SubmissionResult, { ok: false }> {
  return {
    ok: false,
    status,
    title: 'Screenshot Verification Failed',
    message,
    field: use.question.id,
    screenshotRejected: { platform: use.platform, kind: use.kind, questionId: use.question.id, rejectionCode },
  };
}

/** The verifier's own words for a second use: the same picture, or (reviews) the same review text. */
export function alreadyRewarded(use: Use, businessName: string, sameText: boolean): Extract<SubmissionResult, { ok: false }> {
  const verdict = sameText ? duplicateReviewText(businessName) : duplicateImage(businessName);
  return rejected(use, 409, verdict.ok ? '' : verdict.reason, 'duplicate');
}

/**
 * The part-3 blocks the customer was shown (platform selected, the branch of their rating) and
 * started, each with the verification its screenshot answer names. Blocks of the other branch are
 * not shown, earn nothing and are not checked (a rating changed after a review was verified must not
 * block the submission). checkAnswers has already made every started block complete.
 */
export async function checkScreenshots(
  em: EntityManager,
  businessName: string,
  template: SurveyTemplate,
  survey: { id: string; businessId: string; selectedReviewPlatforms: readonly string[]; selectedSocialPlatforms: readonly string[] },
  answers: Record<string, string | number>,
): Promise<{ ok: true; verified: Verified; uses: Use[] } | { ok: false; refusal: Extract<SubmissionResult, { ok: false }> }> {
  const blocks: Array<{ question: Question & { platform: Platform }; kind: VerificationKind; id: string }> = [];
  for (const section of visibleSections(template, survey, overallRatingOf(template, answers))) {
    for (const q of section.questions) {
      const shot = q.fields?.find((f) => f.type === 'image_upload');
      if (!isBlock(q) || !shot || !q.fields?.some((f) => answers[answerKey(q.id, f.id)] !== undefined)) continue;
      blocks.push({ question: q, kind: VERIFICATION_KIND_BY_TYPE[q.type], id: String(answers[answerKey(q.id, shot.id)] ?? '') });
    }
  }
  const ids = [...new Set(blocks.map((b) => b.id).filter((id) => isUuid(id)))];
  const rows = ids.length
    ? await em.find(ScreenshotVerification, { id: { $in: ids }, businessId: survey.businessId, surveyConfigId: survey.id })
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));

  const verified = { review: {}, follow: {}, tag: {} } as { review: Record<string, boolean>; follow: Record<string, boolean>; tag: Record<string, boolean> };
  const uses: Use[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    const { question: q, kind } = block;
    const row = byId.get(block.id);
    if (!row || row.kind !== kind || row.platform !== q.platform || seen.has(row.id)) return { ok: false, refusal: notVerified(q) };
    if (kind === 'review') {
      // Spec 4: editing a review field resets the platform, so the verification covers these values only.
      const same = (field: string, value: string | null | undefined) => String(answers[answerKey(q.id, field)] ?? '').trim() === (value ?? '');
      if (!same('reviewer_name', row.reviewerName) || !same('review_link', row.reviewLink)) return { ok: false, refusal: notVerified(q) };
    }
    seen.add(row.id);
    const use: Use = { question: q, kind, platform: q.platform, row };
    if (!row.isValid) return { ok: false, refusal: rejected(use, 422, row.rejectionReason ?? 'Please upload a different screenshot.', row.rejectionCode ?? null) };
    verified[kind][q.platform] = true;
    uses.push(use);
  }
  // A row used by an earlier response fails here already; the guarded update in the transaction
  // catches one used meanwhile.
  const used = uses.find((u) => u.row.surveyResponseId !== null);
  if (used) return { ok: false, refusal: alreadyRewarded(used, businessName, false) };
  return { ok: true, verified, uses };
}

/** The hold reason of a proof that needs the owner's review: what was claimed, and why the verifier was unsure. */
export function proofNeedsReview({ kind, platform, row }: Use): HoldReason {
  const what = `${PLATFORM_LABELS[platform]} ${kind === 'review' ? 'review' : kind === 'follow' ? 'follow' : 'tag'}`;
  const claim =
    kind === 'review'
      ? `The customer says they are ${JSON.stringify(row.reviewerName ?? '')} (review link ${row.reviewLink ?? 'none'}).`
      : `The customer's handle: ${row.userHandle ? `@${row.userHandle.replace(/^@+/, '')}` : 'none'}.`;
  return {
    code: 'proof_needs_review',
    detail: `${what} screenshot needs your review: ${row.reviewReason ?? 'the verifier was not sure of it.'} ${claim}`,
    verificationId: row.id,
  };
}

/** socialVerificationData: per kind and platform, the verification that proved it. */
export function socialVerificationData(uses: Use[]): Record<string, unknown> {
  const data: Record<VerificationKind, Record<string, unknown>> = { review: {}, follow: {}, tag: {} };
  for (const { kind, platform, row } of uses) {
    data[kind][platform] = {
      verificationId: row.id,
      imageHash: row.imageHash,
      ...(kind === 'review' ? { starRating: row.starRating ?? null } : {}),
    };
  }
  return data;
}
