/**
 * What the customer's page is given about a survey (spec section 3 "Public survey view"): the
 * config's public fields, the business's display name and the mode. Nothing private (no owner
 * email, no frequency internals beyond the window length, no Square state).
 */
import type { SurveyConfigView } from '../surveys/service.ts';
import { DEFAULT_REVIEW_POLICY, DEFAULT_TEMPLATE_ID, REVIEW_PLATFORMS, reviewPolicyOf, SOCIAL_PLATFORMS, type ReviewPolicy } from '../surveys/template.ts';

/**
 * live: answers are saved and rewarded. preview: the owner's look at a survey (bypass_square=true, or
 * a draft from the builder): a banner says responses are not saved. demo: the built-in sample survey.
 */
export type CustomerMode = 'live' | 'preview' | 'demo';

export type CustomerSurveyView = {
  mode: CustomerMode;
  businessId: string | null;
  surveyId: string | null;
  /** Served from /survey/dynamic/{businessId}: the browser submits to the dynamic endpoint. */
  dynamic: boolean;
  bypassSquare: boolean;
  title: string;
  businessName: string;
  surveyTemplateId: string;
  /** The owner's questions (issue 16): read only through `effectiveTemplate`. */
  customQuestions: unknown[];
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  selectedReviewPlatforms: string[];
  selectedSocialPlatforms: string[];
  reviewUrls: Record<string, string>;
  socialHandles: Record<string, string>;
  redemptionWebsite: string | null;
  /** Who is offered part 3's review and follow steps (ADR 040): decides part 3 and the points. */
  reviewPolicy: ReviewPolicy;
  /** The owner's tier minimums (null: the template's), so the page's points and tiers match the server's. */
  tierThresholds: Record<string, number> | null;
  /** The owner's brand (issue 15): colour ('#rrggbb') and the public logo address; nulls for RewardLoop's look. */
  brand: { color: string | null; logoUrl: string | null };
  /** The business's monthly reward budget is used up: the page says so before the customer starts. */
  rewardsPaused: boolean;
};

type ConfigFields = Pick<
  SurveyConfigView,
  | 'title'
  | 'surveyTemplateId'
  | 'customQuestions'
  | 'bronzeRewardValue'
  | 'silverRewardValue'
  | 'goldRewardValue'
  | 'selectedReviewPlatforms'
  | 'selectedSocialPlatforms'
  | 'reviewUrls'
  | 'socialHandles'
  | 'redemptionWebsite'
> & { reviewPolicy?: string | null; tierThresholds?: Record<string, number> | null };

export function customerView(
  survey: ConfigFields & { id?: string; businessId?: string },
  businessName: string,
  options: { mode: CustomerMode; dynamic?: boolean; bypassSquare?: boolean; brand?: { color: string | null; logoUrl: string | null }; rewardsPaused?: boolean },
): CustomerSurveyView {
  return {
    mode: options.mode,
    businessId: survey.businessId ?? null,
    surveyId: survey.id ?? null,
    dynamic: Boolean(options.dynamic),
    bypassSquare: Boolean(options.bypassSquare),
    title: survey.title,
    businessName,
    surveyTemplateId: survey.surveyTemplateId,
    customQuestions: structuredClone(survey.customQuestions ?? []),
    bronzeRewardValue: survey.bronzeRewardValue,
    silverRewardValue: survey.silverRewardValue,
    goldRewardValue: survey.goldRewardValue,
    selectedReviewPlatforms: [...survey.selectedReviewPlatforms],
    selectedSocialPlatforms: [...survey.selectedSocialPlatforms],
    reviewUrls: { ...survey.reviewUrls },
    socialHandles: { ...survey.socialHandles },
    redemptionWebsite: survey.redemptionWebsite ?? null,
    reviewPolicy: reviewPolicyOf(survey),
    tierThresholds: survey.tierThresholds ? { ...survey.tierThresholds } : null,
    brand: options.brand ?? { color: null, logoUrl: null },
    rewardsPaused: Boolean(options.rewardsPaused),
  };
}

/**
 * The sample survey of /survey/preview?demo=true and GET /api/survey/dynamic/preview: every review
 * and social platform, the spec's demo reward values (200/500/1000 cents). Nothing is saved.
 */
export function demoView(): CustomerSurveyView {
  return customerView(
    {
      title: 'Tell us about your visit',
      surveyTemplateId: DEFAULT_TEMPLATE_ID,
      customQuestions: [],
      bronzeRewardValue: 200,
      silverRewardValue: 500,
      goldRewardValue: 1000,
      selectedReviewPlatforms: [...REVIEW_PLATFORMS],
      selectedSocialPlatforms: [...SOCIAL_PLATFORMS],
      reviewUrls: { google: 'https://www.google.com/maps', yelp: 'https://www.yelp.com', facebook: 'https://www.facebook.com' },
      socialHandles: { instagram: '@rewardloopdemo', facebook: 'rewardloopdemo', x: '@rewardloopdemo', tiktok: '@rewardloopdemo' },
      redemptionWebsite: null,
      reviewPolicy: DEFAULT_REVIEW_POLICY,
    },
    'Demo Cafe',
    { mode: 'demo' },
  );
}
