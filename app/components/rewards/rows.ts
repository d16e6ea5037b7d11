import type { HoldReason } from '../../../modules/trust/index.ts';
import type { IssuedCardRow } from '../gift-card-ui.tsx';

// The rows of the owner's /rewards page as its tables show them: plain data, dates as ISO strings, as
// the route's loader sends them (app/routes/_owner+/rewards.tsx). Defined here, beside the tables, so
// the route imports the tables and their rows and no table imports the route (as IssuedCardRow).

/** A reward that failed after every retry; `reason` is its plain words (`plainRewardError`). */
export type FailedRewardRow = {
  stage: 'issue' | 'email';
  surveyResponseId: string;
  customerName: string | null;
  customerEmail: string | null;
  rewardValue: number | null;
  rewardTier: string | null;
  giftCardNumber: string | null;
  reason: string;
  failedAt: string;
  attempts: number;
  lastError: string | null;
};

/** A reward on its way: being created (`issue`, since the customer submitted) or emailed (`email`, since it was issued). */
export type PendingRewardRow = {
  stage: 'issue' | 'email';
  surveyResponseId: string;
  customerName: string | null;
  customerEmail: string | null;
  rewardValue: number;
  rewardTier: string | null;
  giftCardNumber: string | null;
  since: string;
  attempts: number;
  reason: string | null;
};

/** A reward held for the owner's review (ADR 050), or one the owner rejected. */
export type HeldRewardRow = {
  surveyResponseId: string;
  customerName: string | null;
  customerEmail: string | null;
  rewardValue: number | null;
  rewardTier: string | null;
  status: 'held' | 'awaiting_email' | 'released' | 'rejected';
  submittedAt: string;
  decidedAt: string | null;
  reasons: HoldReason[];
};

/** A card issued, with its email's state. */
export type IssuanceRow = IssuedCardRow & { id: string; issuedAt: string; emailStatus: 'sent' | 'sending' | 'failed' };

/** Release / Reject asked first (`?confirm=`): the decision (`release`, else `reject`; the loader takes no other) and the held reward it is about. */
export type RewardDecision = { decision: string; reward: HeldRewardRow };
