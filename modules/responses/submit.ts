import { LockMode, raw, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/index.ts';
import { scoreSurvey } from '../scoring/index.ts';
import { effectiveTemplate, questionTexts, type SurveyTemplate } from '../surveys/index.ts';
import { appendAudit, assessSubmission, createHold, RewardHold } from '../trust/server.ts';
import { checkAnswers, customerContact, isEmail } from './answers.ts';
import { eligibilityFrom, WINDOW_MESSAGE_KEY } from './eligibility.ts';
import { CustomerSubmission, ScreenshotVerification, SUBMISSION_KEY_INDEX, SurveyResponse, USED_REVIEW_TEXT_INDEX } from './entities.ts';
import { queryBuilder } from '../shared/orm.ts';
import { findPublicSurvey } from './public-survey.ts';
import { offeredLocale, surveyLocales } from '../i18n/index.ts';
import { alreadyRewarded, checkScreenshots, proofNeedsReview, socialVerificationData } from './screenshot-proofs.ts';
import type { SubmissionInput, SubmissionResult } from './submission-types.ts';

export type { ScreenshotRejected, SubmissionInput, SubmissionResult } from './submission-types.ts';

class Refused extends Error {
  readonly result: Extract<SubmissionResult, { ok: false }>;
  constructor(result: Extract<SubmissionResult, { ok: false }>) {
    super(result.message);
    this.result = result;
  }
}

/**
 * A customer's submission (issue 4): the server re-validates every answer and re-computes points,
 * tier and reward value from the stored survey. Inside one transaction it takes the row of
 * (business, email) with a lock, enforces the repeat window, stores the response and, when a reward
 * is due, queues its issuance: all of it is committed together or not at all. Two concurrent
 * submissions for one email: the second waits for the first's lock and is refused.
 *
 * Part-3 blocks (ADR 015): the screenshot answer of each block the customer was shown and filled
 * holds the id of a `screenshot_verifications` row, which must be this survey's, of the block's kind
 * and platform and, for a review, for the same reviewer name and link. A rejected row refuses the
 * submission with `screenshotRejected`; valid rows count as verified for scoring and are marked used
 * by this response inside the transaction, where a second use (the same row, or the same image or
 * review text for this business) is refused by the database and rolls everything back.
 */
export async function submitSurvey(
  deps: { em: EntityManager; jobs: JobQueue | null; logger: Logger; now?: () => Date },
  input: SubmissionInput,
): Promise<SubmissionResult> {
  const now = deps.now?.() ?? new Date();
  const found = await findPublicSurvey(deps.em, { businessId: input.businessId, surveyId: input.surveyId, bypassSquare: input.bypassSquare, now });
  const template = found ? effectiveTemplate(found.survey) : undefined;
  if (!found || !template) return { ok: false, status: 404, title: 'Survey Not Found', message: 'This survey is not available.' };
  const survey = found.survey;

  const checked = checkAnswers(template, survey, input.responses);
  if (!checked.ok) return { ok: false, status: 400, ...checked.problem };
  const answers = checked.answers;
  const contact = customerContact(answers, input.customerEmail, input.customerName);
  // A retry of a stored submission (its answer was lost): what was stored, before any check that
  // the first attempt changed (its screenshots are now used, its email's window has started).
  const key = input.bypassSquare ? null : (input.submissionKey ?? null);
  const stored = key ? await storedSubmission(deps.em, survey.id, key, contact.email) : null;
  if (stored) return stored;
  const proofs = await checkScreenshots(deps.em, found.businessName, template, survey, answers);
  if (!proofs.ok) return proofs.refusal;
  const { verified, uses } = proofs;

  const score = scoreSurvey({ template, config: survey, answers, verified });
  if (contact.email && !isEmail(contact.email)) {
    return { ok: false, status: 400, title: 'Submission Failed', message: 'Please enter a valid email address', field: 'customerEmail' };
  }
  if (score.points > 0 && !contact.email) {
    return { ok: false, status: 400, title: 'Email Required for Reward', message: 'Please provide your email address to receive your gift card reward.', field: 'customerEmail' };
  }
  if (input.bypassSquare) {
    return { ok: true, preview: true, responseId: null, totalPoints: score.points, rewardTier: score.tier, rewardValue: score.tier ? score.rewardValueCents : 0, rewardQueued: false };
  }
  if (input.frontend && (input.frontend.points !== score.points || (input.frontend.tier ?? null) !== score.tier)) {
    deps.logger.warn({ surveyId: survey.id, server: { points: score.points, tier: score.tier }, client: input.frontend }, 'client score differs from the server');
  }

  try {
    const result = await deps.em.transactional(async (tx) => {
      if (contact.email) {
        // Insert the (business, email) row if it is new; otherwise lock it (in this transaction) and check the window.
        const ipAddress = input.ipAddress.slice(0, 45);
        const inserted = await queryBuilder(tx, CustomerSubmission)
          .insert({ businessId: survey.businessId, customerEmail: contact.email, ipAddress, lastSubmissionAt: now, submissionCount: 1 })
          .onConflict(['businessId', 'customerEmail'])
          .ignore()
          .returning('id')
          .execute<Pick<CustomerSubmission, 'id'> | undefined>('get');
        if (!inserted) {
          const row = await tx.findOne(
            CustomerSubmission,
            { businessId: survey.businessId, customerEmail: contact.email },
            { fields: ['lastSubmissionAt'], lockMode: LockMode.PESSIMISTIC_WRITE },
          );
          const window = eligibilityFrom(row ? new Date(row.lastSubmissionAt) : null, survey.surveyFrequencyDays, now);
          if (!window.eligible) {
            throw new Refused({ ok: false, status: 409, title: 'Cannot Submit Survey', message: window.message ?? 'This email is not eligible yet.', field: 'customerEmail', daysRemaining: window.daysRemaining, key: WINDOW_MESSAGE_KEY, params: { count: String(window.daysRemaining) } });
          }
          await tx.nativeUpdate(
            CustomerSubmission,
            { businessId: survey.businessId, customerEmail: contact.email },
            { lastSubmissionAt: now, submissionCount: raw('submission_count + 1'), ipAddress },
          );
        }
      }
      const review = uses.find((u) => u.kind === 'review')?.row;
      const response = tx.create(SurveyResponse, {
        businessId: survey.businessId,
        surveyConfigId: survey.id,
        customerEmail: contact.email,
        customerName: contact.name,
        responses: answers,
        // The texts the customer was asked: a later edit of the survey never relabels this response.
        questionTexts: questionTexts(template),
        // And the question list it is scored with: a replay re-scores with these, not a later edit's.
        surveyQuestions: Array.isArray(survey.customQuestions) ? survey.customQuestions : [],
        totalPoints: score.points,
        rewardTier: score.tier,
        // With the owner's monthly reward budget used up, no reward is promised (the page said so).
        rewardValue: score.tier && !found.rewardsPaused ? score.rewardValueCents : null,
        reviewPlatform: review?.platform ?? null,
        reviewStarRating: review?.starRating ?? null,
        reviewText: review?.reviewText ?? null,
        reviewerName: review?.reviewerName ?? null,
        socialVerificationData: uses.length > 0 ? socialVerificationData(uses) : null,
        submittedAt: now,
        ipAddress: input.ipAddress.slice(0, 45),
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        submissionKey: key,
        // One of the survey's languages (ADR 086): the one asked for when offered, else the survey's first.
        locale: offeredLocale(input.locale, surveyLocales(survey.languages)),
      });
      await tx.flush();
      // Mark the verifications used by this response; a row used meanwhile, or the same image or
      // review text already used for this business (a unique index), refuses the whole submission.
      for (const use of uses) {
        let updated: number;
        try {
          updated = await tx.nativeUpdate(ScreenshotVerification, { id: use.row.id, surveyResponseId: null, isValid: true }, { surveyResponseId: response.id });
        } catch (error) {
          if (error instanceof UniqueConstraintViolationException) throw new Refused(alreadyRewarded(use, found.businessName, error.message.includes(USED_REVIEW_TEXT_INDEX)));
          throw error;
        }
        if (updated !== 1) throw new Refused(alreadyRewarded(use, found.businessName, false));
      }
      // Fraud checks (ADR 050): this submission against earlier ones by other customers; its own
      // fingerprints are kept for later ones. A suspicious reward is held, never refused or lost.
      const reasons = await assessSubmission(tx, {
        responseId: response.id,
        businessId: survey.businessId,
        customerEmail: contact.email,
        deviceId: input.deviceId ?? null,
        ip: input.ipAddress.slice(0, 45),
        texts: [...freeTexts(template, answers), ...uses.map((u) => u.row.reviewText ?? '')],
        imageHashes: uses.map((u) => u.row.perceptualHash ?? ''),
        now,
      });
      // A proof the verifier was unsure of (needs_review, ADR 077) counts, and holds the reward for
      // the owner like a fraud signal: the owner sees the screenshot, the claim and why.
      reasons.unshift(...uses.filter((u) => u.row.verdict === 'needs_review').map(proofNeedsReview));
      const rewardDue = Boolean(score.tier && contact.email && deps.jobs && !found.rewardsPaused);
      const decision = {
        inputs: { answers: Object.keys(answers).length, customerEmail: contact.email, ip: input.ipAddress.slice(0, 45), device: input.deviceId ? 'cookie' : 'none' },
        score: { points: score.points, tier: score.tier, rewardValueCents: score.tier ? score.rewardValueCents : 0, client: input.frontend ?? null },
        verdicts: uses.map((u) => ({
          verificationId: u.row.id,
          kind: u.kind,
          platform: u.platform,
          isValid: u.row.isValid,
          verdict: u.row.verdict,
          rejectionCode: u.row.rejectionCode ?? null,
          ...(u.row.reviewCode ? { reviewCode: u.row.reviewCode } : {}),
          starRating: u.row.starRating ?? null,
        })),
        reasons,
      };
      let checking = false;
      let confirmEmail = false;
      if (rewardDue && (reasons.length > 0 || survey.verifyCustomerEmail)) {
        const hold = await createHold(tx, { responseId: response.id, businessId: survey.businessId, reasons, confirmEmail: survey.verifyCustomerEmail, now });
        await appendAudit(tx, { responseId: response.id, businessId: survey.businessId, event: 'held', actor: 'system', details: { ...decision, status: hold.status } });
        // The job mints the link's token when it sends: no secret in its payload (issue 25).
        if (hold.status === 'awaiting_email') await deps.jobs!.send('reward-confirm-email', { responseId: response.id }, { em: tx, key: `${response.id}:confirm` });
        checking = true;
        confirmEmail = hold.status === 'awaiting_email';
      } else if (rewardDue) {
        await deps.jobs!.send('reward-issue', { responseId: response.id }, { em: tx, key: response.id });
        await appendAudit(tx, { responseId: response.id, businessId: survey.businessId, event: 'queued', actor: 'system', details: decision });
      } else if (score.tier && contact.email) {
        await appendAudit(tx, {
          responseId: response.id,
          businessId: survey.businessId,
          event: 'not_rewarded',
          actor: 'system',
          details: { ...decision, because: found.rewardsPaused ? 'the monthly reward budget is used up' : 'rewards are not sent from here' },
        });
      }
      return {
        ok: true as const,
        responseId: response.id,
        totalPoints: score.points,
        rewardTier: score.tier,
        rewardValue: score.tier && !found.rewardsPaused ? score.rewardValueCents : 0,
        rewardQueued: rewardDue && !checking,
        rewardsPaused: found.rewardsPaused,
        rewardChecking: checking,
        confirmEmail,
      };
    });
    // Committed: a worker in this process starts on the reward now rather than at its next poll.
    if (result.rewardQueued) deps.jobs?.wake('reward-issue');
    if (result.confirmEmail) deps.jobs?.wake('reward-confirm-email');
    return result;
  } catch (error) {
    // The same key submitted twice at once: the second waited for the first's locks and was refused
    // (its window, its screenshots) or hit the key's unique index; it is answered as the first was.
    const retried = key && (error instanceof Refused || (error instanceof UniqueConstraintViolationException && error.message.includes(SUBMISSION_KEY_INDEX)));
    const replay = retried ? await storedSubmission(deps.em, survey.id, key, contact.email) : null;
    if (replay) return replay;
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

/**
 * The response stored with this key for this survey, answered as its submission was (201 with its
 * id, points, tier and reward; "being checked" while its reward is held). A key sent again with
 * another email is refused: it is not a retry.
 */
async function storedSubmission(em: EntityManager, surveyId: string, key: string, email: string | null): Promise<SubmissionResult | null> {
  const row = await em.fork().findOne(
    SurveyResponse,
    { surveyConfigId: surveyId, submissionKey: key },
    { fields: ['id', 'customerEmail', 'totalPoints', 'rewardTier', 'rewardValue'] },
  );
  if (!row) return null;
  if ((row.customerEmail ?? null) !== (email ?? null)) {
    return { ok: false, status: 409, title: 'Cannot Submit Survey', message: 'This survey was already submitted from this page. Please reload the page to start again.' };
  }
  const hold = await em.fork().findOne(RewardHold, { surveyResponseId: row.id }, { fields: ['status'] });
  const checking = hold?.status === 'held' || hold?.status === 'awaiting_email';
  return {
    ok: true,
    responseId: row.id,
    totalPoints: row.totalPoints,
    rewardTier: row.rewardTier ?? null,
    rewardValue: row.rewardValue ?? 0,
    rewardQueued: false,
    rewardsPaused: Boolean(row.rewardTier) && row.rewardValue === null,
    rewardChecking: checking,
    confirmEmail: hold?.status === 'awaiting_email',
  };
}

/** The customer's own words: answers to the survey's text questions (fraud checks compare them across customers). */
function freeTexts(template: SurveyTemplate, answers: Record<string, string | number>): string[] {
  const texts: string[] = [];
  for (const section of template.sections) {
    for (const q of [...section.questions, ...(section.negative_questions ?? [])]) {
      if (/_text$/.test(q.type) && typeof answers[q.id] === 'string') texts.push(answers[q.id] as string);
    }
  }
  return texts;
}
