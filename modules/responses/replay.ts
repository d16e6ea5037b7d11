import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import type { JobQueue } from '../jobs/index.ts';
import { scoreSurvey, type Verified } from '../scoring/index.ts';
import { SurveyConfig } from '../surveys/server.ts';
import { effectiveTemplate, PLATFORM_LABELS, type Answers, type Platform, type ReviewPlatform, type SocialPlatform } from '../surveys/index.ts';
import { appendAudit, createHold, holdStatus } from '../trust/server.ts';
import type { BlobStore } from '../uploads/index.ts';
import type { ScreenshotVerifier, VerdictName, VerificationHistory, VerificationResult } from '../verification/index.ts';
import { createDatabaseVerificationHistory } from './verification-history.ts';
import { ScreenshotVerification, SurveyResponse } from './entities.ts';
import { isUuid } from '../shared/ids.ts';

export type Verdict = { isValid: boolean; verdict: VerdictName; rejectionCode: string | null; rejectionReason: string | null; reviewCode: string | null; reviewReason: string | null };

export type ReplayedCheck = {
  id: string;
  kind: string;
  platform: string;
  before: Verdict;
  /** null when the stored image is gone: the old verdict stands. */
  after: Verdict | null;
};

export type ScoreView = { points: number; tier: string | null; rewardValue: number | null };

export type ReplayResult =
  | { ok: false; reason: 'not-found' | 'no-survey' }
  | {
      ok: true;
      responseId: string;
      checks: ReplayedCheck[];
      before: ScoreView;
      after: ScoreView;
      changed: boolean;
      /** Applied (`apply`): the checks' verdicts and the response's points, tier and value were updated. */
      applied: boolean;
      /** Why `apply` changed nothing, when it did not. */
      refused: string | null;
      /** A reward-issue job was queued because the new score earns a reward and none was issued. */
      rewardQueued: boolean;
      /** Applied with a proof that now needs review (ADR 077) and no hold yet: the reward is held for the owner, not queued. */
      rewardHeld?: boolean;
    };

/**
 * `reward-cli verifications replay` (issue 5): runs the screenshot checks of one response again,
 * through the given verifier (whose history must ignore this response's own uses, or every image
 * would be its own duplicate), on the images kept in the BlobStore, and scores the response again
 * with the new verdicts and the questions it was answered with. Nothing changes unless `apply`; then, in one transaction, the checks'
 * verdicts and the response's points, tier and value are updated, and a reward newly earned is
 * queued. A response whose card was already issued keeps its reward: apply is refused when the
 * reward would change. Whether a card was issued is asked of the rewards module through
 * `rewardIssued` (rewards depends on responses, never the other way round).
 */
