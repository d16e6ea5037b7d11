import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { escapeHtml, type Mailer } from '../mail/index.ts';
import { BillingCheckout, BillingWebhookEvent } from './entities.ts';
import { findPlan, PLAN_NOT_FOUND, periodPrice, TRIAL_DAYS, type BillingInterval, type Plan, type PlanId } from './plans.ts';
import { BillingError, type Billing, type BillingEvent, type ProviderSubscription } from './port.ts';
import { canUseFreeTrial } from './publish-readiness.ts';
import { BILLING_MESSAGES, portalErrorTitle } from './messages.ts';
import { subscriptionState } from './status.ts';
import { parseBudget, rewardBudget, usageFor, type RewardBudget, type Usage } from './usage.ts';
import { lockFor } from '../shared/orm.ts';
import { handleEvent, type EventOutcome } from './webhook-events.ts';


export type PlanDetails = { id: PlanId; name: string; price: number; period: BillingInterval; trialDays: number };

export type CheckoutView = {
  setupIntentId: string;
  clientSecret: string;
  businessId: string;
  planDetails: PlanDetails;
  /** What the first charge will be and when (after the trial, or today). */
  firstChargeAt: string;
  surveyId: string | null;
  completed: boolean;
};

export type Failure = { ok: false; status: 400 | 402 | 403 | 404 | 409 | 502; title: string; message: string };

/** GET /api/stripe/subscription-status: spec section 3's two shapes in one body. */
export type SubscriptionDetails = {
  hasActiveSubscription: boolean;
  hasActiveTrial: boolean;
  status: ReturnType<typeof subscriptionState>['status'];
  trialDaysRemaining: number;
  subscriptionType: 'monthly' | 'yearly' | null;
  plan: PlanId | null;
  planName: string | null;
  nextBillingDate: string | null;
  trialEndsAt: string | null;
  canManageSubscription: boolean;
  paymentFailed: boolean;
  canUseFreeTrial: boolean;
};

export type BillingDeps = {
  em: EntityManager;
  /**
   * Whether the survey (any id, archived too) is this business's: the checkout carries it to Ready
   * to Publish. Asked of the surveys module by the composition root (billing never imports surveys).
   */
  ownsSurvey: (businessId: string, surveyId: string) => Promise<boolean>;
  billing: Billing;
  mailer: Mailer;
  appUrl: string;
  logger: Logger;
  now?: () => Date;
};

type Owner = Business;

/** The provider's statuses of a subscription whose last payment failed. */

const fail = (status: Failure['status'], title: string, message: string): Failure => ({ ok: false, status, title, message });

function planDetails(plan: Plan, interval: BillingInterval, trialDays: number): PlanDetails {
  return { id: plan.id, name: plan.name, price: periodPrice(plan, interval), period: interval, trialDays };
}

/** Writes what the provider says about a subscription onto the business: the single source the app reads. */
export function applySubscription(business: Business, sub: ProviderSubscription, at: Date) {
  const wasTrialing = business.subscriptionStatus === 'trialing';
  business.stripeSubscriptionId = sub.id;
  business.subscriptionStatus = sub.status;
  if (sub.planId) {
    business.subscriptionPlan = sub.planId;
    business.plan = sub.planId;
  }
  business.billingInterval = sub.interval;
  business.trialEndsAt = sub.trialEnd;
  business.currentPeriodStart = sub.currentPeriodStart;
  business.currentPeriodEnd = sub.currentPeriodEnd;
  if (sub.status === 'trialing') business.trialStatus = 'active';
  else if (sub.trialEnd || wasTrialing) {
    business.trialStatus = 'ended';
    // The trial is over: by its end date, or earlier when it was canceled.
    const ended = sub.trialEnd && sub.trialEnd <= at ? sub.trialEnd : (sub.canceledAt ?? at);
    if (!business.lastTrialEndedAt || business.lastTrialEndedAt < ended) business.lastTrialEndedAt = ended;
  }
}

