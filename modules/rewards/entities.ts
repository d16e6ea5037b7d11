import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/entities.ts';
import { SurveyResponse } from '../responses/entities.ts';

const now = () => new Date();

/** A gift card issued for one survey response (spec `gift_card_issuances`); at most one per response. */
export const GiftCardIssuance = defineEntity({
  name: 'GiftCardIssuance',
  tableName: 'gift_card_issuances',
  indexes: [{ properties: ['businessId', 'issuedAt'] }],
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    surveyResponseId: p
      .manyToOne(SurveyResponse)
      .mapToPk()
      .fieldName('survey_response_id')
      .unique()
      .deleteRule('cascade'),
    customerEmail: p.string().length(255),
    customerName: p.string().length(255).nullable(),
    giftCardNumber: p.string().length(64),
    giftCardId: p.string().length(255).nullable(),
    rewardValue: p.integer(),
    rewardTier: p.string().length(20),
    isSquareGiftCard: p.boolean().default(false),
    issuedAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type GiftCardIssuance = InferEntity<typeof GiftCardIssuance>;
