import { action as confirmAction } from '#app/routes/api+/billing.fake.confirm-setup.ts';
import { action as existingAction } from '#app/routes/api+/create-subscription-existing.ts';
import { action as completeAction } from '#app/routes/api+/subscription-complete.ts';
import { jsonRequest, run, type CookieJar } from './http.ts';
import type { TestApp } from './test-root.ts';

export const GOOD_CARD = '4242 4242 4242 4242';
export const DECLINED_CARD = '4000 0000 0000 0002';

/**
 * Walks the real checkout with the fake adapter (BILLING=fake, the tests' default): the plan step
 * (POST /api/create-subscription-existing), the card (POST /api/billing/fake/confirm-setup) and
 * POST /api/subscription-complete. With a trial unless the owner used one in the last 6 months.
 */
export async function subscribeWithFake(
  app: TestApp,
  owner: { jar: CookieJar },
  options: { planId?: string; isYearly?: boolean; surveyId?: string; card?: string } = {},
) {
  const started = await run(() =>
    existingAction({
      request: jsonRequest('/api/create-subscription-existing', { planId: options.planId ?? 'starter', isYearly: options.isYearly ?? true, surveyId: options.surveyId }, owner.jar),
      context: app.context(),
      params: {},
    }),
  );
  if (started.status !== 201) throw new Error(`checkout failed: ${started.status} ${JSON.stringify(started.body)}`);
  const { setupIntentId, clientSecret } = started.body as { setupIntentId: string; clientSecret: string };
  const confirmed = await run(() =>
    confirmAction({ request: jsonRequest('/api/billing/fake/confirm-setup', { clientSecret, cardNumber: options.card ?? GOOD_CARD }), context: app.context(), params: {} }),
  );
  const completed = await run(() => completeAction({ request: jsonRequest('/api/subscription-complete', { setupIntentId }, owner.jar), context: app.context(), params: {} }));
  return { setupIntentId, clientSecret, started, confirmed, completed };
}

/** An owner on a free trial (the 14-day yearly Starter), through the real checkout. */
export async function startTrialForTest(app: TestApp, owner: { jar: CookieJar }, surveyId?: string) {
  const result = await subscribeWithFake(app, owner, { surveyId });
  if (result.completed.status !== 200) throw new Error(`trial not started: ${result.completed.status} ${JSON.stringify(result.completed.body)}`);
  return result;
}