/** Plans, checkout, subscription state, cancel, portal and webhooks for one request (or one webhook). */
export function createBillingService(deps: BillingDeps) {
  const { em, billing, logger } = deps;
  const now = deps.now ?? (() => new Date());

  function providerFailure(error: unknown, title: string): Failure {
    if (error instanceof BillingError) {
      logger.warn({ err: error, code: error.code }, 'billing provider refused a request');
      if (error.code === 'declined') return fail(402, title, error.message);
      if (error.code === 'not_found') return fail(404, title, error.message);
      if (error.code === 'invalid') return fail(400, title, error.message);
      return fail(502, title, BILLING_MESSAGES.providerUnavailable);
    }
    throw error;
  }

  const apply = (business: Business, sub: ProviderSubscription) => applySubscription(business, sub, now());

  /**
   * Runs `work` in a transaction that holds this business's billing lock (a PostgreSQL advisory lock,
   * so every instance waits on it), with the owner's row re-read under it: starting, completing and
   * cancelling decide on the state no other request is changing. The provider calls happen inside,
   * so a second tab waits for the first one's subscription instead of making its own.
   */
  function underBillingLock<T>(owner: Owner, work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return em.transactional(async (tx) => {
      await lockFor(tx, 'billing', owner.id);
      await tx.refresh(owner);
      return work(tx);
    });
  }

  async function ownSurvey(ownerId: string, surveyId: unknown): Promise<string | null> {
    if (typeof surveyId !== 'string') return null;
    return (await deps.ownsSurvey(ownerId, surveyId)) ? surveyId : null;
  }

  async function checkoutView(checkout: BillingCheckout, clientSecret: string): Promise<CheckoutView> {
    const plan = findPlan(checkout.planId)!;
    const interval = checkout.interval as BillingInterval;
    const firstCharge = new Date(checkout.createdAt.getTime() + checkout.trialDays * 86_400_000);
    return {
      setupIntentId: checkout.setupIntentId,
      clientSecret,
      businessId: checkout.businessId,
      planDetails: planDetails(plan, interval, checkout.trialDays),
      firstChargeAt: firstCharge.toISOString(),
      surveyId: checkout.surveyId ?? null,
      completed: Boolean(checkout.completedAt),
    };
  }

  async function sendMail(business: Business, subject: string, lines: string[]) {
    const link = new URL('/subscription-details', deps.appUrl).toString();
    try {
      await deps.mailer.send({
        to: business.email,
        subject,
        text: `Hello ${business.displayName},\n\n${lines.join('\n\n')}\n\nYour subscription: ${link}\n`,
        html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>Hello ${escapeHtml(business.displayName)},</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">View your subscription</a></p>
</body></html>`,
      });
    } catch (error) {
      logger.error({ err: error, businessId: business.id, subject }, 'billing email could not be sent');
    }
  }

  const service = {
    /**
     * Starts a checkout for a signed-in owner: the plan and trial come from our own table (the
     * browser's price or trial days are never read), a customer is created once, and a SetupIntent
     * collects the card. 404 'Plan not found', 409 when a subscription or trial is already running.
     */
    async startCheckout(owner: Owner, input: { planId: unknown; interval: BillingInterval; surveyId?: unknown }): Promise<{ ok: true; checkout: CheckoutView } | Failure> {
      const plan = findPlan(input.planId);
      if (!plan) return fail(404, 'Selection Failed', PLAN_NOT_FOUND);
      const surveyId = await ownSurvey(owner.id, input.surveyId);
      return underBillingLock(owner, async (tx) => {
        const state = subscriptionState(owner, now());
        if (state.hasActiveSubscription || state.hasActiveTrial) return fail(409, BILLING_MESSAGES.alreadySubscribedTitle, BILLING_MESSAGES.alreadySubscribed);
        const trialDays = canUseFreeTrial(owner, now()) ? TRIAL_DAYS[input.interval] : 0;
        try {
          // Under the lock: two tabs starting at once make one provider customer, not two.
          if (!owner.stripeCustomerId) {
            owner.stripeCustomerId = await billing.createCustomer({ businessId: owner.id, email: owner.email, name: owner.displayName });
            await tx.flush();
          }
          const intent = await billing.createSetupIntent({ customerId: owner.stripeCustomerId, businessId: owner.id });
          const checkout = tx.create(BillingCheckout, {
            setupIntentId: intent.id,
            businessId: owner.id,
            customerId: owner.stripeCustomerId,
            planId: plan.id,
            interval: input.interval,
            trialDays,
            surveyId,
            createdAt: now(),
          });
          await tx.flush();
          return { ok: true as const, checkout: await checkoutView(checkout, intent.clientSecret) };
        } catch (error) {
          return providerFailure(error, 'Selection Failed');
        }
      });
    },

    /** The owner's checkout for the checkout page; null when it is not theirs or unknown. */
    async checkout(owner: Owner, setupIntentId: string): Promise<CheckoutView | null> {
      const checkout = await em.findOne(BillingCheckout, { setupIntentId, businessId: owner.id });
      if (!checkout) return null;
      try {
        const intent = await billing.retrieveSetupIntent(checkout.setupIntentId);
        return await checkoutView(checkout, intent.clientSecret);
      } catch (error) {
        if (error instanceof BillingError && error.code === 'not_found') return null;
        throw error;
      }
    },

    /**
     * After the card is confirmed: re-reads the SetupIntent from the provider, and only when it
     * succeeded creates the subscription (idempotent per checkout) and stores it on the business.
     */
    async complete(
      owner: Owner,
      setupIntentId: string,
      businessId?: string | null,
    ): Promise<{ ok: true; status: string; trialEndsAt: Date | null; surveyId: string | null } | Failure> {
      if (businessId && businessId !== owner.id) return fail(403, BILLING_MESSAGES.setupFailedTitle, BILLING_MESSAGES.wrongBusiness);
      // One completion per business at a time (issue 25): six tabs finishing six checkouts at once
      // make one subscription; the others find it live under the lock and get the 409.
      return underBillingLock(owner, async (tx) => {
        const checkout = await tx.findOne(BillingCheckout, { setupIntentId, businessId: owner.id }, { refresh: true });
        if (!checkout) return fail(404, BILLING_MESSAGES.setupErrorTitle, BILLING_MESSAGES.setupMissing);
        const state = subscriptionState(owner, now());
        const live = state.hasActiveSubscription || state.hasActiveTrial;
        // Done before (a reload, a retried request): nothing is re-applied, so an old checkout never
        // overwrites a newer subscription, and the answer says what is true now.
        if (checkout.completedAt) {
          if (!live || owner.stripeSubscriptionId !== checkout.subscriptionId) return fail(409, BILLING_MESSAGES.checkoutUsedTitle, BILLING_MESSAGES.checkoutUsed);
          return { ok: true as const, status: owner.subscriptionStatus, trialEndsAt: state.hasActiveTrial ? (owner.trialEndsAt ?? null) : null, surveyId: checkout.surveyId ?? null };
        }
        if (live) return fail(409, BILLING_MESSAGES.alreadySubscribedTitle, BILLING_MESSAGES.alreadySubscribed);
        try {
          const intent = await billing.retrieveSetupIntent(setupIntentId);
          if (intent.customerId !== checkout.customerId) return fail(404, BILLING_MESSAGES.setupErrorTitle, BILLING_MESSAGES.setupMissing);
          if (intent.status !== 'succeeded' || !intent.paymentMethodId) {
            return fail(402, BILLING_MESSAGES.setupFailedTitle, intent.lastError ?? BILLING_MESSAGES.setupNotCompleted);
          }
          // The trial decided at the start still holds only if no trial was used since (another tab).
          const trialDays = checkout.trialDays > 0 && canUseFreeTrial(owner, now()) ? checkout.trialDays : 0;
          const sub = await billing.createSubscription({
            customerId: checkout.customerId,
            planId: checkout.planId as PlanId,
            interval: checkout.interval as BillingInterval,
            trialDays,
            paymentMethodId: intent.paymentMethodId,
            businessId: owner.id,
            idempotencyKey: `rewardloop-checkout-${setupIntentId}`,
          });
          apply(owner, sub);
          owner.hasPaymentMethod = true;
          if (sub.trialEnd) owner.trialUsedAt = now();
          checkout.completedAt = now();
          checkout.subscriptionId = sub.id;
          await tx.flush();
          logger.info({ businessId: owner.id, subscriptionId: sub.id, status: sub.status, plan: checkout.planId }, 'subscription started');
          return { ok: true as const, status: sub.status, trialEndsAt: sub.trialEnd, surveyId: checkout.surveyId ?? null };
        } catch (error) {
          return providerFailure(error, BILLING_MESSAGES.setupFailedTitle);
        }
      });
    },

    /** Cancels the owner's subscription at once (spec: immediate). Surveys, responses and rewards stay. */
    async cancel(owner: Owner): Promise<{ ok: true } | Failure> {
      return underBillingLock(owner, async (tx) => {
        const state = subscriptionState(owner, now());
        if (!owner.stripeSubscriptionId || state.status === 'canceled') return fail(404, BILLING_MESSAGES.cancellationFailedTitle, BILLING_MESSAGES.noSubscriptionToCancel);
        try {
          const sub = await billing.cancelSubscription(owner.stripeSubscriptionId);
          apply(owner, sub);
          await tx.flush();
          logger.info({ businessId: owner.id, subscriptionId: sub.id }, 'subscription canceled');
          return { ok: true as const };
        } catch (error) {
          return providerFailure(error, BILLING_MESSAGES.cancellationFailedTitle);
        }
      });
    },

    /** A customer portal session (Stripe's, or the fake's local page). */
    async portal(owner: Owner, returnUrl: string): Promise<{ ok: true; url: string } | Failure> {
      if (!owner.stripeCustomerId) return fail(404, portalErrorTitle(BILLING_MESSAGES.noCustomer), BILLING_MESSAGES.noCustomer);
      if (!owner.stripeSubscriptionId) return fail(400, portalErrorTitle(BILLING_MESSAGES.incomplete), BILLING_MESSAGES.incomplete);
      try {
        return { ok: true, url: (await billing.createPortalSession({ customerId: owner.stripeCustomerId, returnUrl })).url };
      } catch (error) {
        const failure = providerFailure(error, 'Billing Portal Unavailable');
        return { ...failure, title: portalErrorTitle(failure.message) };
      }
    },

    /** Rewards issued this billing month against the plan's limit; null without a live plan. */
    async usage(owner: Owner): Promise<Usage | null> {
      return usageFor(em, owner, now());
    },

    /** The owner's monthly reward budget against this month's promised rewards; null without one. */
    async budget(owner: Owner): Promise<RewardBudget | null> {
      return rewardBudget(em, owner, now());
    },

    /** Sets (whole dollars) or clears (empty) the owner's monthly reward budget. */
    async setBudget(owner: Owner, raw: unknown): Promise<{ ok: true; cents: number | null } | { ok: false; status: 400; message: string }> {
      const parsed = parseBudget(raw);
      if (!parsed.ok) return { ok: false, status: 400, message: parsed.message };
      owner.monthlyRewardBudgetCents = parsed.cents;
      await em.flush();
      return parsed;
    },

    /** Spec section 3's subscription status, both shapes. */
    details(owner: Owner): SubscriptionDetails {
      const at = now();
      const state = subscriptionState(owner, at);
      const plan = findPlan(owner.subscriptionPlan);
      const live = state.hasActiveSubscription || state.hasActiveTrial;
      const next = state.hasActiveTrial ? owner.trialEndsAt : owner.currentPeriodEnd;
      return {
        hasActiveSubscription: state.hasActiveSubscription,
        hasActiveTrial: state.hasActiveTrial,
        status: state.status,
        trialDaysRemaining: state.trialDaysRemaining,
        subscriptionType: owner.billingInterval === 'year' ? 'yearly' : owner.billingInterval === 'month' ? 'monthly' : null,
        plan: plan?.id ?? null,
        planName: plan?.name ?? null,
        nextBillingDate: live && next ? next.toISOString() : null,
        trialEndsAt: owner.trialEndsAt ? owner.trialEndsAt.toISOString() : null,
        canManageSubscription: Boolean(owner.stripeCustomerId && owner.stripeSubscriptionId),
        paymentFailed: owner.subscriptionStatus === 'past_due',
        canUseFreeTrial: canUseFreeTrial(owner, at),
      };
    },

    /**
     * POST /api/stripe/webhook: verifies the signature, records the event id (a replay or redelivery
     * has no second effect), re-reads the subscription from the provider (so events arriving out of
     * order all leave the latest state) and writes it onto the business. Emails the owner when a
     * trial is about to end and when a payment failed.
     */
    async handleWebhook(payload: string, signature: string | null): Promise<{ status: 200 | 400 | 503; message: string }> {
      let event: BillingEvent;
      try {
        event = billing.parseWebhook(payload, signature);
      } catch (error) {
        if (error instanceof BillingError) return { status: error.code === 'unavailable' ? 503 : 400, message: error.message };
        throw error;
      }
      let outcome: EventOutcome = { ignored: null, mail: null };
      try {
        await em.transactional(async (tx) => {
          tx.create(BillingWebhookEvent, { eventId: event.id, type: event.type.slice(0, 100), receivedAt: now() });
          await tx.flush();
          outcome = await handleEvent(tx, event, { billing, logger, apply });
        });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException) return { status: 200, message: 'Already handled.' };
        // The provider could not be reached while handling: nothing was recorded (the transaction rolled
        // back), so the provider's retry will handle the event again.
        if (error instanceof BillingError && error.code === 'unavailable') {
          logger.warn({ err: error, eventId: event.id, type: event.type }, 'billing webhook: provider unreachable; answered 503 for a retry');
          return { status: 503, message: BILLING_MESSAGES.providerUnavailable };
        }
        throw error;
      }
      const done = outcome as EventOutcome;
      if (done.mail) await sendMail(done.mail.business, done.mail.subject, done.mail.lines);
      return { status: 200, message: done.ignored ? `Ignored: ${done.ignored}` : 'Handled.' };
    },
  };

  return service;
}

export type BillingService = ReturnType<typeof createBillingService>;
