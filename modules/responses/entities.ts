import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/entities.ts';
import { SurveyConfig } from '../surveys/entities.ts';

const now = () => new Date();

/** One row per business and customer email: the repeat-submission window (spec `customer_submissions`). */
export const CustomerSubmission = defineEntity({
  name: 'CustomerSubmission',
  tableName: 'customer_submissions',
  uniques: [{ properties: ['businessId', 'customerEmail'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    customerEmail: p.string().length(255),
    ipAddress: p.string().length(45).nullable(),
    lastSubmissionAt: p.datetime().defaultRaw('now()').onCreate(now),
    submissionCount: p.integer().default(1),
  },
});
export type CustomerSubmission = InferEntity<typeof CustomerSubmission>;

/** A customer's answers, points, tier and reward (spec `survey_responses`). */
export const SurveyResponse = defineEntity({
  name: 'SurveyResponse',
  tableName: 'survey_responses',
  indexes: [
    { properties: ['businessId', 'submittedAt'] },
    { properties: ['surveyConfigId', 'submittedAt'] },
    { properties: ['customerEmail'] },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    surveyConfigId: p
      .manyToOne(SurveyConfig)
      .mapToPk()
      .fieldName('survey_config_id')
      .nullable()
      .deleteRule('set null'),
    customerEmail: p.string().length(255).nullable(),
    customerName: p.string().length(255).nullable(),
    responses: p.json<Record<string, unknown>>(),
    totalPoints: p.integer().default(0),
    rewardTier: p.string().length(20).nullable(),
    rewardValue: p.integer().nullable(),
    reviewPlatform: p.string().length(50).nullable(),
    reviewStarRating: p.integer().nullable(),
    reviewText: p.text().nullable(),
    reviewerName: p.string().length(255).nullable(),
    socialVerificationData: p.json<Record<string, unknown>>().nullable(),
    submittedAt: p.datetime().defaultRaw('now()').onCreate(now),
    ipAddress: p.string().length(45).nullable(),
    userAgent: p.text().nullable(),
    giftCardNumber: p.string().length(64).nullable(),
    giftCardId: p.string().length(255).nullable(),
    isSquareGiftCard: p.boolean().default(false),
    verificationToken: p.string().length(255).nullable(),
    emailVerified: p.boolean().default(false),
    verifiedAt: p.datetime().nullable(),
  },
});
export type SurveyResponse = InferEntity<typeof SurveyResponse>;
