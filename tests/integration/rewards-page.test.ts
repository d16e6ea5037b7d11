import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testCardFor } from '../../adapters/giftcards/TestGiftCards.ts';
import { action as rewardsAction, loader as rewardsLoader } from '#app/routes/_owner+/rewards.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { recordEmailFailure, sendRewardEmail } from '../../modules/rewards/email.ts';
import { issueReward, recordIssueFailure } from '../../modules/rewards/issue.ts';
import { GiftCardError } from '../../modules/rewards/port.ts';
import { rewardDeps } from '../../server/composition.ts';
import { signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, run } from '../setup/http.ts';
import { query, rewardingBusiness } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

/**
 * The owner's /rewards page: its loader and action with real Requests and cookies. Jobs are queued
 * but no worker runs: each reward is driven by hand to the state the test needs (issued and emailed,
 * failed, on its way), with the same code the workers run.
 */

type Page = {
  totals: { cards: number; cents: number; squareCards: number; testCards: number; testCents: number };
  issuances: Array<{ customerEmail: string; customerName: string | null; giftCardNumber: string; rewardValue: number; rewardTier: string; isSquareGiftCard: boolean; emailStatus: string }>;
  failed: Array<{ stage: string; customerEmail: string; rewardValue: number; reason: string; lastError: string; attempts: number; failedAt: string; giftCardNumber: string | null }>;
  pending: Array<{ stage: string; customerEmail: string; rewardValue: number; reason: string | null; since: string }>;
};

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
});
afterAll(async () => {
  await app?.close();
});

async function page(jar?: CookieJar) {
  return run(() => rewardsLoader({ request: getRequest('/rewards', jar), context: app.context(), params: {} }));
}

/** The toast a redirect flashes, as the next page reads it. */
async function toastOf(headers: Headers) {
  const jar = new CookieJar().take(new Response(null, { headers }));
  return (await readToast(getRequest('/rewards', jar), app.context())).toast;
}

/** Issues the response's card and sends its email, as the two jobs do. */
async function issueAndEmail(responseId: string) {
  const deps = rewardDeps(app.root);
  const outcome = await issueReward(deps, responseId);
  if (outcome.status !== 'issued') throw new Error(`not issued: ${outcome.status}`);
  await sendRewardEmail({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl, logger: deps.logger }, outcome.issuance.id);
  return outcome.issuance;
}

/** One business in every state: two cards sent, a card whose email failed, a card failed at Square, one on its way, one being emailed. */
async function businessInEveryState(name: string, prefix: string) {
  const shop = await rewardingBusiness(app, name);
  const deps = rewardDeps(app.root);
  const sent1 = await shop.submit(`${prefix}-sent1@example.com`, `${prefix} One`);
  const sent2 = await shop.submit(`${prefix}-sent2@example.com`, null);
  await issueAndEmail(sent1);
  await issueAndEmail(sent2);
  const mailFailed = await shop.submit(`${prefix}-mailfail@example.com`, `${prefix} Mail`);
  const mailIssuance = await issueReward(deps, mailFailed);
  if (mailIssuance.status !== 'issued') throw new Error('not issued');
  await recordEmailFailure(deps.em, mailIssuance.issuance.id, new Error("Can't send mail - all recipients were rejected: 550 5.1.1 Recipient address rejected"), true);
  const cardFailed = await shop.submit(`${prefix}-cardfail@example.com`, `${prefix} Card`);
  await recordIssueFailure(deps.em, cardFailed, new GiftCardError('Square answered 503 SERVICE_UNAVAILABLE to create a gift card', { retryable: true, code: 'SERVICE_UNAVAILABLE', status: 503 }), true);
  const waiting = await shop.submit(`${prefix}-waiting@example.com`, `${prefix} Waiting`);
  const emailing = await shop.submit(`${prefix}-emailing@example.com`, `${prefix} Emailing`);
  await issueReward(deps, emailing);
  return { shop, sent1, sent2, mailFailed, cardFailed, waiting, emailing };
}