export async function replayVerifications(
  deps: {
    em: EntityManager;
    verifier: ScreenshotVerifier;
    blobStore: BlobStore;
    jobs: JobQueue | null;
    rewardIssued: (em: EntityManager, responseId: string) => Promise<boolean>;
  },
  responseId: string,
  options: { apply?: boolean } = {},
): Promise<ReplayResult> {
  const em = deps.em.fork();
  const response = isUuid(responseId) ? await em.findOne(SurveyResponse, { id: responseId }) : null;
  if (!response) return { ok: false, reason: 'not-found' };
  const survey = response.surveyConfigId ? await em.findOne(SurveyConfig, { id: response.surveyConfigId }) : null;
  // The questions the customer answered (kept with the response), else (older responses) the survey's current ones.
  const template = survey ? effectiveTemplate({ surveyTemplateId: survey.surveyTemplateId, customQuestions: response.surveyQuestions ?? survey.customQuestions }) : undefined;
  if (!survey || !template) return { ok: false, reason: 'no-survey' };
  const business = await em.findOneOrFail(Business, { id: response.businessId }, { fields: ['id', 'displayName'] });
  const rows = await em.find(ScreenshotVerification, { surveyResponseId: responseId }, { orderBy: { createdAt: 'asc', id: 'asc' } });

  const checks: ReplayedCheck[] = [];
  for (const row of rows) {
    const before: Verdict = {
      isValid: row.isValid,
      verdict: row.verdict,
      rejectionCode: row.rejectionCode ?? null,
      rejectionReason: row.rejectionReason ?? null,
      reviewCode: row.reviewCode ?? null,
      reviewReason: row.reviewReason ?? null,
    };
    const blob = await deps.blobStore.get(row.uploadKey);
    let after: Verdict | null = null;
    if (blob) {
      let result: VerificationResult;
      if (row.kind === 'review') {
        result = await deps.verifier.verifyReview({
          businessId: response.businessId,
          businessName: business.displayName,
          platform: row.platform as ReviewPlatform,
          image: blob.data,
          reviewerName: row.reviewerName ?? '',
          reviewLink: row.reviewLink ?? '',
        });
      } else {
        result = await deps.verifier.verifySocial({
          businessId: response.businessId,
          businessName: business.displayName,
          platform: row.platform as SocialPlatform,
          image: blob.data,
          userHandle: row.userHandle ?? '',
          businessHandle: survey.socialHandles[row.platform] ?? '',
          verificationType: row.kind === 'tag' ? 'tag' : 'follow',
        });
      }
      after = {
        isValid: result.isValid,
        verdict: result.verdict,
        rejectionCode: result.rejectionCode,
        rejectionReason: result.rejectionReason,
        reviewCode: result.reviewCode,
        reviewReason: result.reviewReason,
      };
    }
    checks.push({ id: row.id, kind: row.kind, platform: row.platform, before, after });
  }

  const verified = { review: {}, follow: {}, tag: {} } as { review: Record<string, boolean>; follow: Record<string, boolean>; tag: Record<string, boolean> };
  for (const check of checks) if ((check.after ?? check.before).isValid) verified[check.kind as keyof typeof verified][check.platform] = true;
  const score = scoreSurvey({ template, config: survey, answers: response.responses as Answers, verified: verified as Verified });
  const before: ScoreView = { points: response.totalPoints, tier: response.rewardTier ?? null, rewardValue: response.rewardValue ?? null };
  const after: ScoreView = { points: score.points, tier: score.tier, rewardValue: score.tier ? score.rewardValueCents : null };
  const verdictsChanged = checks.some((c) => c.after && (c.after.isValid !== c.before.isValid || c.after.verdict !== c.before.verdict || c.after.rejectionCode !== c.before.rejectionCode));
  const scoreChanged = before.points !== after.points || before.tier !== after.tier || before.rewardValue !== after.rewardValue;
  const result = { ok: true as const, responseId, checks, before, after, changed: verdictsChanged || scoreChanged, applied: false, refused: null as string | null, rewardQueued: false };
  if (!options.apply || !result.changed) return result;

  const issued = await deps.rewardIssued(em, responseId);
  const rewardChanged = before.tier !== after.tier || before.rewardValue !== after.rewardValue;
  if (issued && rewardChanged) {
    return { ...result, refused: 'A gift card was already issued for this response, and a card cannot be changed: nothing was changed.' };
  }
  const queue = Boolean(after.tier && !issued && response.customerEmail && deps.jobs);
  // A proof that now needs the owner's review (ADR 077) holds the reward, as at submission; a
  // response already held (or released by its owner) keeps its hold, and the issue job obeys it.
  const unsure = checks.filter((c) => c.after?.verdict === 'needs_review');
  let held = false;
  await em.transactional(async (tx) => {
    for (const check of checks) {
      if (!check.after) continue;
      await tx.nativeUpdate(ScreenshotVerification, { id: check.id }, check.after);
    }
    await tx.nativeUpdate(SurveyResponse, { id: responseId }, { totalPoints: after.points, rewardTier: after.tier, rewardValue: after.rewardValue });
    // Its own key: the submission's job (keyed by the response) may have run and found no reward.
    // The issue is idempotent, so a second job for the same response can never make a second card.
    if (queue && unsure.length > 0 && (await holdStatus(tx, responseId)) === null) {
      const reasons = unsure.map((c) => ({
        code: 'proof_needs_review',
        detail: `${PLATFORM_LABELS[c.platform as Platform] ?? c.platform} ${c.kind} screenshot needs your review (checked again): ${c.after!.reviewReason ?? 'the verifier was not sure of it.'}`,
        verificationId: c.id,
      }));
      await createHold(tx, { responseId, businessId: response.businessId, reasons, confirmEmail: false, now: new Date() });
      await appendAudit(tx, { responseId, businessId: response.businessId, event: 'held', actor: 'system', details: { because: 'verifications replay: a proof needs review', reasons } });
      held = true;
    }
    if (queue && !held) await deps.jobs!.send('reward-issue', { responseId }, { em: tx, key: `${responseId}:replay:${Date.now()}` });
  });
  return { ...result, applied: true, rewardQueued: queue && !held, rewardHeld: held };
}

/**
 * `replay` as the operator reaches it (ADR 056): each run gets a verifier of its own over a history
 * that ignores the response's own uses, closed afterwards.
 */
export function createVerificationReplay(deps: {
  em: EntityManager;
  createVerifier: (history: VerificationHistory) => ScreenshotVerifier;
  blobStore: BlobStore;
  jobs: JobQueue | null;
  rewardIssued: (em: EntityManager, responseId: string) => Promise<boolean>;
}) {
  return {
    async replay(responseId: string, options: { apply?: boolean } = {}): Promise<{ verifierId: string; result: ReplayResult }> {
      const verifier = deps.createVerifier(createDatabaseVerificationHistory(deps.em, { excludeResponseId: responseId }));
      try {
        const result = await replayVerifications({ ...deps, verifier }, responseId, options);
        return { verifierId: verifier.id, result };
      } finally {
        await verifier.close();
      }
    },
  };
}
