/**
 * What a submission takes and what it answers (`submitSurvey`, submit.ts; the refusals of
 * `screenshot-proofs.ts`). Split from submit.ts (issue 28 item 4), which re-exports them.
 */
import type { VerificationKind } from '../surveys/index.ts';

export type SubmissionInput = {
  businessId: string;
  surveyId: string;
  /** The answers by question id (spec: responses). */
  responses: Record<string, unknown>;
  customerEmail?: string | null;
  customerName?: string | null;
  /**
   * The owner's preview (the caller checked the session): the survey need not be available, and the
   * answers are checked and scored but nothing is saved and no reward is queued.
   */
  bypassSquare?: boolean;
  ipAddress: string;
  userAgent: string | null;
  /** The first-party device cookie (`rl_client`, set at the edge), when the browser sent one: fraud checks (ADR 050). */
  deviceId?: string | null;
  /** What the browser computed; only compared with the server's figures and logged. */
  frontend?: { points?: number; tier?: string | null; rewardValue?: number };
  /**
   * The page's key for this submission (ADR 081): a retry with the same key, after an answer that
   * never arrived, is answered with what the first attempt stored instead of being refused.
   */
  submissionKey?: string | null;
  /**
   * The customer's language (ADR 084): stored with the response; emails to the customer follow it.
   * One the survey does not offer, or none: the survey's first language (ADR 086).
   */
  locale?: string | null;
};

/** Which part-3 block's screenshot was refused (spec 8: the page clears that block and goes back to part 3). */
/** The refused block of a submission (spec 8), with the verifier's rejection code so the page can say it in the customer's language (ADR 090). */
export type ScreenshotRejected = { platform: string; kind: VerificationKind; questionId: string; rejectionCode: string | null };

export type SubmissionResult =
  | {
      ok: true;
      preview?: false;
      responseId: string;
      totalPoints: number;
      rewardTier: string | null;
      rewardValue: number;
      rewardQueued: boolean;
      rewardsPaused?: boolean;
      /**
       * The reward is being checked before it is sent (held for the owner's review, or waiting for the
       * customer to confirm their email: `confirmEmail`). The customer is told it will arrive by email.
       */
      rewardChecking?: boolean;
      confirmEmail?: boolean;
    }
  | { ok: true; preview: true; responseId: null; totalPoints: number; rewardTier: string | null; rewardValue: number; rewardQueued: false }
  | {
      ok: false;
      status: 400 | 404 | 409 | 422;
      title: string;
      message: string;
      field?: string;
      /** The catalog key and words of a message that names the survey's words (customer-checks' `Problem`, ADR 084). */
      key?: string;
      params?: Record<string, string>;
      daysRemaining?: number;
      screenshotRejected?: ScreenshotRejected;
    };
