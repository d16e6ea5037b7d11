import { z } from 'zod';
import { DEFAULT_REVIEW_POLICY, DEFAULT_TEMPLATE_ID, type ReviewPolicy, type TierName } from './template.ts';
import type { CustomQuestion } from './questions.ts';
import type { Locale } from '../i18n/index.ts';
import { translationsOf, type SurveyTranslations } from './translations.ts';
import { checkRewardOrder, dollars, formTierThresholds, frequency, FREQUENCY_DAYS, presetRewards, redemptionWebsite, REVIEW_PLATFORM_IDS, reviewPolicy, REWARD_MAXIMUM_CENTS, REWARD_MINIMUM_CENTS, REWARD_MINIMUMS_MESSAGE, type RewardMode, rewardMode, SOCIAL_PLATFORM_IDS, surveyTemplateId, tierPointsField, tierThresholdsInput, title } from './schema-fields.ts';
import { addTranslationIssues, checkFormLanguages, defaultLanguageField, formLanguages, languageBoxes, languagesInput, translationsInput } from './schema-languages.ts';
import { always, checkPlatforms, checkQuestions, cleanLinks, platformsAndLinks, questionListField, storedQuestions } from './schema-lists.ts';

/**
 * The survey builder's rules (spec section 5 "Survey config form", ARCHITECTURE.md decisions):
 * one schema for the form (conform in the browser, the action on the server) and one for the JSON
 * API, both ending in the same normalised `SurveyConfigInput` with reward values in integer cents.
 */

export { type StoredSurveyLike, toFormValues } from './form-values.ts';
export { formTierThresholds, FREQUENCY_DAYS, isHandle, isWebUrl, normaliseUrl, presetRewards, REWARD_MAXIMUM_CENTS, REWARD_MINIMUM_CENTS, REWARD_MINIMUMS_MESSAGE, REWARD_MODES, type RewardMode } from './schema-fields.ts';
export { addTranslationIssues, formLanguages, LANGUAGES_MESSAGES, TRANSLATIONS_MESSAGES, translationsInput } from './schema-languages.ts';
export { readQuestionListText, UNREADABLE_QUESTIONS } from './schema-lists.ts';

/** The stored shape (what a service saves): cents, cleaned links for selected platforms only. */
export type SurveyConfigInput = {
  surveyTemplateId: string;
  title: string;
  rewardMode: RewardMode;
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  redemptionWebsite: string;
  selectedReviewPlatforms: Array<(typeof REVIEW_PLATFORM_IDS)[number]>;
  reviewUrls: Record<string, string>;
  selectedSocialPlatforms: Array<(typeof SOCIAL_PLATFORM_IDS)[number]>;
  socialHandles: Record<string, string>;
  surveyFrequencyDays: 90 | 180 | 365;
  /** Absent: keep the stored questions (an API update without them). */
  customQuestions?: CustomQuestion[];
  /** Missing (a JSON client that does not send it): a new survey gets DEFAULT_REVIEW_POLICY, an edit keeps its own. */
  reviewPolicy?: ReviewPolicy;
  /** Missing: an edit keeps its own, a new survey the template's; null: back to the template's. */
  tierThresholds?: Partial<Record<TierName, number>> | null;
  /** Customers confirm their email before a gift card is sent (ADR 050); left out: unchanged (new surveys: off). */
  verifyCustomerEmail?: boolean;
  /** Screenshots read by the hosted vision model (ADR 066); left out: unchanged (new surveys: off). */
  hostedVision?: boolean;
  /** The languages offered, the default first (ADR 086); left out: unchanged (new surveys: ['en']). */
  languages?: Locale[];
  /** The owner's translations of their own words (ADR 090); left out: unchanged (new surveys: none). */
  translations?: SurveyTranslations;
};

/**
 * The builder form. Custom amounts are typed in whole dollars (spec); presets ignore them.
 * Field names match the JSON API where they can so errors land on the same keys.
 */
/**
 * The builder posts every language's translation card (those of languages not ticked are hidden by
 * the page's stylesheet, ADR 090): the save keeps the translations of the languages this same post
 * offers, other than its default, and drops the rest (a form without the languages card offers
 * English only, so none).
 */
