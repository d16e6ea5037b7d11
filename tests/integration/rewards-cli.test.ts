import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../cli/program.ts';
import { testCardFor } from '../../adapters/giftcards/TestGiftCards.ts';
import { recordIssueFailure } from '../../modules/rewards/issue.ts';
import { action as putConfig } from '#app/routes/api+/survey.config.$id.ts';
import { getTemplate, templateQuestionList } from '../../modules/surveys/index.ts';
import { connectSquareForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { jsonRequest, run } from '../setup/http.ts';
import { readOutbox } from '../setup/outbox.ts';
import { issuanceOf, query, rewardingBusiness, SILVER_ANSWERS } from '../setup/rewards.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let env: Record<string, string>;
let shop: Awaited<ReturnType<typeof rewardingBusiness>>;

beforeAll(async () => {
  // Jobs on (the submission queues reward-issue), no workers: the CLI does the work here.
  app = await createTestApp({}, { jobs: true });
  env = cliEnv(app, { SCREENSHOT_VERIFIER: 'fake' });
  shop = await rewardingBusiness(app, 'Crumb & Co Bakery');
});
afterAll(async () => {
  await app?.close();
});

const cli = (args: string[], io: Partial<CliIo> = {}) => runCli(env, args, io);

const NO_SUCH = '3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b';

describe('reward-cli rewards issue', () => {
  it('issues the card and sends the email; a second run says it was already issued and exits 0', async () => {
    const responseId = await shop.submit('cli-ana@example.com', 'Ana');
    const first = await cli(['rewards', 'issue', responseId]);
    expect(first, first.err).toMatchObject({ code: EXIT.ok, err: '' });
    const gan = testCardFor(responseId).gan;
    expect(first.out).toContain(`Issued $3.00 Silver Test card ${gan} for cli-ana@example.com.`);
    expect(first.out).toContain('Emailed cli-ana@example.com (kept in');
    expect((await issuanceOf(app, responseId))!.emailed_at).not.toBeNull();

    const second = await cli(['rewards', 'issue', responseId]);
    expect(second.code).toBe(EXIT.ok);
    expect(second.out).toContain(`Already issued: $3.00 Silver Test card ${gan} for cli-ana@example.com`);
    expect(second.out).toContain('Email already sent on');
    expect((await readOutbox(app.root)).filter((m) => m.to === 'cli-ana@example.com')).toHaveLength(1);
    const [count] = await query<{ n: number }>(app, `select count(*)::int as n from gift_card_issuances where survey_response_id = ?`, [responseId]);
    expect(count!.n).toBe(1);
  });

  it('asks for the response id on a terminal', async () => {
    const responseId = await shop.submit('cli-prompted@example.com', 'Prompted');
    const asked: string[] = [];
    const res = await cli(['rewards', 'issue'], {
      interactive: true,
      prompts: {
        input: async ({ message, validate }) => {
          asked.push(message);
          expect(validate?.('nope')).not.toBe(true);
          return responseId;
        },
        password: async () => '',
      },
    });
    expect(res.code).toBe(EXIT.ok);
    expect(asked).toEqual(['Survey response id']);
    expect(res.out).toContain('Issued $3.00 Silver');
  });

  it.each([
    [[], EXIT.usage, 'Missing <responseId>'],
    [['not-an-id'], EXIT.usage, 'responseId must be an id'],
    [[NO_SUCH], EXIT.failure, `No survey response ${NO_SUCH}`],
  ])('%j exits %i', async (args, code, message) => {
    const res = await cli(['rewards', 'issue', ...args]);
    expect(res.code).toBe(code);
    expect(res.err).toContain(message);
  });

  it('refuses a response that earned no reward, with exit code 1', async () => {
    const responseId = await shop.submit('cli-low@example.com', 'Low', { overall_rating: 2 });
    const res = await cli(['rewards', 'issue', responseId]);
    expect(res.code).toBe(EXIT.failure);
    expect(res.err).toContain('earns no reward (no reward tier was earned)');
  });
});

describe('reward-cli rewards issue, and the plan', () => {
  it('counts a card support issues toward the owner\'s usage emails, as the worker would (issue 28 item 1)', async () => {
    const usage = await rewardingBusiness(app, 'Usage by Support Cafe');
    // 23 cards already issued this month of the trial's 30 (Starter): the next one is the 24th, 80%.
    await query(
      app,
      `with r as (
         insert into survey_responses (business_id, survey_config_id, responses, reward_tier, reward_value, customer_email)
         select ?, ?, '{}'::jsonb, 'Silver', 300, 'support-earlier-' || g || '@example.com' from generate_series(1, 23) g
         returning id, customer_email)
       insert into gift_card_issuances (business_id, survey_response_id, customer_email, gift_card_number, reward_value, reward_tier, issued_at, emailed_at)
       select ?, r.id, r.customer_email, 'TEST' || substr(md5(r.id::text), 1, 12), 300, 'Silver', now(), now() from r`,
      [usage.businessId, usage.surveyId, usage.businessId],
    );
    const ownerMail = async () => (await readOutbox(app.root)).filter((m) => m.to === usage.owner.email && m.subject.startsWith('You have'));
    expect(await ownerMail()).toHaveLength(0);
    const responseId = await usage.submit('support-24th@example.com', 'Noor');
    const res = await cli(['rewards', 'issue', responseId]);
    expect(res, res.err).toMatchObject({ code: EXIT.ok });
    expect((await ownerMail()).map((m) => m.subject)).toEqual(['You have used 80% of your RewardLoop rewards']);
  });
});

describe('reward-cli rewards list, failed, retry-failed', () => {
  let failedResponse: string;

  beforeAll(async () => {
    failedResponse = await shop.submit('cli-failed@example.com', 'Failing');
    await recordIssueFailure(app.root.db.orm.em, failedResponse, new Error('Square answered 500 INTERNAL_SERVER_ERROR to create a gift card'), true);
  });

  it('lists issued cards, for every business or one; --json for scripts', async () => {
    const responseId = await shop.submit('cli-listed@example.com', 'Listed');
    expect((await cli(['rewards', 'issue', responseId])).code).toBe(EXIT.ok);
    const all = await cli(['rewards', 'list']);
    expect(all.code).toBe(EXIT.ok);
    expect(all.out).toMatch(/^ISSUED\s+BUSINESS\s+CUSTOMER\s+CARD\s+TYPE\s+REWARD\s+EMAIL/);
    expect(all.out).toContain(testCardFor(responseId).gan);
    expect(all.out).toContain('Crumb & Co Bakery');
    const mine = await cli(['rewards', 'list', '--business', shop.businessId, '--json']);
    const items = JSON.parse(mine.out) as Array<{ customerEmail: string; isSquareGiftCard: boolean; emailStatus: string }>;
    expect(items.find((i) => i.customerEmail === 'cli-listed@example.com')).toMatchObject({ isSquareGiftCard: false, emailStatus: 'sent' });
    const other = await signedInOwner(app, 'Nobody Rewarded');
    expect((await cli(['rewards', 'list', '--business', other.id])).out).toBe('No gift cards issued yet.\n');
    expect((await cli(['rewards', 'list', '--business', 'x'])).code).toBe(EXIT.usage);
    expect((await cli(['rewards', 'list', '--limit', '0'])).code).toBe(EXIT.usage);
  });

  it('rewards failed and rewards list --failed show the failed reward with its last error', async () => {
    for (const args of [['rewards', 'failed'], ['rewards', 'list', '--failed']]) {
      const res = await cli(args);
      expect(res.code).toBe(EXIT.ok);
      expect(res.out).toContain(failedResponse);
      expect(res.out).toContain('cli-failed@example.com');
      expect(res.out).toContain('Square answered 500 INTERNAL_SERVER_ERROR');
      expect(res.out).toContain('1 failed reward(s)');
    }
    const json = JSON.parse((await cli(['rewards', 'failed', '--json'])).out) as Array<Record<string, unknown>>;
    expect(json).toEqual([expect.objectContaining({ stage: 'issue', surveyResponseId: failedResponse, rewardValue: 300, attempts: 1 })]);
  });

  it('retry-failed queues them again once, and clears the failed mark', async () => {
    const res = await cli(['rewards', 'retry-failed']);
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).toContain(`card   ${failedResponse}  cli-failed@example.com`);
    expect(res.out).toContain('Queued 1 failed reward(s) again');
    const jobs = await query(app, `select id from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [failedResponse]);
    expect(jobs).toHaveLength(2); // the submission's, and the retry's
    expect((await cli(['rewards', 'failed'])).out).toBe('No failed rewards.\n');
    expect((await cli(['rewards', 'retry-failed'])).out).toBe('No failed rewards.\n');
  });
});

describe('reward-cli square status', () => {
  it('shows the connection, merchant, location and expiry, and never a token', async () => {
    const owner = await signedInOwner(app, 'Square Status Cafe');
    await connectSquareForTest(app, owner.id, 'sq0atp-VERY-SECRET-ACCESS-TOKEN');
    const [stored] = await query<{ square_access_token: string }>(app, `select square_access_token from businesses where id = ?`, [owner.id]);
    const res = await cli(['square', 'status', owner.id]);
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).toContain('Square:         connected');
    expect(res.out).toContain('Merchant:       TEST-MERCHANT');
    expect(res.out).toContain('Location:       Main Street (TEST-LOCATION)');
    expect(res.out).toContain('Token expires:  not recorded');
    expect(res.out + res.err).not.toContain('VERY-SECRET');
    expect(res.out + res.err).not.toContain(stored!.square_access_token);

    const plain = await cli(['square', 'status', (await signedInOwner(app, 'No Square Cafe')).id]);
    expect(plain.out).toContain('Square:         not connected');
    expect(plain.out).toContain('Gift cards:     Test (GIFT_CARDS=test)');
    expect((await cli(['square', 'status', NO_SUCH])).code).toBe(EXIT.failure);
    expect((await cli(['square', 'status'])).code).toBe(EXIT.usage);
  });
});

describe('reward-cli verifications replay', () => {
  const LINK = 'https://maps.app.goo.gl/x7Qm2aVbC9dEf';
  let png = 0;
  /** A Gold response: parts 1 and 2 (12) and a verified Google review (8). */
  async function reviewedResponse(email: string) {
    png += 1;
    const image = await sharp({ create: { width: 80 + png, height: 60, channels: 3, background: { r: png * 40, g: 90, b: 160 } } }).png().toBuffer();
    const verified = await app.context().verifications.verify({
      businessId: shop.businessId,
      surveyId: shop.surveyId,
      bypassSquare: true,
      kind: 'review',
      platform: 'google',
      image,
      reviewerName: 'Ana Pereira',
      reviewLink: LINK,
    });
    if (!verified.ok || !verified.isValid) throw new Error(JSON.stringify(verified));
    const responseId = await shop.submit(email, 'Ana Pereira', {
      ...SILVER_ANSWERS,
      review_google_screenshot: verified.id,
      review_google_reviewer_name: 'Ana Pereira',
      review_google_review_link: LINK,
    });
    return { responseId, verificationId: verified.id };
  }

  it('re-runs the checks on the stored image and re-scores; nothing changes without --apply', async () => {
    const { responseId, verificationId } = await reviewedResponse('replay@example.com');
    const same = await cli(['verifications', 'replay', responseId]);
    expect(same, same.err).toMatchObject({ code: EXIT.ok });
    expect(same.out).toMatch(new RegExp(`${verificationId}\\s+review\\s+google\\s+valid\\s+valid`));
    expect(same.out).toContain('Old: 20 points, Gold ($8.00)\nNew: 20 points, Gold ($8.00)\nNo change.');

    // The checks became stricter: the fake verifier now rejects this reviewer.
    await query(app, `update screenshot_verifications set reviewer_name = 'Reject' where id = ?`, [verificationId]);
    const stricter = await cli(['verifications', 'replay', responseId]);
    expect(stricter.code).toBe(EXIT.ok);
    expect(stricter.out).toMatch(/valid\s+rejected: not_a_review/);
    expect(stricter.out).toContain('Old: 20 points, Gold ($8.00)\nNew: 12 points, Silver ($3.00)');
    expect(stricter.out).toContain('Nothing was changed');
    const [unchanged] = await query(app, `select total_points, reward_tier from survey_responses where id = ?`, [responseId]);
    expect(unchanged).toEqual({ total_points: 20, reward_tier: 'Gold' });

    const applied = await cli(['verifications', 'replay', responseId, '--apply']);
    expect(applied.code).toBe(EXIT.ok);
    expect(applied.out).toContain('Applied. A reward-issue job was queued.');
    const [changed] = await query(app, `select total_points, reward_tier, reward_value from survey_responses where id = ?`, [responseId]);
    expect(changed).toEqual({ total_points: 12, reward_tier: 'Silver', reward_value: 300 });
    const [row] = await query(app, `select is_valid, rejection_code from screenshot_verifications where id = ?`, [verificationId]);
    expect(row).toEqual({ is_valid: false, rejection_code: 'not_a_review' });
  });

  it('--apply with a proof that now needs review (ADR 077) holds the reward for the owner instead of queueing it', async () => {
    const { responseId, verificationId } = await reviewedResponse('replay-review@example.com');
    const issueJobs = async () => (await query(app, `select id from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId])).length;
    const jobsBefore = await issueJobs();
    // The checks became unsure: the fake verifier sends this reviewer to the owner's review.
    await query(app, `update screenshot_verifications set reviewer_name = 'Review' where id = ?`, [verificationId]);
    const seen = await cli(['verifications', 'replay', responseId]);
    expect(seen.out).toMatch(/valid\s+needs review: unsure_handle/);
    const applied = await cli(['verifications', 'replay', responseId, '--apply']);
    expect(applied.code, applied.err).toBe(EXIT.ok);
    expect(applied.out).toContain("The reward is held for the owner's review");
    expect(applied.out).not.toContain('A reward-issue job was queued');
    expect(await issueJobs()).toBe(jobsBefore);
    const [hold] = await query<{ status: string; reasons: Array<{ code: string; verificationId: string }> }>(app, `select status, reasons from reward_holds where survey_response_id = ?`, [responseId]);
    expect(hold).toMatchObject({ status: 'held', reasons: [{ code: 'proof_needs_review', verificationId }] });
    const [row] = await query(app, `select is_valid, verdict, review_code from screenshot_verifications where id = ?`, [verificationId]);
    expect(row).toEqual({ is_valid: true, verdict: 'needs_review', review_code: 'unsure_handle' });
  });

  it('refuses --apply when a card was already issued and the reward would change (exit 1)', async () => {
    const { responseId, verificationId } = await reviewedResponse('replay-issued@example.com');
    expect((await cli(['rewards', 'issue', responseId])).code).toBe(EXIT.ok);
    await query(app, `update screenshot_verifications set reviewer_name = 'Reject' where id = ?`, [verificationId]);
    const res = await cli(['verifications', 'replay', responseId, '--apply']);
    expect(res.code).toBe(EXIT.failure);
    expect(res.err).toContain('A gift card was already issued for this response');
    const [kept] = await query(app, `select total_points, reward_tier from survey_responses where id = ?`, [responseId]);
    expect(kept).toEqual({ total_points: 20, reward_tier: 'Gold' });
  });

  it('exits 1 for an unknown response and 2 without one', async () => {
    expect((await cli(['verifications', 'replay', NO_SUCH])).code).toBe(EXIT.failure);
    expect((await cli(['verifications', 'replay'])).code).toBe(EXIT.usage);
  });
});

