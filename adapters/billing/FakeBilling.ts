import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  BillingError,
  type Billing,
  type LocalBillingPages,
  type LocalPortalView,
  type BillingEvent,
  type CreateSubscriptionInput,
  type BillingInterval,
  type PlanId,
  type ProviderSetupIntent,
  type ProviderSubscription,
} from '../../modules/billing/index.ts';
import { verifyStripeSignedEvent } from './stripe-events.ts';
import { z } from 'zod';
import { defineProvider, type DemoStore } from '../../modules/shared/index.ts';

/** The test cards the fake knows, with Stripe's own test-mode wording for the ones it refuses. */
export const FAKE_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export const DECLINE_MESSAGES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  incorrectNumber: 'Your card number is incorrect.',
  liveCard: 'Your card was declined. Your request was in test mode, but used a non test (live) card.',
  expired: 'Your card has expired.',
  cvc: "Your card's security code is incomplete.",
} as const;

type FakeCustomer = { id: string; businessId: string; email: string; name: string; cardLast4: string | null };
type FakeSetupIntent = ProviderSetupIntent & { cardLast4: string | null };
type StoredSubscription = {
  id: string;
  customerId: string;
  status: ProviderSubscription['status'];
  planId: PlanId;
  interval: BillingInterval;
  trialEnd: string | null;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  canceledAt: string | null;
};
type FakePortalSession = { id: string; customerId: string; returnUrl: string; expiresAt: string };

/** The kinds of the fake's objects in the DemoStore. */
const KIND = {
  customer: 'billing-customer',
  setupIntent: 'billing-setup-intent',
  subscription: 'billing-subscription',
  portalSession: 'billing-portal-session',
  idempotency: 'billing-idempotency',
} as const;

const PORTAL_TTL_MS = 30 * 60 * 1000;
const DAY_MS = 86_400_000;

/** Compares client secrets in constant time. */
function sameSecret(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const newId = (prefix: string) => `${prefix}_fake_${randomBytes(12).toString('hex')}`;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function addInterval(from: Date, interval: BillingInterval): Date {
  const d = new Date(from);
  if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + 1);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
}

export type FakePortalView = LocalPortalView;

/**
 * Billing without a Stripe account (BILLING=fake, the default with no STRIPE_SECRET_KEY; refused in
 * production unless ALLOW_DEMO_ADAPTERS). It keeps Stripe's objects (customers, SetupIntents,
 * subscriptions, portal sessions) in the database through the DemoStore port (issue 26), so they
 * survive a restart and every instance on one database sees them, and behaves as Stripe's test mode
 * does: 4242 4242 4242 4242 saves a card, 4000 0000 0000 0002 is declined with Stripe's words, a trial
 * turns into a paid period when it ends (the test card always pays), a paid period renews. Its card
 * form posts to POST /api/billing/fake/confirm-setup (`confirmSetupIntent`, by the client secret as
 * Stripe.js), its portal is the local page /billing-portal (`portalSession`), and its webhooks are
 * verified exactly as Stripe's are (the `stripe` SDK, the configured secret).
 */
export class FakeBilling implements Billing, LocalBillingPages {
  readonly id = 'fake' as const;
  /** Its card form and portal page are its own. */
  readonly localPages: LocalBillingPages = this;
  readonly publishableKey = null;
  private readonly store: DemoStore;
  private readonly now: () => Date;
  private readonly webhookSecret: string;

  constructor(options: { store: DemoStore; webhookSecret: string; now?: () => Date }) {
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
    this.webhookSecret = options.webhookSecret;
  }

  async createCustomer(input: { businessId: string; email: string; name: string }): Promise<string> {
    const customer: FakeCustomer = { id: newId('cus'), businessId: input.businessId, email: input.email, name: input.name, cardLast4: null };
    await this.store.insert(KIND.customer, customer.id, customer);
    return customer.id;
  }

  async createSetupIntent(input: { customerId: string; businessId: string }): Promise<ProviderSetupIntent> {
    if (!(await this.store.get(KIND.customer, input.customerId))) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
    const id = newId('seti');
    const intent: FakeSetupIntent = {
      id,
      clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      status: 'requires_payment_method',
      customerId: input.customerId,
      paymentMethodId: null,
      lastError: null,
      cardLast4: null,
    };
    await this.store.insert(KIND.setupIntent, id, intent);
    return this.publicIntent(intent);
  }

  async retrieveSetupIntent(id: string): Promise<ProviderSetupIntent> {
    const intent = await this.store.get<FakeSetupIntent>(KIND.setupIntent, id);
    if (!intent) throw new BillingError('not_found', `No such setupintent: '${id.slice(0, 80)}'`);
    return this.publicIntent(intent);
  }

