import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';

const now = () => new Date();

/**
 * A checkout in progress (issue 17): the SetupIntent the owner confirms a card on, and what the
 * server decided for it (plan, interval, trial days) when it was started. The browser only ever
 * names the SetupIntent; everything else is read back from here. `subscriptionId` is set once the
 * subscription exists (completion is idempotent).
 */
export const BillingCheckout = defineEntity({
  name: 'BillingCheckout',
  tableName: 'billing_checkouts',
  indexes: [{ properties: ['businessId', 'createdAt'] }],
  properties: {
    setupIntentId: p.string().length(255).primary(),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    customerId: p.string().length(255),
    planId: p.string().length(20),
    interval: p.string().length(10),
    trialDays: p.integer().default(0),
    /** The survey to publish afterwards (a builder draft carried through sign-up), if any. */
    surveyId: p.uuid().nullable(),
    createdAt: p.datetime().defaultRaw('now()').onCreate(now),
    completedAt: p.datetime().nullable(),
    subscriptionId: p.string().length(255).nullable(),
  },
});
export type BillingCheckout = InferEntity<typeof BillingCheckout>;

/** The ids of handled billing webhook events (a redelivery or replay has no second effect). */
export const BillingWebhookEvent = defineEntity({
  name: 'BillingWebhookEvent',
  tableName: 'billing_webhook_events',
  properties: {
    eventId: p.string().length(255).primary(),
    type: p.string().length(100),
    receivedAt: p.datetime().defaultRaw('now()').onCreate(now),
  },
});
export type BillingWebhookEvent = InferEntity<typeof BillingWebhookEvent>;