describe('reward-cli help', () => {
  it('lists the reward, verification and square commands', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(EXIT.ok);
    for (const command of ['rewards', 'verifications', 'square']) expect(res.out).toContain(command);
    const rewards = await cli(['rewards', '--help']);
    for (const command of ['list', 'failed', 'issue', 'retry-failed']) expect(rewards.out).toContain(command);
  });
});

describe('reward-cli verifications replay after the owner edits the questions', () => {
  it('re-scores with the questions the customer answered, not the edited list', async () => {
    const responseId = await shop.submit('replay-edited@example.com');
    const before = await cli(['verifications', 'replay', responseId]);
    expect(before.out).toContain('Old: 12 points, Silver ($3.00)\nNew: 12 points, Silver ($3.00)\nNo change.');
    // The owner takes out a question this customer answered for points.
    const edited = templateQuestionList(getTemplate('restaurant_cafe_bakery')!).map((q) => (q.id === 'atmosphere_rating' ? { ...q, removed: true } : q));
    const put = (customQuestions: unknown[]) =>
      run(() => putConfig({ request: jsonRequest(`/api/survey/config/${shop.surveyId}`, surveyBody({ customQuestions }), shop.owner.jar, 'PUT'), context: app.context(), params: { id: shop.surveyId } }));
    expect((await put(edited)).status).toBe(200);
    try {
      const after = await cli(['verifications', 'replay', responseId]);
      expect(after, after.err).toMatchObject({ code: EXIT.ok });
      expect(after.out).toContain('Old: 12 points, Silver ($3.00)\nNew: 12 points, Silver ($3.00)\nNo change.');
      // A response answered after the edit is scored, and replayed, without that question.
      const { atmosphere_rating: _gone, ...answers } = SILVER_ANSWERS;
      const later = await shop.submit('replay-after-edit@example.com', 'Ana', answers);
      const [row] = await query<{ total_points: number }>(app, `select total_points from survey_responses where id = ?`, [later]);
      expect(row!.total_points).toBeLessThan(12);
      expect((await cli(['verifications', 'replay', later])).out).toContain(`New: ${row!.total_points} points`);
    } finally {
      await put([]);
    }
  });
});