  /**
   * The fake's card form: confirms a SetupIntent, named by its client secret as Stripe.js names it
   * (`confirmSetup({ clientSecret })`), so only the page that started the checkout can confirm it,
   * with a card number (spaces allowed) and, when given, the expiry (MM/YY) and CVC. A refused card
   * leaves the intent `requires_payment_method` with Stripe's message in `lastError`. Throws
   * BillingError `not_found` for an unknown intent or a secret that is not its own.
   */
  async confirmSetupIntent(clientSecret: string, card: { number: string; expiry?: string | null; cvc?: string | null }): Promise<ProviderSetupIntent> {
    const id = clientSecret.split('_secret_')[0] ?? '';
    const found = await this.store.get<FakeSetupIntent>(KIND.setupIntent, id);
    if (!found || !sameSecret(found.clientSecret, clientSecret)) throw new BillingError('not_found', `No such setupintent: '${id.slice(0, 80)}'`);
    const outcome = this.cardOutcome(card);
    // Under the store's row lock: a second confirmation of a succeeded intent changes nothing.
    const intent = (await this.store.update<FakeSetupIntent>(KIND.setupIntent, id, (current) => (current.status === 'succeeded' ? current : { ...current, ...outcome })))!;
    if (intent.status === 'succeeded' && outcome.status === 'succeeded' && intent.paymentMethodId === outcome.paymentMethodId) {
      await this.store.update<FakeCustomer>(KIND.customer, intent.customerId, (customer) => ({ ...customer, cardLast4: outcome.cardLast4 }));
    }
    return this.publicIntent(intent);
  }

