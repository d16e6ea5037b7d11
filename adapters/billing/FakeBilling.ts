import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
import { defineProvider } from '../../modules/shared/index.ts';

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
type State = {
  customers: Record<string, FakeCustomer>;
  setupIntents: Record<string, FakeSetupIntent>;
  subscriptions: Record<string, StoredSubscription>;
  portalSessions: Record<string, FakePortalSession>;
  idempotency: Record<string, string>;
};

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
 * subscriptions, portal sessions) in a JSON file under DATA_DIR, so they survive a restart, and
 * behaves as Stripe's test mode does: 4242 4242 4242 4242 saves a card, 4000 0000 0000 0002 is
 * declined with Stripe's words, a trial turns into a paid period when it ends (the test card always
 * pays), a paid period renews. Its card form posts to POST /api/billing/fake/confirm-setup
 * (`confirmSetupIntent`), its portal is the local page /billing-portal (`portalSession`), and its
 * webhooks are verified exactly as Stripe's are (the `stripe` SDK, the configured secret).
 */
export class FakeBilling implements Billing, LocalBillingPages {
  readonly id = 'fake' as const;
  /** Its card form and portal page are its own. */
  readonly localPages: LocalBillingPages = this;
  readonly publishableKey = null;
  private readonly file: string;
  private readonly now: () => Date;
  private readonly webhookSecret: string;
  private readonly state: State;

