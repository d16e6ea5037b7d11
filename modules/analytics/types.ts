import type { DateWindow } from './filters.ts';
import type { RewardStatus } from './labels.ts';

/** The shapes the analytics service answers with (issue 12): the pages', the CSV's and the spec's client API's. */

/** Which responses a figure covers: one survey or all of the owner's, within a date window (UTC). */
export type Scope = { surveyId: string | null } & DateWindow;

export type SurveyOption = { id: string; title: string; isActive: boolean };

export type Stats = {
  totalResponses: number;
  /** Mean points per response, one decimal; null without responses. */
  averagePoints: number | null;
  goldCount: number;
  /** Responses submitted in the current calendar month (UTC), whatever the date filter says. */
  thisMonth: number;
};

export type ResponseRow = {
  id: string;
  surveyId: string | null;
  surveyTitle: string | null;
  customerName: string | null;
  customerEmail: string | null;
  totalPoints: number;
  rewardTier: string | null;
  /** Cents. */
  rewardValue: number | null;
  submittedAt: string;
  overallRating: number | null;
  reviewPlatform: string | null;
  reviewStarRating: number | null;
  reviewerName: string | null;
  /** Where the reward stands (issue 27 item 4): a rejected or held reward is never shown as a plain reward. */
  rewardStatus: RewardStatus;
  /** The language the customer answered in ('en', 'es', 'fr', 'de', 'pt'; older responses: 'en'), ADR 086. */
  locale: string;
};

export type ResponsePage = { rows: ResponseRow[]; total: number; page: number; pageCount: number; pageSize: number };

export type TierShare = { tier: string; count: number; percent: number };

export type QuestionStat = {
  key: string;
  label: string;
  type: string;
  count: number;
  /** Scale questions: the mean answer, two decimals. */
  averageRating: number | null;
  /** Scale questions: 4 or more positive, 3 neutral, below 3 negative (spec section 9). */
  sentiment: { positive: number; neutral: number; negative: number } | null;
  top: Array<{ answer: string; count: number }>;
  recent: Array<{ answer: string; submittedAt: string }>;
  /** Other texts this question's answers were asked with (the survey was edited since), newest first (issue 16). */
  askedAs: string[];
};

export type FunnelStep = { key: string; label: string; count: number };
export type Funnel = {
  steps: FunnelStep[];
  /** The first day (UTC) anything was counted for the scope's surveys: figures before it have no page views. */
  countingSince: string | null;
};

export type WeekPoint = { week: string; responses: number; averageRating: number | null };

export type GiftCardTotals = {
  cards: number;
  cents: number;
  squareCards: number;
  squareCents: number;
  testCards: number;
  testCents: number;
  /** Square cards spent at least in part, from Square's gift card activity webhooks (Test cards: never). */
  redeemedCards: number;
  /** Cents spent from Square cards: value issued minus the balance Square last reported. */
  redeemedCents: number;
  /** Square cards whose balance Square has reported at least once. */
  trackedCards: number;
};

export type GiftCardRow = {
  id: string;
  surveyResponseId: string;
  issuedAt: string;
  customerName: string | null;
  customerEmail: string;
  giftCardNumber: string;
  rewardValue: number;
  rewardTier: string;
  isSquareGiftCard: boolean;
  cardState: string | null;
  cardBalanceCents: number | null;
  emailStatus: 'sent' | 'sending' | 'failed';
};

export type GiftCardPage = { totals: GiftCardTotals; rows: GiftCardRow[]; total: number; page: number; pageCount: number; pageSize: number };

export type ResponseAnswer = { key: string; label: string; value: string; screenshotId: string | null };

export type ScreenshotVerdict = {
  id: string;
  kind: 'review' | 'follow' | 'tag';
  platform: string;
  isValid: boolean;
  /** accepted, rejected or needs_review (ADR 077). */
  verdict: 'accepted' | 'rejected' | 'needs_review';
  rejectionReason: string | null;
  /** needs_review: why the verifier was unsure, for the owner. */
  reviewReason: string | null;
  /** The owner's own verdict on the proof (ADR 080: a label, from a held reward's decision or a correction), or null. */
  ownerVerdict: 'accepted' | 'rejected' | null;
  ownerDecidedAt: string | null;
  starRating: number | null;
  reviewerName: string | null;
  reviewLink: string | null;
  userHandle: string | null;
  reviewText: string | null;
  verifiedAt: string;
};

export type ResponseDetail = ResponseRow & {
  answers: ResponseAnswer[];
  screenshots: ScreenshotVerdict[];
  reviewText: string | null;
  card: (Omit<GiftCardRow, 'surveyResponseId' | 'customerName' | 'customerEmail'> & { emailedAt: string | null }) | null;
  /** The reward job's state when no card exists yet. */
  pendingReward: { failed: boolean; attempts: number } | null;
};

/** The spec's "Survey response (client)" shape (section 3), cents as integers. */
export type ClientResponse = {
  id: string;
  customerName: string | null;
  customerEmail: string | null;
  totalPoints: number;
  rewardTier: string | null;
  rewardValue: number | null;
  submittedAt: string;
  responses: Record<string, string | number>;
  reviewPlatform: string | null;
  reviewStarRating: number | null;
  reviewerName: string | null;
  reviewText: string | null;
};


/**
 * The owner's home (issue 27, ADR 083): every survey with its responses this week, this week's
 * rewards issued, and the rewards held for the owner's review. One statement, one round trip.
 */
export type HomeSurvey = { id: string; title: string; isActive: boolean; isPublished: boolean; isArchived: boolean; responsesThisWeek: number };
export type HomeFigures = {
  /** This week (UTC, Monday 00:00 to the next Monday), ISO strings. */
  week: { from: string; to: string };
  /** Not archived first, newest first; archived ones last. */
  surveys: HomeSurvey[];
  responsesThisWeek: number;
  rewardsIssuedThisWeek: number;
  /** Cents. */
  rewardValueThisWeek: number;
  /** Held rewards waiting for the owner's Release or Reject (what /rewards lists as "Held for your review"). */
  heldRewards: number;
  /** Cards issued within `options.issuedWindow` (the plan's billing month, for its usage); null when not asked. */
  issuedInWindow: number | null;
};
