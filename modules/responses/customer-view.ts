/**
 * What the customer's page is given about a survey (spec section 3 "Public survey view"): the
 * config's public fields, the business's display name and the mode. Nothing private (no owner
 * email, no frequency internals beyond the window length, no Square state).
 */
import type { SurveyConfigView } from '../surveys/index.ts';
import { LOCALES, surveyLocales, type Locale } from '../i18n/index.ts';
import { DEFAULT_REVIEW_POLICY, DEFAULT_TEMPLATE_ID, REVIEW_PLATFORMS, reviewPolicyOf, SOCIAL_PLATFORMS, type ReviewPolicy } from '../surveys/index.ts';
import { translationsFor, type SurveyTranslations } from '../surveys/index.ts';

/**
 * live: answers are saved and rewarded. preview: the owner's look at a survey (bypass_square=true, or
 * a draft from the builder): a banner says responses are not saved. demo: the built-in sample survey.
 */
export type CustomerMode = 'live' | 'preview' | 'demo';

/** The survey's public fields, the same in every mode. */
export type SurveyViewFields = {
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
  /** Screenshots are read by the hosted vision model (ADR 066): the page says so where they are uploaded. */
  hostedVision: boolean;
  /** The languages the survey offers (ADR 086), the default first: the page picks among them and its switcher lists them. */
  languages: Locale[];
  /** The owner's translations of their own words (ADR 090): the page reads its language's, else the owner's words. */
  translations: SurveyTranslations;
};

/** A saved survey: its ids are known, and screenshots are verified for real. */
type Saved = {
  businessId: string;
  surveyId: string;
  /** Served from /survey/dynamic/{businessId}: the browser submits to the dynamic endpoint. */
  dynamic: boolean;
};

/** Nothing saved behind it (the demo, a builder draft): no ids, and screenshots are only pretended. */
type Unsaved = { businessId: null; surveyId: null; dynamic: false; bypassSquare: false };

/** A customer's page of a published survey: answers are stored and rewarded. */
export type LiveView = SurveyViewFields & Saved & { mode: 'live'; bypassSquare: false };
/** The signed-in owner's preview of a saved survey (the spec's bypass_square=true): verified for real, nothing stored. */
export type OwnerPreviewView = SurveyViewFields & Saved & { mode: 'preview'; bypassSquare: true };
/** A builder draft from the owner's browser (/survey/preview?custom=true). */
export type DraftPreviewView = SurveyViewFields & Unsaved & { mode: 'preview' };
/** The built-in sample survey (/survey/preview?demo=true). */
export type DemoView = SurveyViewFields & Unsaved & { mode: 'demo' };

/**
 * What the page knows about a survey, by mode (and, for previews, by `bypassSquare`: a saved
 * survey's or a draft). `surveyId !== null` (see `isSaved`) is exactly "there is a survey to
 * verify against"; `mode === 'live'` is "answers are stored".
 */
export type CustomerSurveyView = LiveView | OwnerPreviewView | DraftPreviewView | DemoView;
export type SavedSurveyView = LiveView | OwnerPreviewView;

/** A saved survey (live or the owner's preview): the ids are there, screenshots are verified for real. */
export const isSaved = (view: CustomerSurveyView): view is SavedSurveyView => view.surveyId !== null;

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
> & { reviewPolicy?: string | null; tierThresholds?: Record<string, number> | null; hostedVision?: boolean; languages?: readonly string[] | null; translations?: unknown };

const viewFields = (survey: ConfigFields, businessName: string, options: { brand?: { color: string | null; logoUrl: string | null }; rewardsPaused?: boolean }): SurveyViewFields => ({
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
  hostedVision: Boolean(survey.hostedVision),
  languages: surveyLocales(survey.languages),
  translations: translationsFor(survey),
});

/**
 * The view of a saved survey: live for a customer, the owner's preview with `bypassSquare` (the
 * caller has bound bypass_square=true to the owner's session).
 */
export function customerView(
  survey: ConfigFields & { id: string; businessId: string },
  businessName: string,
  options: { bypassSquare: boolean; dynamic?: boolean; brand?: { color: string | null; logoUrl: string | null }; rewardsPaused?: boolean },
): SavedSurveyView {
  const saved = { ...viewFields(survey, businessName, options), businessId: survey.businessId, surveyId: survey.id, dynamic: Boolean(options.dynamic) };
  return options.bypassSquare ? { mode: 'preview', ...saved, bypassSquare: true } : { mode: 'live', ...saved, bypassSquare: false };
}

const unsaved = { businessId: null, surveyId: null, dynamic: false, bypassSquare: false } as const;

/** The view of a builder draft (POST /api/survey/preview/custom): a preview with nothing saved behind it. */
export function draftView(config: ConfigFields, businessName: string, options: { brand?: { color: string | null; logoUrl: string | null } } = {}): DraftPreviewView {
  return { mode: 'preview', ...viewFields(config, businessName, options), ...unsaved };
}

/**
 * The sample survey of /survey/preview?demo=true and GET /api/survey/dynamic/preview: every review
 * and social platform, the spec's demo reward values (200/500/1000 cents). Nothing is saved.
 */
export function demoView(): DemoView {
  const config: ConfigFields = {
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
    // The demo shows every language the product speaks.
    languages: [...LOCALES],
  };
  return { mode: 'demo', ...viewFields(config, 'Demo Cafe', {}), ...unsaved };
}
