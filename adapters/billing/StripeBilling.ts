import Stripe from 'stripe';
import {
  BillingError,
  type Billing,
  type BillingEvent,
  type CreateSubscriptionInput,
  type BillingInterval,
  type PlanId,
  type ProviderSetupIntent,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type SetupIntentStatus,
} from '../../modules/billing/index.ts';
import { verifyStripeSignedEvent } from './stripe-events.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

export type StripePrices = Record<PlanId, Record<BillingInterval, string>>;

type Obj = Record<string, unknown>;

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Obj).id === 'string' ? ((v as Obj).id as string) : null);
const date = (unix: unknown): Date | null => (typeof unix === 'number' ? new Date(unix * 1000) : null);

/**
 * Billing through Stripe with the official `stripe` SDK (BILLING=stripe): a customer per business,
 * a SetupIntent that saves the card (confirmed in the browser by Stripe Elements), then a
 * subscription to the configured price with the trial, the customer portal, immediate cancel, and
 * webhooks verified by signature. Prices come from config per plan and interval; a subscription
 * whose price is not one of them reads as plan null.
 */
export class StripeBilling implements Billing {
  readonly id = 'stripe' as const;
  readonly publishableKey: string;
  private readonly stripe: Stripe;
  private readonly prices: StripePrices;
  private readonly webhookSecret: string | null;

  constructor(options: { secretKey: string; publishableKey: string; webhookSecret: string | null; prices: StripePrices; timeoutMs?: number }) {
    this.publishableKey = options.publishableKey;
    this.prices = options.prices;
    this.webhookSecret = options.webhookSecret;
    this.stripe = new Stripe(options.secretKey, {
      // fetch, looked up on each call (not captured at start): msw intercepts it in tests.
      httpClient: Stripe.createFetchHttpClient((input, init) => fetch(input, init)),
      timeout: options.timeoutMs ?? 20_000,
      maxNetworkRetries: 1,
      appInfo: { name: 'RewardLoop' },
    });
  }

  async createCustomer(input: { businessId: string; email: string; name: string }): Promise<string> {
    const customer = await this.call(() =>
      this.stripe.customers.create({ email: input.email, name: input.name, metadata: { businessId: input.businessId } }, { idempotencyKey: `rewardloop-customer-${input.businessId}` }),
    );
    return customer.id;
  }

  async createSetupIntent(input: { customerId: string; businessId: string }): Promise<ProviderSetupIntent> {
    const intent = await this.call(() =>
      this.stripe.setupIntents.create({
        customer: input.customerId,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        metadata: { businessId: input.businessId },
      }),
    );
    return this.toIntent(intent as unknown as Obj);
  }

  async retrieveSetupIntent(id: string): Promise<ProviderSetupIntent> {
    return this.toIntent((await this.call(() => this.stripe.setupIntents.retrieve(id))) as unknown as Obj);
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription> {
    const sub = await this.call(() =>
      this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          items: [{ price: this.prices[input.planId][input.interval] }],
          default_payment_method: input.paymentMethodId,
          ...(input.trialDays > 0
            ? { trial_period_days: input.trialDays, trial_settings: { end_behavior: { missing_payment_method: 'cancel' as const } } }
            : {}),
          metadata: { businessId: input.businessId, planId: input.planId },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return this.toSubscription(sub as unknown as Obj);
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription> {
    return this.toSubscription((await this.call(() => this.stripe.subscriptions.retrieve(id))) as unknown as Obj);
  }

  async cancelSubscription(id: string): Promise<ProviderSubscription> {
    return this.toSubscription((await this.call(() => this.stripe.subscriptions.cancel(id))) as unknown as Obj);
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    const session = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }));
    return { url: session.url };
  }

  parseWebhook(payload: string, signature: string | null): BillingEvent {
    if (!this.webhookSecret) throw new BillingError('unavailable', 'Stripe webhooks are not configured (set STRIPE_WEBHOOK_SECRET).');
    return verifyStripeSignedEvent(payload, signature, this.webhookSecret);
  }

  /** Runs an SDK call, turning Stripe's errors into BillingErrors (a decline keeps Stripe's message). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) throw new BillingError('declined', error.message);
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        throw new BillingError(error.code === 'resource_missing' ? 'not_found' : 'invalid', error.message);
      }
      if (error instanceof Stripe.errors.StripeError) throw new BillingError('unavailable', error.message);
      throw error;
    }
  }

  private toIntent(intent: Obj): ProviderSetupIntent {
    const lastError = intent.last_setup_error as Obj | null | undefined;
    return {
      id: String(intent.id),
      clientSecret: String(intent.client_secret ?? ''),
      status: intent.status as SetupIntentStatus,
      customerId: idOf(intent.customer) ?? '',
      paymentMethodId: intent.status === 'succeeded' ? idOf(intent.payment_method) : null,
      lastError: typeof lastError?.message === 'string' ? lastError.message : null,
    };
  }

  private toSubscription(sub: Obj): ProviderSubscription {
    const item = ((sub.items as Obj | undefined)?.data as Obj[] | undefined)?.[0];
    const priceId = idOf(item?.price);
    let planId: PlanId | null = null;
    let interval: BillingInterval | null = null;
    for (const [plan, byInterval] of Object.entries(this.prices) as Array<[PlanId, Record<BillingInterval, string>]>) {
      for (const [i, price] of Object.entries(byInterval) as Array<[BillingInterval, string]>) {
        if (price === priceId) {
          planId = plan;
          interval = i;
        }
      }
    }
    return {
      id: String(sub.id),
      customerId: idOf(sub.customer) ?? '',
      status: sub.status as ProviderSubscriptionStatus,
      planId,
      interval,
      trialEnd: date(sub.trial_end),
      // Since API version 2025-03-31 the period lives on the item; before, on the subscription.
      currentPeriodStart: date(item?.current_period_start ?? sub.current_period_start),
      currentPeriodEnd: date(item?.current_period_end ?? sub.current_period_end),
      canceledAt: date(sub.canceled_at),
    };
  }
}

/** BILLING=stripe (ADR 055): the two API keys and the six recurring price ids; the webhook secret is optional (503 without it). */
export const provider = defineProvider({
  id: 'stripe',
  options: z
    .object({
      STRIPE_SECRET_KEY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PUBLISHABLE_KEY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_WEBHOOK_SECRET: z.string().optional(),
      STRIPE_PRICE_STARTER_MONTHLY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PRICE_STARTER_YEARLY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PRICE_GROWTH_MONTHLY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PRICE_GROWTH_YEARLY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PRICE_PRO_MONTHLY: z.string({ error: 'is required with BILLING=stripe' }),
      STRIPE_PRICE_PRO_YEARLY: z.string({ error: 'is required with BILLING=stripe' }),
    })
    .transform((c) => ({
      secretKey: c.STRIPE_SECRET_KEY,
      publishableKey: c.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: c.STRIPE_WEBHOOK_SECRET ?? null,
      prices: {
        starter: { month: c.STRIPE_PRICE_STARTER_MONTHLY, year: c.STRIPE_PRICE_STARTER_YEARLY },
        growth: { month: c.STRIPE_PRICE_GROWTH_MONTHLY, year: c.STRIPE_PRICE_GROWTH_YEARLY },
        pro: { month: c.STRIPE_PRICE_PRO_MONTHLY, year: c.STRIPE_PRICE_PRO_YEARLY },
      },
    })),
  create: (options) => new StripeBilling(options),
});
