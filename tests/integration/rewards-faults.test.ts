import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SquareGiftCards } from '../../adapters/giftcards/SquareGiftCards.ts';
import { SmtpMailer } from '../../adapters/mailer/SmtpMailer.ts';
import { RewardEmailBusyError, sendRewardEmail } from '../../modules/rewards/email.ts';
import { issueReward } from '../../modules/rewards/issue.ts';
import { listFailures } from '../../modules/rewards/queries.ts';
import { rewardDeps, startRewardWorkers } from '../../server/composition.ts';
import { createSquareGiftCardsMock, type SquareEndpoint, type SquareFault } from '../mocks/square-gift-cards.ts';
import { readOutbox } from '../setup/outbox.ts';
import { startRefusingSmtp } from '../setup/smtp.ts';
import { FAST_RETRIES, query, rewardingBusiness, waitForEmailed } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

/**
 * Exactly once under faults (issue 5, ADR 018): whatever Square and the mail server do, every
 * eligible response ends with one card at Square, activated once with its amount, one issuance row
 * and one email. Faults: 500, 429, timeouts before and after Square did the work, dropped
 * connections (also right after the card was created: the worker "killed" between create and
 * activate, before it could save the card), and an SMTP server refusing messages.
 */

const square = createSquareGiftCardsMock({ lateAnswerMs: 600 });
const server = setupServer(...square.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const SQUARE_ENV = { POS: 'square', SQUARE_APPLICATION_ID: 'sq0idp-test', SQUARE_APPLICATION_SECRET: 'sq0csp-test', GIFT_CARDS: 'square' };
const squareGiftCards = () => new SquareGiftCards({ environment: 'sandbox', timeoutMs: 250 });

/** mulberry32: the same seed gives the same faults (SEED=... to replay a failing run). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.SEED ?? Date.now() % 1_000_000);
const random = rng(SEED);
const pick = <T,>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
const FAULTS: readonly SquareFault[] = ['500', '429', 'timeout', 'network', 'after-500', 'after-timeout', 'after-network'];
const ENDPOINTS: readonly SquareEndpoint[] = ['create', 'create', 'activate', 'activate', 'get'];

function injectRandomFaults(count: number) {
  for (let i = 0; i < count; i += 1) square.inject(pick(ENDPOINTS), pick(FAULTS));
}

/** Square's side and ours agree: one card per response, ACTIVE with the amount, activated once. */
async function expectExactlyOnce(app: TestApp, responseIds: string[], amount: number) {
  const rows = await query<{ survey_response_id: string; gift_card_id: string; gift_card_number: string; is_square_gift_card: boolean }>(
    app,
    `select survey_response_id, gift_card_id, gift_card_number, is_square_gift_card from gift_card_issuances where survey_response_id in (${responseIds.map(() => '?').join(',')})`,
    responseIds,
  );
  expect(rows, `seed ${SEED}`).toHaveLength(responseIds.length);
  const ours = new Set(rows.map((r) => r.gift_card_id));
  expect(ours.size).toBe(responseIds.length);
  const atSquare = [...square.cards.values()].filter((c) => ours.has(c.id));
  expect(atSquare, `seed ${SEED}`).toHaveLength(responseIds.length);
  for (const row of rows) {
    const card = square.cards.get(row.gift_card_id)!;
    expect(card, `seed ${SEED}`).toMatchObject({ state: 'ACTIVE', balance: amount, gan: row.gift_card_number, locationId: 'TEST-LOCATION' });
    expect(row.is_square_gift_card).toBe(true);
    expect(square.activations.filter((a) => a.giftCardId === card.id), `seed ${SEED}`).toHaveLength(1);
  }
  // Square holds no other card (each test resets the mock first): no retry ever created a second one.
  expect(square.cards.size, `seed ${SEED}`).toBe(responseIds.length);
}


describe('exactly once through the queue: Square faults and a refusing mail server', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;

  beforeAll(async () => {
    smtp = await startRefusingSmtp({ code: 421, message: 'Service not available, try later' });
    app = await createTestApp(
      { ...SQUARE_ENV, SMTP_URL: `smtp://127.0.0.1:${smtp.port}?starttls=false` },
      // Faults are consumed first come, first served, so one reward may meet most of them: a retry
      // budget above the number of faults keeps "failed after the last retry" out of this test.
      {
        jobs: true,
        jobPolicies: { 'reward-issue': { ...FAST_RETRIES['reward-issue'], retryLimit: 40 }, 'reward-email': { ...FAST_RETRIES['reward-email'], retryLimit: 20 } },
        giftCards: { square: squareGiftCards() },
      },
    );
    await startRewardWorkers(app.root, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it(`12 customers, 30 Square faults, 8 refused messages: 12 cards, 12 activations, 12 emails (seed ${SEED})`, { timeout: 180_000 }, async () => {
    const shop = await rewardingBusiness(app, 'Chaos Coffee', { square: true });
    square.reset();
    injectRandomFaults(30);
    smtp.state.refuse = 8;
    const responseIds: string[] = [];
    for (let i = 0; i < 12; i += 1) responseIds.push(await shop.submit(`chaos-${i}@example.com`, `Customer ${i}`));
    try {
      await waitForEmailed(app, responseIds, 150_000);
    } catch (e) {
      // What was left, to read next to the seed.
      console.log(JSON.stringify(await query(app, `select survey_response_id, provider, gift_card_id, attempts, last_error, failed_at from gift_card_requests`), null, 1));
      console.log(JSON.stringify(await query(app, `select id, survey_response_id, emailed_at, email_attempts, email_last_error, email_failed_at, email_claimed_until from gift_card_issuances`), null, 1));
      console.log(JSON.stringify(await query(app, `select name, state, retry_count, retry_limit, output, data, start_after from pgboss.job where name like 'reward%' and state <> 'completed'`), null, 1));
      console.log(JSON.stringify(square.faults), smtp.state);
      throw e;
    }
    await expectExactlyOnce(app, responseIds, 300);

    const issuances = await query<{ id: string; customer_email: string; gift_card_number: string }>(
      app,
      `select id, customer_email, gift_card_number from gift_card_issuances where survey_response_id in (${responseIds.map(() => '?').join(',')})`,
      responseIds,
    );
    // Let any straggling duplicate job run before counting the emails.
    await new Promise((r) => setTimeout(r, 2000));
    for (const issuance of issuances) {
      const mails = smtp.received.filter((m) => m.messageId === `<reward-${issuance.id}@localhost>`);
      expect(mails, `seed ${SEED}`).toHaveLength(1);
      expect(mails[0]!.text).toContain(issuance.gift_card_number);
      expect(mails[0]!.subject).toBe('Your $3.00 gift card from Chaos Coffee');
    }
    // (The owner's sign-up verification email went through the same server.)
    expect(smtp.received.filter((m) => m.messageId?.startsWith('<reward-'))).toHaveLength(12);
    expect(smtp.state.refused).toBe(8);
    expect(await listFailures(app.root.db.orm.em.fork())).toEqual([]);
    // The Square cards were made at the chosen location and are now in the owner's list as Square cards.
    const [row] = await query<{ n: number }>(app, `select count(*)::int as n from survey_responses where id in (${responseIds.map(() => '?').join(',')}) and is_square_gift_card and gift_card_number is not null`, responseIds);
    expect(row!.n).toBe(12);
  });
});

describe('exactly once over many runs: chaotic runners, concurrent duplicates, crashes between create and activate', () => {
  let app: TestApp;
  let shop: Awaited<ReturnType<typeof rewardingBusiness>>;

  beforeAll(async () => {
    // No workers: the test is the worker, and runs each job as often and as concurrently as it likes.
    app = await createTestApp(SQUARE_ENV, { jobs: true, giftCards: { square: squareGiftCards() } });
    shop = await rewardingBusiness(app, 'Many Runs Bakery', { square: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it(`80 rewards, each run until done with random faults and 1-2 runners at once (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const RUNS = 80;
    const [survey] = await query<{ id: string }>(app, `select id from survey_configs where business_id = ?`, [shop.businessId]);
    const responseIds: string[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const [row] = await query<{ id: string }>(
        app,
        `insert into survey_responses (business_id, survey_config_id, customer_email, customer_name, responses, total_points, reward_tier, reward_value)
         values (?, ?, ?, ?, '{}', 20, 'Gold', 800) returning id`,
        [shop.businessId, survey!.id, `run-${i}@example.com`, `Run ${i}`],
      );
      responseIds.push(row!.id);
    }
    square.reset();
    const deps = rewardDeps(app.root);
    const errors: string[] = [];
    let attempts = 0;
    for (const responseId of responseIds) {
      injectRandomFaults(Math.floor(random() * 4));
      let done = false;
      for (let round = 0; round < 30 && !done; round += 1) {
        const runners = random() < 0.3 ? 2 : 1;
        attempts += runners;
        const results = await Promise.allSettled(Array.from({ length: runners }, () => issueReward(deps, responseId)));
        for (const r of results) if (r.status === 'rejected') errors.push(String((r.reason as Error).message));
        done = results.some((r) => r.status === 'fulfilled');
      }
      expect(done, `seed ${SEED}: ${errors.slice(-3).join(' | ')}`).toBe(true);
    }
    expect(attempts).toBeGreaterThan(RUNS);
    await expectExactlyOnce(app, responseIds, 800);

    // Emails: two senders at once sometimes; one of them backs off, and each issuance is sent once.
    const issuances = await query<{ id: string }>(app, `select id from gift_card_issuances where survey_response_id in (${responseIds.map(() => '?').join(',')})`, responseIds);
    for (const { id } of issuances) {
      for (let round = 0; round < 10; round += 1) {
        const results = await Promise.allSettled(Array.from({ length: random() < 0.3 ? 2 : 1 }, () => sendRewardEmail({ ...deps, leaseSeconds: 30 }, id)));
        for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof RewardEmailBusyError)) throw r.reason;
        if (results.some((r) => r.status === 'fulfilled' && r.value.status !== 'not-found')) break;
      }
      expect((await sendRewardEmail(deps, id)).status).toBe('already-sent');
    }
    const mails = await readOutbox(app.root);
    for (let i = 0; i < RUNS; i += 1) expect(mails.filter((m) => m.to === `run-${i}@example.com`), `seed ${SEED}`).toHaveLength(1);
  });
});

describe('the reward email lease', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({}, { jobs: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is renewed while a slow send runs, so no second sender starts, and frees the email soon after a sender dies', { timeout: 30_000 }, async () => {
    const shop = await rewardingBusiness(app, 'Slow Mail Cafe');
    const [response] = await query<{ id: string }>(
      app,
      `insert into survey_responses (business_id, survey_config_id, customer_email, responses, total_points, reward_tier, reward_value)
       values (?, ?, 'lease@example.com', '{}', 20, 'Gold', 800) returning id`,
      [shop.businessId, shop.surveyId],
    );
    const [issuance] = await query<{ id: string }>(
      app,
      `insert into gift_card_issuances (business_id, survey_response_id, customer_email, gift_card_number, reward_value, reward_tier)
       values (?, ?, 'lease@example.com', '7783 0000 0000 0001', 800, 'Gold') returning id`,
      [shop.businessId, response!.id],
    );
    const sent: string[] = [];
    // One resolver per send begun, so a second send that should not have started fails an
    // assertion instead of taking the first one's place and hanging it.
    const pending: Array<() => void> = [];
    const release = () => pending.shift()?.();
    const slowMailer = {
      id: 'outbox' as const,
      send: (message: { to: string }) =>
        new Promise<void>((resolve) => {
          pending.push(() => {
            sent.push(message.to);
            resolve();
          });
        }),
    };
    // A 2 s lease renewed every 2/3 s: a loaded machine may delay one renewal, not three.
    const deps = { ...rewardDeps(app.root), mailer: slowMailer, leaseSeconds: 2 };
    const first = sendRewardEmail(deps, issuance!.id);
    // Two and a half leases later the first send still runs: its lease was renewed, the second sender backs off.
    await new Promise((r) => setTimeout(r, 5_000));
    await expect(sendRewardEmail(deps, issuance!.id)).rejects.toBeInstanceOf(RewardEmailBusyError);
    expect(pending).toHaveLength(1);
    release();
    expect(await first).toMatchObject({ status: 'sent' });
    expect(sent).toEqual(['lease@example.com']);

    // A sender that died mid-send (its lease left behind, nothing renews it): free again within the lease.
    await query(app, `update gift_card_issuances set emailed_at = null, email_claimed_until = now() + interval '2 seconds' where id = ?`, [issuance!.id]);
    await expect(sendRewardEmail(deps, issuance!.id)).rejects.toBeInstanceOf(RewardEmailBusyError);
    await new Promise((r) => setTimeout(r, 2_200));
    const again = sendRewardEmail(deps, issuance!.id);
    await expect.poll(() => pending.length).toBe(1);
    release();
    expect(await again).toMatchObject({ status: 'sent' });
  });

  it('survives a mail server that stops answering: the send times out, and the email goes out once when it answers again', { timeout: 30_000 }, async () => {
    const smtp = await startRefusingSmtp();
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${smtp.port}?starttls=false`, from: 'RewardLoop <no-reply@rewardloop.test>', connectionTimeoutMs: 400 });
    try {
      const shop = await rewardingBusiness(app, 'Quiet Mail Cafe');
      const [response] = await query<{ id: string }>(
        app,
        `insert into survey_responses (business_id, survey_config_id, customer_email, responses, total_points, reward_tier, reward_value)
         values (?, ?, 'quiet@example.com', '{}', 20, 'Gold', 800) returning id`,
        [shop.businessId, shop.surveyId],
      );
      const [issuance] = await query<{ id: string }>(
        app,
        `insert into gift_card_issuances (business_id, survey_response_id, customer_email, gift_card_number, reward_value, reward_tier)
         values (?, ?, 'quiet@example.com', '7783 0000 0000 0002', 800, 'Gold') returning id`,
        [shop.businessId, response!.id],
      );
      const deps = { ...rewardDeps(app.root), mailer };
      smtp.state.hang = 2;
      await expect(sendRewardEmail(deps, issuance!.id)).rejects.toThrow(/Greeting never received/);
      // The failed send let go of its lease at once: the next try does not wait for it.
      await expect(sendRewardEmail(deps, issuance!.id)).rejects.toThrow(/Greeting never received/);
      expect(smtp.state.hung).toBe(2);
      expect(await sendRewardEmail(deps, issuance!.id)).toMatchObject({ status: 'sent' });
      expect(await sendRewardEmail(deps, issuance!.id)).toMatchObject({ status: 'already-sent' });
      expect(smtp.received.filter((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text.includes('quiet@example.com'))).toHaveLength(1);
      const [row] = await query<{ email_attempts: number; email_last_error: string | null }>(app, 'select email_attempts, email_last_error from gift_card_issuances where id = ?', [issuance!.id]);
      expect(row).toMatchObject({ email_attempts: 3, email_last_error: null });
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });
});
