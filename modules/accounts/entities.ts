import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

const now = () => new Date();

/** A business owner's account (spec section 3, `businesses`). */
export const Business = defineEntity({
  name: 'Business',
  tableName: 'businesses',
  properties: {
    id: p.uuid().primary().defaultRaw('gen_random_uuid()'),
    email: p.string().length(255).unique(),
    hashedPassword: p.string().length(255).nullable(),
    displayName: p.string().length(255),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
    updatedAt: p.datetime().defaultRaw('now()').onCreate(now).onUpdate(now),
    trialStatus: p.string().length(20).default('active'),
    plan: p.string().length(20).default('starter'),
    trialUsedAt: p.datetime().nullable(),
    lastTrialEndedAt: p.datetime().nullable(),
    stripeCustomerId: p.string().length(255).nullable(),
    subscriptionPlan: p.string().length(50).nullable(),
    subscriptionStatus: p.string().length(20).default('none'),
    trialEndsAt: p.datetime().nullable(),
    hasPaymentMethod: p.boolean().default(false),
    squareAccessToken: p.text().nullable().hidden(),
    squareMerchantId: p.string().length(255).nullable(),
    squareRefreshToken: p.text().nullable().hidden(),
    squareLocationId: p.string().length(255).nullable(),
    squareLocationName: p.string().length(255).nullable(),
    /** When the stored Square access token expires (the daily pos-token-refresh job renews it 7 days ahead). */
    squareTokenExpiresAt: p.datetime().nullable(),
    googleId: p.string().length(255).nullable().unique(),
    isEmailVerified: p.boolean().default(false),
    /** sha256 of the token mailed at signup; the token itself is never stored. */
    emailVerificationTokenHash: p.string().length(64).nullable().index().hidden(),
    emailVerificationExpiresAt: p.datetime().nullable(),
  },
});
export type Business = InferEntity<typeof Business>;

/** A signed-in browser (spec section 3, `sessions`: sid, sess, expire). */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    sid: p.string().length(64).primary(),
    sess: p.json<Record<string, unknown>>(),
    expire: p.datetime().index(),
  },
});
export type Session = InferEntity<typeof Session>;
