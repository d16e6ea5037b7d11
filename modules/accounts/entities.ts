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
    stripeCustomerId: p.string().length(255).nullable().index(),
    subscriptionPlan: p.string().length(50).nullable(),
    subscriptionStatus: p.string().length(20).default('none'),
    trialEndsAt: p.datetime().nullable(),
    hasPaymentMethod: p.boolean().default(false),
    /** The provider's subscription (Stripe `sub_...`, the fake's `sub_fake_...`); webhooks find the business by it. */
    stripeSubscriptionId: p.string().length(255).nullable().index(),
    /** `month` or `year`. */
    billingInterval: p.string().length(10).nullable(),
    /** The current billing period (usage is counted within it); its end is the next billing date. */
    currentPeriodStart: p.datetime().nullable(),
    currentPeriodEnd: p.datetime().nullable(),
    /** The highest usage email sent (0, 80, 100 percent of the plan's rewards) in the billing month starting at `usageAlertWindowStart`. */
    usageAlertLevel: p.integer().default(0),
    usageAlertWindowStart: p.datetime().nullable(),
    /** The owner's optional monthly reward budget in cents: once this billing month's promised rewards reach it, new submissions earn no reward. */
    monthlyRewardBudgetCents: p.integer().nullable(),
    /** "Share labelled screenshots to improve verification" (ADR 080): off by default; `reward-cli verifications labels export` takes only these businesses' proofs. */
    shareLabels: p.boolean().default(false),
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
    /** sha256 of the latest password-reset token mailed to the owner (single use, 1 hour); never the token itself. */
    passwordResetTokenHash: p.string().length(64).nullable().index().hidden(),
    passwordResetExpiresAt: p.datetime().nullable(),
    /** The owner's brand colour ('#rrggbb', checked for white text at 4.5:1); null: RewardLoop's. */
    brandColor: p.string().length(7).nullable(),
    /** BlobStore key of the owner's logo (a PNG we re-encoded, longest side 512 px); null: none. */
    brandLogoKey: p.string().length(255).nullable(),
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