  /** What a card does to an intent, as Stripe's test mode decides it. */
  private cardOutcome(card: { number: string; expiry?: string | null; cvc?: string | null }): Pick<FakeSetupIntent, 'status' | 'lastError' | 'paymentMethodId' | 'cardLast4'> {
    const refuse = (message: string) => ({ status: 'requires_payment_method' as const, lastError: message, paymentMethodId: null, cardLast4: null });
    const digits = card.number.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) return refuse(DECLINE_MESSAGES.incorrectNumber);
    if (card.expiry) {
      const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry);
      const now = this.now();
      const month = m ? Number(m[1]) : 0;
      const year = m ? (m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])) : 0;
      if (!m || month < 1 || month > 12 || year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) return refuse(DECLINE_MESSAGES.expired);
    }
    if (card.cvc && !/^\d{3,4}$/.test(card.cvc.trim())) return refuse(DECLINE_MESSAGES.cvc);
    if (digits === FAKE_CARDS.declined) return refuse(DECLINE_MESSAGES.declined);
    if (digits === FAKE_CARDS.insufficientFunds) return refuse(DECLINE_MESSAGES.insufficientFunds);
    if (digits !== FAKE_CARDS.success) return refuse(DECLINE_MESSAGES.liveCard);
    return { status: 'succeeded', lastError: null, paymentMethodId: newId('pm'), cardLast4: digits.slice(-4) };
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription> {
    const existing = await this.store.get<{ subscriptionId: string }>(KIND.idempotency, input.idempotencyKey);
    if (existing) return this.retrieveSubscription(existing.subscriptionId);
    if (!(await this.store.get(KIND.customer, input.customerId))) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
    const intents = await this.store.findBy<FakeSetupIntent>(KIND.setupIntent, 'customerId', input.customerId);
    if (!intents.some((i) => i.paymentMethodId === input.paymentMethodId)) throw new BillingError('invalid', `No such PaymentMethod: '${input.paymentMethodId}'`);
    const now = this.now();
    const trialEnd = input.trialDays > 0 ? new Date(now.getTime() + input.trialDays * DAY_MS) : null;
    const sub: StoredSubscription = {
      id: newId('sub'),
      customerId: input.customerId,
      status: trialEnd ? 'trialing' : 'active',
      planId: input.planId,
      interval: input.interval,
      trialEnd: trialEnd?.toISOString() ?? null,
      currentPeriodStart: now.toISOString(),
      currentPeriodEnd: (trialEnd ?? addInterval(now, input.interval)).toISOString(),
      canceledAt: null,
    };
    await this.store.insert(KIND.subscription, sub.id, sub);
    // The idempotency key is claimed once: a concurrent request with the same key returns the winner's.
    if (!(await this.store.insert(KIND.idempotency, input.idempotencyKey, { subscriptionId: sub.id }))) {
      await this.store.take(KIND.subscription, sub.id);
      const winner = (await this.store.get<{ subscriptionId: string }>(KIND.idempotency, input.idempotencyKey))!;
      return this.retrieveSubscription(winner.subscriptionId);
    }
    return this.publicSubscription(sub);
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription> {
    // Time passes as at Stripe: a trial ends into a paid period, a paid period renews.
    const sub = await this.store.update<StoredSubscription>(KIND.subscription, id, (current) => this.rolled(current));
    if (!sub) throw new BillingError('not_found', `No such subscription: '${id.slice(0, 80)}'`);
    return this.publicSubscription(sub);
  }

  private rolled(current: StoredSubscription): StoredSubscription {
    const sub = { ...current };
    const now = this.now();
    while ((sub.status === 'trialing' || sub.status === 'active') && new Date(sub.currentPeriodEnd) <= now) {
      sub.status = 'active';
      sub.currentPeriodStart = sub.currentPeriodEnd;
      sub.currentPeriodEnd = addInterval(new Date(sub.currentPeriodStart), sub.interval).toISOString();
    }
    return sub;
  }

  async cancelSubscription(id: string): Promise<ProviderSubscription> {
    const sub = await this.store.update<StoredSubscription>(KIND.subscription, id, (current) => {
      const rolled = this.rolled(current);
      return rolled.status === 'canceled' ? rolled : { ...rolled, status: 'canceled', canceledAt: this.now().toISOString() };
    });
    if (!sub) throw new BillingError('not_found', `No such subscription: '${id.slice(0, 80)}'`);
    return this.publicSubscription(sub);
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    if (!(await this.store.get(KIND.customer, input.customerId))) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
    const expiresAt = new Date(this.now().getTime() + PORTAL_TTL_MS);
    const session: FakePortalSession = { id: newId('bps'), customerId: input.customerId, returnUrl: input.returnUrl, expiresAt: expiresAt.toISOString() };
    await this.store.insert(KIND.portalSession, session.id, session, { expiresAt });
    return { url: `/billing-portal?session=${session.id}` };
  }

  /** The local portal page's session: null when unknown or expired. */
  async portalSession(id: string): Promise<FakePortalView | null> {
    const session = await this.store.get<FakePortalSession>(KIND.portalSession, id);
    if (!session || new Date(session.expiresAt) <= this.now()) return null;
    const customer = await this.store.get<FakeCustomer>(KIND.customer, session.customerId);
    return { id: session.id, customerId: session.customerId, returnUrl: session.returnUrl, cardLast4: customer?.cardLast4 ?? null };
  }

  parseWebhook(payload: string, signature: string | null): BillingEvent {
    return verifyStripeSignedEvent(payload, signature, this.webhookSecret);
  }

  private publicIntent(intent: FakeSetupIntent): ProviderSetupIntent {
    return {
      id: intent.id,
      clientSecret: intent.clientSecret,
      status: intent.status,
      customerId: intent.customerId,
      paymentMethodId: intent.paymentMethodId,
      lastError: intent.lastError,
    };
  }

  private publicSubscription(sub: StoredSubscription): ProviderSubscription {
    return {
      id: sub.id,
      customerId: sub.customerId,
      status: sub.status,
      planId: sub.planId,
      interval: sub.interval,
      trialEnd: sub.trialEnd ? new Date(sub.trialEnd) : null,
      currentPeriodStart: new Date(sub.currentPeriodStart),
      currentPeriodEnd: new Date(sub.currentPeriodEnd),
      canceledAt: sub.canceledAt ? new Date(sub.canceledAt) : null,
    };
  }
}

/**
 * BILLING=fake (ADR 055): Stripe's objects in the database (the DemoStore, ADR 073), a local card form
 * and portal. Its webhooks are signed like Stripe's; without STRIPE_WEBHOOK_SECRET, with a secret
 * derived from SESSION_SECRET.
 */
export const provider = defineProvider({
  id: 'fake',
  demo: 'fake billing (BILLING=fake; set the STRIPE_* variables)',
  options: z
    .object({ SESSION_SECRET: z.string(), STRIPE_WEBHOOK_SECRET: z.string().optional() })
    .transform((c) => ({
      webhookSecret: c.STRIPE_WEBHOOK_SECRET ?? `whsec_${createHash('sha256').update(`rewardloop fake billing webhooks\u0000${c.SESSION_SECRET}`).digest('hex')}`,
    })),
  create: (options, deps: { demoStore: DemoStore }) => new FakeBilling({ ...options, store: deps.demoStore }),
});
