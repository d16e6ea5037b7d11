import type { BillingInterval, PlanId } from './plans.ts';
import type { SubscriptionState } from './status.ts';
import { DomainError } from '../shared/errors.ts';

export type { BillingInterval, PlanId };

/** The business record's billing fields, as the rules of this module read them (spec section 3). */
export type BillingAccount = {
  id: string;
  subscriptionStatus: string;
  subscriptionPlan?: string | null;
  trialEndsAt?: Date | null;
  trialUsedAt?: Date | null;
  lastTrialEndedAt?: Date | null;
};

/** Stripe's SetupIntent statuses; the checkout goes on with `succeeded` (or `requires_action` while the bank asks). */
export type SetupIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'canceled'
  | 'succeeded';

export type ProviderSetupIntent = {
  id: string;
  clientSecret: string;
  status: SetupIntentStatus;
  customerId: string;
  /** The card it saved, once it succeeded. */
  paymentMethodId: string | null;
  /** The provider's words for the last failure (a decline), else null. */
  lastError: string | null;
};

/** Stripe's subscription statuses. */
export type ProviderSubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete' | 'incomplete_expired' | 'paused';

export type ProviderSubscription = {
  id: string;
  customerId: string;
  status: ProviderSubscriptionStatus;
  /** Null when the price is not one of ours. */
  planId: PlanId | null;
  interval: BillingInterval | null;
  trialEnd: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  canceledAt: Date | null;
};

/** A verified webhook event, reduced to what the handler needs; the subscription is always re-read. */
export type BillingEvent = {
  id: string;
  type: string;
  customerId: string | null;
  subscriptionId: string | null;
};

/**
 * `declined`: the card was refused (message: the provider's words); `not_found`: no such object at
 * the provider; `signature`: a webhook that is not the provider's; `unavailable`: network, 5xx, 429;
 * `invalid`: the provider refused the request for another reason.
 */
export type BillingErrorCode = 'declined' | 'not_found' | 'signature' | 'unavailable' | 'invalid';

export class BillingError extends DomainError {
  static override readonly kind = 'BillingError';
  readonly code: BillingErrorCode;
  constructor(code: BillingErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}


export type CreateSubscriptionInput = {
  customerId: string;
  planId: PlanId;
  interval: BillingInterval;
  trialDays: number;
  paymentMethodId: string;
  businessId: string;
  /** The same key gives the same subscription (a retried completion never subscribes twice). */
  idempotencyKey: string;
};

/**
 * The Billing port: the payment provider's customers, SetupIntents (a card saved for later, the
 * trial's way in), subscriptions, the customer portal and webhooks. Adapters: `StripeBilling` (the
 * `stripe` SDK) and `FakeBilling` (the same objects kept locally, a local card form and portal).
 * Plain types only: no SDK, no ORM.
 */
export interface Billing {
  readonly id: 'fake' | 'stripe';
  /** The browser's key for Stripe.js (Stripe only); null for the fake, whose card form is ours. */
  readonly publishableKey: string | null;
  /** A customer for this business (metadata carries the business id). */
  createCustomer(input: { businessId: string; email: string; name: string }): Promise<string>;
  /** A SetupIntent that saves a card for off-session use. */
  createSetupIntent(input: { customerId: string; businessId: string }): Promise<ProviderSetupIntent>;
  retrieveSetupIntent(id: string): Promise<ProviderSetupIntent>;
  /** A subscription to the plan's price for the interval, on the saved card, with `trialDays` free (0: none). */
  createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription>;
  retrieveSubscription(id: string): Promise<ProviderSubscription>;
  /** Cancels at once (spec: immediate, cannot be undone). */
  cancelSubscription(id: string): Promise<ProviderSubscription>;
  /** Where the owner manages the card and invoices; comes back to `returnUrl`. */
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies a webhook's signature (throws BillingError `signature`) and reads the event. */
  parseWebhook(payload: string, signature: string | null): BillingEvent;
  /** The fake's own card form and portal page (BILLING=fake only; Stripe has its own). */
  readonly localPages?: LocalBillingPages;
}

/** A portal session of the fake's local portal page. */
export type LocalPortalView = { id: string; customerId: string; returnUrl: string; cardLast4: string | null };

/** What the fake serves itself instead of Stripe.js and Stripe's portal (POST /api/billing/fake/confirm-setup, /billing-portal). */
export interface LocalBillingPages {
  /**
   * Confirms a SetupIntent, named by its client secret as Stripe.js does, with a card; a refused card
   * leaves it `requires_payment_method` with Stripe's words. Unknown intent or wrong secret: BillingError `not_found`.
   */
  confirmSetupIntent(clientSecret: string, card: { number: string; expiry?: string | null; cvc?: string | null }): Promise<ProviderSetupIntent>;
  /** The portal page's session: null when unknown or expired. */
  portalSession(id: string): Promise<LocalPortalView | null>;
}

export type { SubscriptionState };
