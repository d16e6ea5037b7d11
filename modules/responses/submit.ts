import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/port.ts';
import { scoreSurvey } from '../scoring/index.ts';
import { getTemplate, PLATFORM_LABELS } from '../surveys/template.ts';
import { checkAnswers, customerContact, isEmail } from './answers.ts';
import { eligibilityFrom } from './eligibility.ts';
import { SurveyResponse } from './entities.ts';
import { findPublicSurvey } from './public-survey.ts';

export type SubmissionInput = {
  businessId: string;
  surveyId: string;
  /** The answers by question id (spec: responses). */
  responses: Record<string, unknown>;
  customerEmail?: string | null;
  customerName?: string | null;
  bypassSquare?: boolean;
  ipAddress: string;
  userAgent: string | null;
  /** What the browser computed; only compared with the server's figures and logged. */
  frontend?: { points?: number; tier?: string | null; rewardValue?: number };
};

export type SubmissionResult =
  | { ok: true; responseId: string; totalPoints: number; rewardTier: string | null; rewardValue: number; rewardQueued: boolean }
  | { ok: false; status: 400 | 404 | 409; title: string; message: string; field?: string; daysRemaining?: number };

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
 * Screenshot verification records are not issued yet, so no part-3 block counts as verified: a
 * filled review or tag block is refused as 'Screenshot Not Verified'.
 */
export async function submitResponse(
  deps: { em: EntityManager; jobs: JobQueue | null; logger: Logger; now?: () => Date },
  input: SubmissionInput,
): Promise<SubmissionResult> {
  const now = deps.now?.() ?? new Date();
  const found = await findPublicSurvey(deps.em, { businessId: input.businessId, surveyId: input.surveyId, bypassSquare: input.bypassSquare, now });
  const template = found ? getTemplate(found.survey.surveyTemplateId) : undefined;
  if (!found || !template) return { ok: false, status: 404, title: 'Survey Not Found', message: 'This survey is not available.' };
  const survey = found.survey;

  const checked = checkAnswers(template, survey, input.responses);
  if (!checked.ok) return { ok: false, status: 400, ...checked.problem };
  const answers = checked.answers;
  const verified = { review: {}, follow: {}, tag: {} };
  for (const q of template.sections.flatMap((s) => [...s.questions, ...(s.negative_questions ?? [])])) {
    if (!q.platform || !q.fields?.length) continue;
    const started = q.fields.some((f) => answers[`${q.id}_${f.id}`] !== undefined);
    if (started) {
      return {
        ok: false,
        status: 400,
        title: 'Screenshot Not Verified',
        message: `Your ${PLATFORM_LABELS[q.platform]} screenshot needs to be verified before submission. Please wait for verification to complete or upload a different screenshot.`,
        field: q.id,
      };
    }
  }

  const score = scoreSurvey({ template, config: survey, answers, verified });
  const contact = customerContact(answers, input.customerEmail, input.customerName);
  if (contact.email && !isEmail(contact.email)) {
    return { ok: false, status: 400, title: 'Submission Failed', message: 'Please enter a valid email address', field: 'customerEmail' };
  }
  if (score.points > 0 && !contact.email) {
    return { ok: false, status: 400, title: 'Email Required for Reward', message: 'Please provide your email address to receive your gift card reward.', field: 'customerEmail' };
  }
  if (input.frontend && (input.frontend.points !== score.points || (input.frontend.tier ?? null) !== score.tier)) {
    deps.logger.warn({ surveyId: survey.id, server: { points: score.points, tier: score.tier }, client: input.frontend }, 'client score differs from the server');
  }

  try {
    return await deps.em.transactional(async (tx) => {
      // Raw statements on the transaction's own connection (the lock must be in this transaction).
      const sql = <T>(query: string, params: unknown[]) =>
        tx.getConnection().execute(query, params, 'all', tx.getTransactionContext()) as Promise<T>;
      if (contact.email) {
        // Insert the (business, email) row if it is new; otherwise lock it and check the window.
        const inserted = await sql<unknown[]>(
          `insert into customer_submissions (business_id, customer_email, ip_address, last_submission_at, submission_count)
           values (?, ?, ?, ?, 1) on conflict (business_id, customer_email) do nothing returning id`,
          [survey.businessId, contact.email, input.ipAddress.slice(0, 45), now],
        );
        if (inserted.length === 0) {
          const [row] = await sql<Array<{ last_submission_at: Date }>>(
            `select last_submission_at from customer_submissions where business_id = ? and customer_email = ? for update`,
            [survey.businessId, contact.email],
          );
          const window = eligibilityFrom(row ? new Date(row.last_submission_at) : null, survey.surveyFrequencyDays, now);
          if (!window.eligible) {
            throw new Refused({ ok: false, status: 409, title: 'Cannot Submit Survey', message: window.message ?? 'This email is not eligible yet.', daysRemaining: window.daysRemaining });
          }
          await sql(
            `update customer_submissions set last_submission_at = ?, submission_count = submission_count + 1, ip_address = ? where business_id = ? and customer_email = ?`,
            [now, input.ipAddress.slice(0, 45), survey.businessId, contact.email],
          );
        }
      }
      const response = tx.create(SurveyResponse, {
        businessId: survey.businessId,
        surveyConfigId: survey.id,
        customerEmail: contact.email,
        customerName: contact.name,
        responses: answers,
        totalPoints: score.points,
        rewardTier: score.tier,
        rewardValue: score.tier ? score.rewardValueCents : null,
        submittedAt: now,
        ipAddress: input.ipAddress.slice(0, 45),
        userAgent: input.userAgent?.slice(0, 500) ?? null,
      });
      await tx.flush();
      const rewardDue = Boolean(score.tier && contact.email && deps.jobs);
      if (rewardDue) await deps.jobs!.send('reward-issue', { responseId: response.id }, { em: tx, key: response.id });
      return { ok: true as const, responseId: response.id, totalPoints: score.points, rewardTier: score.tier, rewardValue: score.tier ? score.rewardValueCents : 0, rewardQueued: rewardDue };
    });
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}
