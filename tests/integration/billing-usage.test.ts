import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as detailsPage } from '#app/routes/_billing+/subscription-details.tsx';
import { loader as dashboard } from '#app/routes/_marketing+/_index.tsx';
import { usageWindow } from '../../modules/billing/server.ts';
import { startRewardWorkers } from '../../server/composition.ts';
import { formRequest, getRequest, run } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { FAST_RETRIES, query, rewardingBusiness, waitForEmailed } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let shop: Awaited<ReturnType<typeof rewardingBusiness>>;
beforeAll(async () => {
  app = await createTestApp({}, { jobs: true, jobPolicies: FAST_RETRIES });
  await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
  // A 14-day trial of Starter (yearly): 30 rewards a month, $0.64 each over that.
  shop = await rewardingBusiness(app, 'Usage Cafe');
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** Rewards issued earlier (fixtures): `n` responses with their issued cards, at `issuedAt`. */
async function earlierRewards(n: number, issuedAt = 'now()') {
  await query(
    app,
    `with r as (
       insert into survey_responses (business_id, survey_config_id, responses, reward_tier, reward_value, customer_email)
       select ?, ?, '{}'::jsonb, 'Silver', 300, 'earlier-' || g || '-' || md5(random()::text) || '@example.com' from generate_series(1, ?) g
       returning id, customer_email)
     insert into gift_card_issuances (business_id, survey_response_id, customer_email, gift_card_number, reward_value, reward_tier, issued_at, emailed_at)
     select ?, r.id, r.customer_email, 'TEST' || substr(md5(r.id::text), 1, 12), 300, 'Silver', ${issuedAt}, now() from r`,
    [shop.businessId, shop.surveyId, n, shop.businessId],
  );
}

const usageOnDetails = async () => (await run(() => detailsPage({ request: getRequest('/subscription-details', shop.owner.jar), context: app.context(), params: {} }))).body as { usage: Record<string, unknown> };
const ownerMail = async () => (await readOutbox(app.root)).filter((m) => m.to === shop.owner.email && m.subject.startsWith('You have'));

describe('usage against the plan', () => {
  it('billing months are counted from the period start without drifting', () => {
    const anchor = new Date('2026-01-31T10:00:00Z');
    expect(usageWindow(anchor, new Date('2026-03-05T00:00:00Z'))).toEqual({ start: new Date('2026-03-03T10:00:00Z'), end: new Date('2026-03-31T10:00:00Z') });
    expect(usageWindow(null, new Date('2026-11-24T08:00:00Z'))).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
  });

  it('counts this month’s rewards, emails at 80% and 100% once each, and over the limit still issues every reward and counts the overage', async () => {
    await earlierRewards(5, `now() - interval '60 days'`); // before this billing month: not counted
    const first = await shop.submit('first@example.com');
    await waitForEmailed(app, [first]);
    expect((await usageOnDetails()).usage).toMatchObject({ issued: 1, limit: 30, percent: 3, over: 0, planName: 'Starter' });
    expect(await ownerMail()).toHaveLength(0);

    await earlierRewards(22);
    const at80 = await shop.submit('eighty@example.com');
    await waitForEmailed(app, [at80]);
    await expect.poll(async () => (await ownerMail()).map((m) => m.subject)).toEqual(['You have used 80% of your RewardLoop rewards']);
    expect((await ownerMail())[0]!.text).toContain('24 of the 30 rewards included in your Starter plan');

    await earlierRewards(5);
    const at100 = await shop.submit('hundred@example.com');
    await waitForEmailed(app, [at100]);
    await expect.poll(async () => (await ownerMail()).length).toBe(2);
    expect((await ownerMail()).map((m) => m.subject)).toContain('You have reached your RewardLoop reward limit');

    await earlierRewards(2);
    const over = await shop.submit('over@example.com');
    await waitForEmailed(app, [over]);
    const [row] = await query<{ n: number }>(app, `select count(*)::int as n from gift_card_issuances where survey_response_id = ? and emailed_at is not null`, [over]);
    expect(row!.n).toBe(1);
    expect((await usageOnDetails()).usage).toMatchObject({ issued: 33, limit: 30, percent: 110, over: 3, overageCost: 1.92, costPerEngagement: 0.64 });
    const home = await run(() => dashboard({ request: getRequest('/', shop.owner.jar), context: app.context(), params: {} }));
    expect(JSON.stringify(home.body)).toContain('"over":3');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await ownerMail()).toHaveLength(2);
  });
});

describe('the owner’s monthly reward budget', () => {
  it('is validated, pauses new reward-earning submissions once reached (the survey says so first), and resumes when cleared', async () => {
    const { action: detailsAction } = await import('#app/routes/_billing+/subscription-details.tsx');
    const { loader: surveyPage } = await import('#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx');
    const cafe = await rewardingBusiness(app, 'Budget Cafe', { square: false });
    const setBudget = (value: string) =>
      run(() => detailsAction({ request: formRequest('/subscription-details', { intent: 'budget', monthlyRewardBudget: value }, cafe.owner.jar), context: app.context(), params: {} }));
    for (const bad of ['abc', '0', '-5', '2.50', '1000001']) {
      expect(await setBudget(bad), bad).toMatchObject({ status: 400, body: { budgetError: 'Enter a whole dollar amount from $1 to $100,000, or leave it empty for no budget.' } });
    }
    expect((await setBudget('$5')).status).toBe(302);
    const page = async () =>
      (await run(() => surveyPage({ request: getRequest(`/survey/public/${cafe.businessId}/${cafe.surveyId}`), context: app.context(), params: { businessId: cafe.businessId, surveyId: cafe.surveyId } }))).body as {
        view: { rewardsPaused: boolean };
      };
    expect((await page()).view.rewardsPaused).toBe(false);
    const a = await cafe.submit('budget-a@example.com');
    const b = await cafe.submit('budget-b@example.com'); // $3 + $3 = $6: the $5 budget is reached
    await waitForEmailed(app, [a, b]);
    expect((await page()).view.rewardsPaused).toBe(true);
    const paused = await cafe.submit('budget-c@example.com');
    const [row] = await query<{ reward_tier: string; reward_value: number | null }>(app, `select reward_tier, reward_value from survey_responses where id = ?`, [paused]);
    expect(row).toEqual({ reward_tier: 'Silver', reward_value: null });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await query(app, `select survey_response_id from gift_card_requests where survey_response_id = ?`, [paused])).toEqual([]);
    const home = await run(() => dashboard({ request: getRequest('/', cafe.owner.jar), context: app.context(), params: {} }));
    expect(home.body).toMatchObject({ dashboard: { budget: { budgetCents: 500, spentCents: 600, reached: true } } });
    expect((await setBudget('')).status).toBe(302);
    expect((await page()).view.rewardsPaused).toBe(false);
  });
});