describe('/rewards', () => {
  let a: Awaited<ReturnType<typeof businessInEveryState>>;
  let b: Awaited<ReturnType<typeof businessInEveryState>>;

  beforeAll(async () => {
    a = await businessInEveryState('Crumb & Co Bakery', 'alpha');
    b = await businessInEveryState('Bean There', 'beta');
  }, 60_000);

  it('signed out: the sign-in page, coming back to /rewards', async () => {
    const res = await page();
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/auth?returnTo=%2Frewards');
    const post = await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'retry-failed' }), context: app.context(), params: {} }));
    expect(post.headers.get('Location')).toBe('/auth?returnTo=%2Frewards');
  });

  it("shows the owner's cards newest first with totals, failures in plain words and the rewards on their way", async () => {
    const res = await page(a.shop.owner.jar);
    expect(res.status).toBe(200);
    const body = res.body as Page;
    // Four cards exist (two sent, one whose email failed, one being emailed): Silver, $3.00 each, Test cards.
    expect(body.totals).toMatchObject({ cards: 4, cents: 1200, squareCards: 0, testCards: 4, testCents: 1200 });
    expect(body.issuances.map((i) => i.customerEmail)).toEqual(['alpha-emailing@example.com', 'alpha-mailfail@example.com', 'alpha-sent2@example.com', 'alpha-sent1@example.com']);
    expect(body.issuances.find((i) => i.customerEmail === 'alpha-sent1@example.com')).toMatchObject({
      customerName: 'alpha One',
      giftCardNumber: testCardFor(a.sent1).gan,
      rewardValue: 300,
      rewardTier: 'Silver',
      isSquareGiftCard: false,
      emailStatus: 'sent',
    });
    expect(body.issuances.find((i) => i.customerEmail === 'alpha-mailfail@example.com')!.emailStatus).toBe('failed');

    expect(body.failed).toHaveLength(2);
    expect(body.failed.find((f) => f.stage === 'issue')).toMatchObject({
      customerEmail: 'alpha-cardfail@example.com',
      rewardValue: 300,
      reason: 'Square had a problem on its side.',
      lastError: expect.stringContaining('503 SERVICE_UNAVAILABLE'),
      failedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(body.failed.find((f) => f.stage === 'email')).toMatchObject({
      customerEmail: 'alpha-mailfail@example.com',
      giftCardNumber: testCardFor(a.mailFailed).gan,
      reason: "The mail server refused the email. Check the customer's email address.",
    });

    expect(body.pending.map((p) => [p.stage, p.customerEmail])).toEqual([
      ['email', 'alpha-emailing@example.com'],
      ['issue', 'alpha-waiting@example.com'],
    ]);
    expect(body.pending.every((p) => p.reason === null)).toBe(true);
  });

  it("never shows another owner's cards, failures or rewards on their way", async () => {
    const [alpha, beta] = await Promise.all([page(a.shop.owner.jar), page(b.shop.owner.jar)]);
    const alphaText = JSON.stringify(alpha.body);
    const betaText = JSON.stringify(beta.body);
    expect(alphaText).toContain('alpha-');
    expect(alphaText).not.toContain('beta-');
    expect(betaText).toContain('beta-');
    expect(betaText).not.toContain('alpha-');
    for (const id of [b.sent1, b.sent2, b.mailFailed, b.cardFailed, b.waiting, b.emailing]) {
      expect(alphaText).not.toContain(id);
      expect(alphaText).not.toContain(testCardFor(id).gan);
    }
    expect((beta.body as Page).totals.cards).toBe(4);

    const stranger = await signedInOwner(app, 'Nobody Yet');
    const empty = await page(stranger.jar);
    expect(empty.body).toEqual({ totals: { cards: 0, cents: 0, squareCards: 0, squareCents: 0, testCards: 0, testCents: 0 }, issuances: [], failed: [], pending: [], held: [], rejected: [], confirm: null });
  });

  it("Try Again queues only the owner's failed rewards, answers with a toast, and they show as in progress", async () => {
    const stranger = await signedInOwner(app, 'Idle Hands');
    const none = await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'retry-failed' }, stranger.jar), context: app.context(), params: {} }));
    expect(none.status).toBe(302);
    expect(none.headers.get('Location')).toBe('/rewards');
    expect(await toastOf(none.headers)).toMatchObject({ title: 'Nothing to retry', type: 'info' });

    const bad = await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'nope' }, a.shop.owner.jar), context: app.context(), params: {} }));
    expect(bad.status).toBe(400);

    const res = await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'retry-failed' }, a.shop.owner.jar), context: app.context(), params: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/rewards');
    expect(await toastOf(res.headers)).toMatchObject({ title: 'Trying 2 rewards again', type: 'success' });
    const after = (await page(a.shop.owner.jar)).body as Page;
    expect(after.failed).toEqual([]);
    expect(after.pending.map((p) => p.customerEmail).sort()).toEqual([
      'alpha-cardfail@example.com',
      'alpha-emailing@example.com',
      'alpha-mailfail@example.com',
      'alpha-waiting@example.com',
    ]);
    // A retry in progress says what went wrong last time.
    expect(after.pending.find((p) => p.customerEmail === 'alpha-cardfail@example.com')!.reason).toBe('Square had a problem on its side.');
    // The other owner's failures are left alone.
    expect(((await page(b.shop.owner.jar)).body as Page).failed).toHaveLength(2);
    // One more reward-issue job for the owner's failed card (the first came with the submission); none for the other owner's.
    const jobsFor = async (responseId: string) =>
      (await query<{ n: number }>(app, `select count(*)::int as n from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId]))[0]!.n;
    expect(await jobsFor(a.cardFailed)).toBe(2);
    expect(await jobsFor(b.cardFailed)).toBe(1);
  });
});