  constructor(options: { dataDir: string; webhookSecret: string; now?: () => Date }) {
    this.file = path.join(options.dataDir, 'fake-billing.json');
    this.now = options.now ?? (() => new Date());
    this.webhookSecret = options.webhookSecret;
    this.state = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, 'utf8')) as State)
      : { customers: {}, setupIntents: {}, subscriptions: {}, portalSessions: {}, idempotency: {} };
  }

  private save() {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(tmp, this.file);
  }

  async createCustomer(input: { businessId: string; email: string; name: string }): Promise<string> {
    const customer: FakeCustomer = { id: newId('cus'), businessId: input.businessId, email: input.email, name: input.name, cardLast4: null };
    this.state.customers[customer.id] = customer;
    this.save();
    return customer.id;
  }

  async createSetupIntent(input: { customerId: string; businessId: string }): Promise<ProviderSetupIntent> {
    if (!this.state.customers[input.customerId]) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
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
    this.state.setupIntents[id] = intent;
    this.save();
    return this.publicIntent(intent);
  }

  async retrieveSetupIntent(id: string): Promise<ProviderSetupIntent> {
    const intent = this.state.setupIntents[id];
    if (!intent) throw new BillingError('not_found', `No such setupintent: '${id}'`);
    return this.publicIntent(intent);
  }

  /**
   * The fake's card form: confirms a SetupIntent, named by its client secret as Stripe.js names it
   * (`confirmSetup({ clientSecret })`), so only the page that started the checkout can confirm it,
   * with a card number (spaces allowed) and, when given, the expiry (MM/YY) and CVC. A refused card
   * leaves the intent `requires_payment_method` with Stripe's message in `lastError`. Throws
   * BillingError `not_found` for an unknown intent or a secret that is not its own.
   */
  confirmSetupIntent(clientSecret: string, card: { number: string; expiry?: string | null; cvc?: string | null }): ProviderSetupIntent {
    const id = clientSecret.split('_secret_')[0] ?? '';
    const intent = Object.hasOwn(this.state.setupIntents, id) ? this.state.setupIntents[id] : undefined;
    if (!intent || !sameSecret(intent.clientSecret, clientSecret)) throw new BillingError('not_found', `No such setupintent: '${id.slice(0, 80)}'`);
    if (intent.status === 'succeeded') return this.publicIntent(intent);
    const refuse = (message: string) => {
      intent.status = 'requires_payment_method';
      intent.lastError = message;
      this.save();
      return this.publicIntent(intent);
    };
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
    intent.status = 'succeeded';
    intent.lastError = null;
    intent.paymentMethodId = newId('pm');
    intent.cardLast4 = digits.slice(-4);
    const customer = this.state.customers[intent.customerId];
    if (customer) customer.cardLast4 = intent.cardLast4;
    this.save();
    return this.publicIntent(intent);
  }

  async createSubscription(input: CreateSubscriptionInput): Promise<ProviderSubscription> {
    const existing = this.state.idempotency[input.idempotencyKey];
    if (existing && this.state.subscriptions[existing]) return this.retrieveSubscription(existing);
    if (!this.state.customers[input.customerId]) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
    const saved = Object.values(this.state.setupIntents).some((i) => i.customerId === input.customerId && i.paymentMethodId === input.paymentMethodId);
    if (!saved) throw new BillingError('invalid', `No such PaymentMethod: '${input.paymentMethodId}'`);
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
    this.state.subscriptions[sub.id] = sub;
    this.state.idempotency[input.idempotencyKey] = sub.id;
    this.save();
    return this.publicSubscription(sub);
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscription> {
    const sub = this.state.subscriptions[id];
    if (!sub) throw new BillingError('not_found', `No such subscription: '${id}'`);
    // Time passes as at Stripe: a trial ends into a paid period, a paid period renews.
    const now = this.now();
    let changed = false;
    while ((sub.status === 'trialing' || sub.status === 'active') && new Date(sub.currentPeriodEnd) <= now) {
      sub.status = 'active';
      sub.currentPeriodStart = sub.currentPeriodEnd;
      sub.currentPeriodEnd = addInterval(new Date(sub.currentPeriodStart), sub.interval).toISOString();
      changed = true;
    }
    if (changed) this.save();
    return this.publicSubscription(sub);
  }

  async cancelSubscription(id: string): Promise<ProviderSubscription> {
    await this.retrieveSubscription(id);
    const sub = this.state.subscriptions[id]!;
    if (sub.status !== 'canceled') {
      sub.status = 'canceled';
      sub.canceledAt = this.now().toISOString();
      this.save();
    }
    return this.publicSubscription(sub);
  }

  async createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    if (!this.state.customers[input.customerId]) throw new BillingError('not_found', `No such customer: '${input.customerId}'`);
    const now = this.now();
    for (const [key, s] of Object.entries(this.state.portalSessions)) if (new Date(s.expiresAt) <= now) delete this.state.portalSessions[key];
    const session: FakePortalSession = {
      id: newId('bps'),
      customerId: input.customerId,
      returnUrl: input.returnUrl,
      expiresAt: new Date(now.getTime() + PORTAL_TTL_MS).toISOString(),
    };
    this.state.portalSessions[session.id] = session;
    this.save();
    return { url: `/billing-portal?session=${session.id}` };
  }

  /** The local portal page's session: null when unknown or expired. */
  portalSession(id: string): FakePortalView | null {
    const session = this.state.portalSessions[id];
    if (!session || new Date(session.expiresAt) <= this.now()) return null;
    return { id: session.id, customerId: session.customerId, returnUrl: session.returnUrl, cardLast4: this.state.customers[session.customerId]?.cardLast4 ?? null };
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
 * BILLING=fake (ADR 055): Stripe's objects kept under DATA_DIR, a local card form and portal. Its
 * webhooks are signed like Stripe's; without STRIPE_WEBHOOK_SECRET, with a secret derived from SESSION_SECRET.
 */
export const provider = defineProvider({
  id: 'fake',
  demo: 'fake billing (BILLING=fake; set the STRIPE_* variables)',
  options: z
    .object({ DATA_DIR: z.string(), SESSION_SECRET: z.string(), STRIPE_WEBHOOK_SECRET: z.string().optional() })
    .transform((c) => ({
      dataDir: c.DATA_DIR,
      webhookSecret: c.STRIPE_WEBHOOK_SECRET ?? `whsec_${createHash('sha256').update(`rewardloop fake billing webhooks\u0000${c.SESSION_SECRET}`).digest('hex')}`,
    })),
  create: (options) => new FakeBilling(options),
});
