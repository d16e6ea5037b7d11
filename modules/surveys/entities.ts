import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';

const now = () => new Date();

/** An owner's survey (spec section 3, `survey_configs`). Reward values are integer cents. */
export const SurveyConfig = defineEntity({
  name: 'SurveyConfig',
  tableName: 'survey_configs',
  indexes: [{ properties: ['businessId', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    /**
     * The code of the survey's short link `/s/{code}` (ADR 082): unique, made by `createSurveys` (a
     * collision is drawn again) or, for an insert that brings none, by the database's `survey_short_code()`.
     */
    shortCode: p.string().length(16).unique().defaultRaw('survey_short_code()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    surveyTemplateId: p.string().length(100).default('restaurant_cafe_bakery'),
    title: p.string().length(255).default('Survey'),
    isActive: p.boolean().default(true),
    rewardMode: p.string().length(32).default('preset_2'),
    bronzeRewardValue: p.integer(),
    silverRewardValue: p.integer(),
    goldRewardValue: p.integer(),
    customQuestions: p.json<unknown[]>().defaultRaw(`'[]'`),
    reviewUrls: p.json<Record<string, string>>().defaultRaw(`'{}'`),
    socialHandles: p.json<Record<string, string>>().defaultRaw(`'{}'`),
    selectedReviewPlatforms: p.json<string[]>().defaultRaw(`'[]'`),
    selectedSocialPlatforms: p.json<string[]>().defaultRaw(`'[]'`),
    surveyFrequencyDays: p.integer().default(90),
    /** The owner asks customers to confirm their email (a link) before a gift card is sent (ADR 050). */
    verifyCustomerEmail: p.boolean().default(false),
    /** The owner chose the hosted vision verifier for this survey's screenshots (ADR 066); off unless chosen. */
    hostedVision: p.boolean().default(false),
    /**
     * The languages the survey offers its customers (ADR 086): 'en', 'es', 'fr', 'de', 'pt', each once,
     * at least one; the first is the survey's default language. Surveys from before the choice: ['en'].
     */
    languages: p.json<string[]>().defaultRaw(`'["en"]'`),
    /**
     * The owner's translations of their own words (ADR 090): per offered language other than the
     * default, the title, question texts and options, the reward tiers' names (`translations.ts`).
     */
    translations: p.json<Record<string, unknown>>().defaultRaw(`'{}'`),
    redemptionWebsite: p.string().length(500).nullable(),
    /** 'ask_every' or 'rating_routed' (ADR 040); existing rows were migrated to 'rating_routed'. */
    reviewPolicy: p.string().length(20).default('ask_every'),
    /** Per-survey tier minimums; null means the template's reward_tiers. */
    tierThresholds: p.json<Record<string, number>>().nullable(),
    /** Set when the survey is first published (Draft until then). */
    publishedAt: p.datetime().nullable(),
    /** Set when the owner archives the survey: out of every list and unreachable for customers; its responses stay. */
    archivedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(now).onUpdate(now),
  },
});
export type SurveyConfig = InferEntity<typeof SurveyConfig>;
