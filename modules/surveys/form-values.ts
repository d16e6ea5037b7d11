/** The builder form's values from a stored survey or a draft (split from schema.ts, issue 28 item 4). */
import { DEFAULT_REVIEW_POLICY, DEFAULT_TEMPLATE_ID, getTemplate, REVIEW_POLICIES, type ReviewPolicy, type TierName } from './template.ts';
import { surveyLocales } from '../i18n/index.ts';
import { translationsFor } from './translations.ts';
import { REWARD_MODES, type RewardMode } from './schema-fields.ts';

/** Builder form defaults from a stored survey (or a draft): cents back to whole dollars for custom amounts. */
export type StoredSurveyLike = {
  surveyTemplateId?: string;
  title?: string;
  rewardMode?: string;
  bronzeRewardValue?: number;
  silverRewardValue?: number;
  goldRewardValue?: number;
  redemptionWebsite?: string | null;
  surveyFrequencyDays?: number;
  verifyCustomerEmail?: boolean;
  hostedVision?: boolean;
  languages?: readonly string[] | null;
  translations?: unknown;
  customQuestions?: readonly unknown[] | null;
  selectedReviewPlatforms?: readonly string[];
  reviewUrls?: Record<string, string>;
  selectedSocialPlatforms?: readonly string[];
  socialHandles?: Record<string, string>;
  reviewPolicy?: string | null;
  tierThresholds?: Readonly<Partial<Record<string, number>>> | null;
};

function tierFormValues(templateId: string, stored: Readonly<Partial<Record<string, number>>> | null) {
  const template = getTemplate(templateId) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  const of = (tier: TierName) => {
    const own = stored?.[tier];
    return String(typeof own === 'number' && Number.isInteger(own) && own >= 0 ? own : (template.reward_tiers.find((t) => t.tier === tier)?.min_points ?? 0));
  };
  return { tierBronze: of('Bronze'), tierSilver: of('Silver'), tierGold: of('Gold') };
}

export function toFormValues(s: StoredSurveyLike | null | undefined, defaultMode: RewardMode) {
  const dollars = (cents: number | undefined) => (cents === undefined ? undefined : String(Math.round(cents / 100)));
  const mode: RewardMode = (REWARD_MODES as readonly string[]).includes(s?.rewardMode ?? '') ? (s!.rewardMode as RewardMode) : defaultMode;
  return {
    surveyTemplateId: s?.surveyTemplateId ?? DEFAULT_TEMPLATE_ID,
    title: s?.title ?? '',
    rewardMode: mode,
    customBronze: mode === 'custom' ? dollars(s?.bronzeRewardValue) : undefined,
    customSilver: mode === 'custom' ? dollars(s?.silverRewardValue) : undefined,
    customGold: mode === 'custom' ? dollars(s?.goldRewardValue) : undefined,
    redemptionWebsite: s?.redemptionWebsite ?? '',
    surveyFrequencyDays: String(s?.surveyFrequencyDays ?? 90),
    verifyCustomerEmail: s?.verifyCustomerEmail ? 'on' : undefined,
    hostedVision: s?.hostedVision ? 'on' : undefined,
    // The languages offered and the default (the first), ADR 086; a new survey: English only.
    languages: surveyLocales(s?.languages),
    defaultLanguage: surveyLocales(s?.languages)[0]!,
    // The owner's translations as they apply (ADR 090): offered languages, existing questions.
    translations: translationsFor({ surveyTemplateId: s?.surveyTemplateId, customQuestions: s?.customQuestions, languages: s?.languages, translations: s?.translations }),
    selectedReviewPlatforms: [...(s?.selectedReviewPlatforms ?? [])],
    reviewUrls: { ...(s?.reviewUrls ?? {}) },
    selectedSocialPlatforms: [...(s?.selectedSocialPlatforms ?? [])],
    socialHandles: { ...(s?.socialHandles ?? {}) },
    // Stored surveys carry their own; a new survey (or a draft from before the choice) gets the default.
    reviewPolicy: (REVIEW_POLICIES as readonly string[]).includes(s?.reviewPolicy ?? '') ? (s!.reviewPolicy as ReviewPolicy) : DEFAULT_REVIEW_POLICY,
    // The survey's own tier points, else the template's (ADR 041): what the builder's Tier points card shows.
    ...tierFormValues(s?.surveyTemplateId ?? DEFAULT_TEMPLATE_ID, s?.tierThresholds ?? null),
  };
}