function postedTranslations(v: { translations?: SurveyTranslations; languages?: string[]; defaultLanguage?: string }): SurveyTranslations | undefined {
  if (!v.translations) return undefined;
  return translationsOf(v.translations, formLanguages(v.languages, v.defaultLanguage) ?? ['en']);
}

export const builderFormSchema = z
  .object({
    surveyTemplateId: surveyTemplateId.default(DEFAULT_TEMPLATE_ID),
    title,
    rewardMode,
    customBronze: dollars(1),
    customSilver: dollars(2),
    customGold: dollars(3),
    redemptionWebsite,
    surveyFrequencyDays: frequency,
    customQuestions: questionListField,
    reviewPolicy: z.preprocess((v) => (v === undefined || v === '' ? DEFAULT_REVIEW_POLICY : v), reviewPolicy),
    tierBronze: tierPointsField,
    tierSilver: tierPointsField,
    tierGold: tierPointsField,
    // A checkbox: sent ('on') when ticked, absent when not.
    verifyCustomerEmail: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
    hostedVision: z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean()),
    // The languages offered (checkboxes) and the default one (a radio), ADR 086.
    languages: languageBoxes,
    defaultLanguage: defaultLanguageField,
    // The owner's translations (ADR 090): the translations card's fields; absent: keep what is stored.
    translations: translationsInput.optional(),
    ...platformsAndLinks,
  })
  .superRefine(checkPlatforms, always)
  .superRefine(checkQuestions, always)
  .superRefine(checkFormLanguages, always)
  .superRefine((v, ctx) => {
    // Translations name the questions of this same post.
    const translations = postedTranslations(v);
    if (translations) addTranslationIssues(ctx, translations, { surveyTemplateId: v.surveyTemplateId, customQuestions: v.customQuestions, languages: formLanguages(v.languages, v.defaultLanguage) ?? ['en'] });
  })
  .superRefine((v, ctx) => {
    if (v.rewardMode === 'custom') {
      for (const [field, min] of [['customBronze', 1], ['customSilver', 2], ['customGold', 3]] as const) {
        if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `Minimum $${min}.00` });
      }
      if (v.customBronze !== undefined && v.customSilver !== undefined && v.customGold !== undefined) {
        checkRewardOrder({ bronze: v.customBronze, silver: v.customSilver, gold: v.customGold }, ctx, (t) => [t === 'silver' ? 'customSilver' : 'customGold']);
      }
    }
  })
  .transform((v): SurveyConfigInput => {
    const rewards =
      v.rewardMode === 'custom'
        ? { bronze: v.customBronze! * 100, silver: v.customSilver! * 100, gold: v.customGold! * 100 }
        : presetRewards(v.surveyTemplateId, v.rewardMode);
    return {
      surveyTemplateId: v.surveyTemplateId,
      title: v.title,
      rewardMode: v.rewardMode,
      bronzeRewardValue: rewards.bronze,
      silverRewardValue: rewards.silver,
      goldRewardValue: rewards.gold,
      redemptionWebsite: v.redemptionWebsite,
      selectedReviewPlatforms: v.selectedReviewPlatforms,
      selectedSocialPlatforms: v.selectedSocialPlatforms,
      ...cleanLinks(v),
      surveyFrequencyDays: v.surveyFrequencyDays,
      customQuestions: storedQuestions(v.surveyTemplateId, v.customQuestions),
      reviewPolicy: v.reviewPolicy,
      verifyCustomerEmail: v.verifyCustomerEmail,
      hostedVision: v.hostedVision,
      ...(formLanguages(v.languages, v.defaultLanguage) === undefined ? {} : { languages: formLanguages(v.languages, v.defaultLanguage) }),
      ...(v.translations === undefined ? {} : { translations: postedTranslations(v) }),
      ...(formTierThresholds(v.surveyTemplateId, v) === undefined ? {} : { tierThresholds: formTierThresholds(v.surveyTemplateId, v) }),
    };
  });