describe('billing-sync (every 15 minutes from the queue)', () => {
  it('re-reads a subscription whose trial ended by our record: one the provider canceled (a missed webhook) reads canceled', async () => {
    const { registerBillingSync, BILLING_SYNC_CRON } = await import('../../modules/billing/server.ts');
    const jobs = app.root.jobs!;
    await registerBillingSync(jobs, { em: app.root.db.orm.em, billing: app.root.billing, logger: app.root.logger });
    expect(await query(app, `select name, cron from pgboss.schedule where name = 'billing-sync'`)).toEqual([{ name: 'billing-sync', cron: BILLING_SYNC_CRON }]);
    const cafe = await rewardingBusiness(app, 'Sync Cafe');
    const status = async () => (await query<{ subscription_status: string; stripe_subscription_id: string }>(app, `select subscription_status, stripe_subscription_id from businesses where id = ?`, [cafe.businessId]))[0]!;
    await app.root.billing.cancelSubscription((await status()).stripe_subscription_id);
    await jobs.send('billing-sync', {});
    await new Promise((r) => setTimeout(r, 1500));
    expect((await status()).subscription_status).toBe('trialing'); // the trial has not ended by our record: not due
    await query(app, `update businesses set trial_ends_at = now() - interval '1 minute' where id = ?`, [cafe.businessId]);
    await jobs.send('billing-sync', {});
    await expect.poll(async () => (await status()).subscription_status, { timeout: 20_000, interval: 250 }).toBe('canceled');
  });
});
