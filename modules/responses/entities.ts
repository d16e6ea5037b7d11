import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { SurveyConfig } from '../surveys/server.ts';
import type { VerificationKind } from '../surveys/index.ts';
import type { VerdictName } from '../verification/index.ts';

const now = () => new Date();

/** An owner's verdict on a proof (ADR 080) and where it was given. */
export type OwnerVerdict = 'accepted' | 'rejected';
export type OwnerLabelSource = 'hold' | 'correction';

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

/** The unique index of (survey, submission key): a second insert with one key is a retry (ADR 081). */
export const SUBMISSION_KEY_INDEX = 'survey_responses_submission_key_unique';

/** A customer's answers, points, tier and reward (spec `survey_responses`). */
export const SurveyResponse = defineEntity({
  name: 'SurveyResponse',
  tableName: 'survey_responses',
  indexes: [
    { properties: ['businessId', 'submittedAt'] },
    { properties: ['surveyConfigId', 'submittedAt'] },
    { properties: ['customerEmail'] },
  ],
  uniques: [{ name: SUBMISSION_KEY_INDEX, properties: ['surveyConfigId', 'submissionKey'] }],
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
    /** The text each question was asked with, by answer key (issue 16): analytics labels this response's answers with it. */
    questionTexts: p.json<Record<string, string>>().defaultRaw(`'{}'`),
    /** The owner's question list it was scored with (`[]`: the template's); null before issue 16's migration. Replay re-scores with it. */
    surveyQuestions: p.json<unknown[]>().nullable(),
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
    /** The page's key for this submission (ADR 081): a retry with it is answered with this response. */
    submissionKey: p.string().length(64).nullable(),
    /** The customer's language ('en', 'es', 'fr', 'de', 'pt'; ADR 084); null before it was stored: English. */
    locale: p.string().length(8).nullable(),
  },
});
export type SurveyResponse = InferEntity<typeof SurveyResponse>;


/** Names of the two partial unique indexes: the submission tells them apart when one fires. */
export const USED_IMAGE_INDEX = 'screenshot_verifications_used_image_unique';
export const USED_REVIEW_TEXT_INDEX = 'screenshot_verifications_used_review_text_unique';

/**
 * One screenshot verification attempt (POST /api/verify-screenshot, /api/verify-social), valid or
 * not (ADR 015). The image lives in the BlobStore under `uploadKey`; the row keeps what was judged
 * and the verdict. A submission names the row by id in the block's screenshot answer and sets
 * `surveyResponseId` when it uses it: a used row is what "already rewarded" means, and the two
 * partial unique indexes make the database refuse a second use of the same image or review text
 * for one business, even under concurrent submissions.
 */
export const ScreenshotVerification = defineEntity({
  name: 'ScreenshotVerification',
  tableName: 'screenshot_verifications',
  indexes: [{ properties: ['businessId', 'createdAt'] }, { properties: ['surveyConfigId'] }, { properties: ['surveyResponseId'] }, { properties: ['ownerDecidedAt'] }],
  uniques: [
    { name: USED_IMAGE_INDEX, properties: ['businessId', 'imageHash'], where: 'survey_response_id is not null' },
    {
      name: USED_REVIEW_TEXT_INDEX,
      properties: ['businessId', 'normalisedReviewText'],
      where: 'survey_response_id is not null and normalised_review_text is not null',
    },
  ],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    surveyConfigId: p.manyToOne(SurveyConfig).mapToPk().fieldName('survey_config_id').deleteRule('cascade'),
    kind: p.string().length(10).$type<VerificationKind>(),
    platform: p.string().length(20),
    /** BlobStore key of the re-encoded image that was judged (never the bytes, never a data URL). */
    uploadKey: p.string().length(64),
    /** 'sha256:<hex>' as the verifier computed it (the OCR adapter hashes pixels, the fake bytes). */
    imageHash: p.string().length(80),
    /** 64-bit DCT perceptual hash of the stored image, 16 hex digits (sharp-phash, ADR 050): near-copies across customers. */
    perceptualHash: p.string().length(16).nullable(),
    /** The picture's thumbnail as the verifier computed it ('fp2:...' since ADR 074, 'fp1:...' before, ADR 067): copies of a rewarded screenshot. Null from the fake verifier and before 2026-11-24. */
    imageFingerprint: p.text().nullable().lazy(),
    /** `normaliseReviewText` of the review read off the image, cut to REVIEW_TEXT_KEY_MAX letters (an index entry has a size limit). */
    normalisedReviewText: p.text().nullable(),
    reviewText: p.text().nullable(),
    starRating: p.integer().nullable(),
    /** What the customer typed, trimmed, as verified: a submission must carry the same values. */
    reviewerName: p.string().length(255).nullable(),
    reviewLink: p.text().nullable(),
    userHandle: p.string().length(255).nullable(),
    /** True for accepted and needs_review (a submission may use the row). */
    isValid: p.boolean(),
    /** accepted, rejected or needs_review (ADR 077); rows before it: accepted or rejected by isValid. */
    verdict: p.string().length(20).$type<VerdictName>().default('accepted'),
    rejectionCode: p.string().length(40).nullable(),
    rejectionReason: p.text().nullable(),
    /** needs_review only: the unsure rule (a ReviewReasonCode) and why, in the owner's words. */
    reviewCode: p.string().length(40).nullable(),
    reviewReason: p.text().nullable(),
    /**
     * The owner's verdict on this proof (ADR 080): a held reward's Release (accepted) or Reject
     * (rejected), or the owner's correction on the response page. A label beside the verifier's,
     * never an input to it; null until an owner decides.
     */
    ownerVerdict: p.string().length(20).$type<OwnerVerdict>().nullable(),
    ownerDecidedAt: p.datetime().nullable(),
    /** 'owner:{email}' or 'cli:{user}'. */
    ownerDecidedBy: p.string().length(255).nullable(),
    /** How the label came: 'hold' (Release/Reject of a held reward) or 'correction' (the response page). */
    ownerLabelSource: p.string().length(20).$type<OwnerLabelSource>().nullable(),
    /** The response that used this verification; null while unused. */
    surveyResponseId: p
      .manyToOne(SurveyResponse)
      .mapToPk()
      .fieldName('survey_response_id')
      .nullable()
      .deleteRule('set null'),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type ScreenshotVerification = InferEntity<typeof ScreenshotVerification>;

/** Letters of normalised review text kept as the duplicate key (a btree entry holds about 2,700 bytes). */
export const REVIEW_TEXT_KEY_MAX = 2000;