const cents = (tier: keyof typeof REWARD_MINIMUM_CENTS) =>
  z
    .number({ error: REWARD_MINIMUMS_MESSAGE })
    .int('Reward values are whole cents')
    .min(REWARD_MINIMUM_CENTS[tier], REWARD_MINIMUMS_MESSAGE)
    .max(REWARD_MAXIMUM_CENTS, `Maximum $${(REWARD_MAXIMUM_CENTS / 100).toLocaleString('en-US')}.00`);

/** POST /api/survey/builder-config and PUT /api/survey/config/{id}: the spec's field names, cents. */
export const surveyConfigApiSchema = z
  .object({
    surveyTemplateId: surveyTemplateId.default(DEFAULT_TEMPLATE_ID),
    title,
    rewardMode,
    bronzeRewardValue: cents('bronze').optional(),
    silverRewardValue: cents('silver').optional(),
    goldRewardValue: cents('gold').optional(),
    redemptionWebsite,
    surveyFrequencyDays: z.number({ error: 'Must be 90, 180, or 365 days' }).refine((v): v is 90 | 180 | 365 => (FREQUENCY_DAYS as readonly number[]).includes(v), 'Must be 90, 180, or 365 days').default(90),
    customQuestions: z.array(z.unknown(), { error: 'customQuestions must be a list of questions' }).optional(),
    reviewPolicy: reviewPolicy.optional(),
    tierThresholds: tierThresholdsInput.optional(),
    verifyCustomerEmail: z.boolean({ error: 'verifyCustomerEmail must be true or false' }).optional(),
    hostedVision: z.boolean({ error: 'hostedVision must be true or false' }).optional(),
    languages: languagesInput.optional(),
    // Which languages and questions it may name is checked by the routes, with the stored survey for what a PUT leaves out.
    translations: translationsInput.optional(),
    ...platformsAndLinks,
  })
  .superRefine(checkPlatforms, always)
  .superRefine(checkQuestions, always)
  .superRefine((v, ctx) => {
    if (v.rewardMode === 'custom') {
      for (const f of ['bronzeRewardValue', 'silverRewardValue', 'goldRewardValue'] as const) {
        if (v[f] === undefined) ctx.addIssue({ code: 'custom', path: [f], message: REWARD_MINIMUMS_MESSAGE });
      }
      if (v.bronzeRewardValue !== undefined && v.silverRewardValue !== undefined && v.goldRewardValue !== undefined) {
        checkRewardOrder({ bronze: v.bronzeRewardValue, silver: v.silverRewardValue, gold: v.goldRewardValue }, ctx, (t) => [`${t}RewardValue`]);
      }
    }
  })
  .transform((v): SurveyConfigInput => {
    const preset = v.rewardMode === 'custom' ? null : presetRewards(v.surveyTemplateId, v.rewardMode);
    return {
      surveyTemplateId: v.surveyTemplateId,
      title: v.title,
      rewardMode: v.rewardMode,
      bronzeRewardValue: preset ? preset.bronze : v.bronzeRewardValue!,
      silverRewardValue: preset ? preset.silver : v.silverRewardValue!,
      goldRewardValue: preset ? preset.gold : v.goldRewardValue!,
      redemptionWebsite: v.redemptionWebsite,
      selectedReviewPlatforms: v.selectedReviewPlatforms,
      selectedSocialPlatforms: v.selectedSocialPlatforms,
      ...cleanLinks(v),
      surveyFrequencyDays: v.surveyFrequencyDays,
      // Left out of a PUT, the survey keeps its questions.
      ...(v.customQuestions === undefined ? {} : { customQuestions: storedQuestions(v.surveyTemplateId, v.customQuestions) }),
      ...(v.reviewPolicy === undefined ? {} : { reviewPolicy: v.reviewPolicy }),
      ...(v.tierThresholds === undefined ? {} : { tierThresholds: v.tierThresholds }),
      ...(v.verifyCustomerEmail !== undefined ? { verifyCustomerEmail: v.verifyCustomerEmail } : {}),
      ...(v.hostedVision !== undefined ? { hostedVision: v.hostedVision } : {}),
      ...(v.languages !== undefined ? { languages: v.languages } : {}),
      ...(v.translations !== undefined ? { translations: v.translations } : {}),
    };
  });

export { BUILDER_DRAFT_KEY } from './draft.ts';
