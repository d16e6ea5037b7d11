import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/program.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { query, rewardingBusiness, SILVER_ANSWERS } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let env: Record<string, string>;
let shop: Awaited<ReturnType<typeof rewardingBusiness>>;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
  env = cliEnv(app, { SCREENSHOT_VERIFIER: 'fake' });
  shop = await rewardingBusiness(app, 'Paper Survey Cafe');
});
afterAll(async () => {
  await app?.close();
});

function answersFile(name: string, answers: unknown): string {
  const file = path.join(app.dataDir, name);
  writeFileSync(file, typeof answers === 'string' ? answers : JSON.stringify(answers));
  return file;
}

describe('reward-cli responses submit: the same submission as the survey page and the JSON API', () => {
  it('stores and scores the answers and queues the reward; the repeat window refuses a second one', async () => {
    const file = answersFile('silver.json', SILVER_ANSWERS);
    const args = ['responses', 'submit', shop.businessId, shop.surveyId, '--answers', file, '--email', 'Paper@Example.com', '--name', 'Pat'];
    const first = await runCli(env, args);
    expect(first, first.err).toMatchObject({ code: EXIT.ok, err: '' });
    const id = /Stored response ([0-9a-f-]{36}): 12 points, Silver\. A reward-issue job was queued/.exec(first.out)?.[1];
    expect(id, first.out).toBeDefined();
    const [row] = await query<{ total_points: number; reward_tier: string; customer_email: string; ip_address: string }>(
      app,
      `select total_points, reward_tier, customer_email, ip_address from survey_responses where id = ?`,
      [id],
    );
    expect(row).toEqual({ total_points: 12, reward_tier: 'Silver', customer_email: 'paper@example.com', ip_address: 'cli' });

    const again = await runCli(env, args);
    expect(again.code).toBe(EXIT.failure);
    expect(again.err).toMatch(/^error: Cannot Submit Survey: /);
  });

  it("refuses what the survey page refuses, in the spec's words, and stores nothing", async () => {
    const unknown = await runCli(env, ['responses', 'submit', shop.businessId, shop.surveyId, '--answers', answersFile('bad.json', { ...SILVER_ANSWERS, shoe_size: 9 })]);
    expect(unknown).toMatchObject({ code: EXIT.failure, err: 'error: Submission Failed: Unknown question: shoe_size\n' });
    const noEmail = await runCli(env, ['responses', 'submit', shop.businessId, shop.surveyId, '--answers', answersFile('no-email.json', SILVER_ANSWERS)]);
    expect(noEmail).toMatchObject({ code: EXIT.failure, err: 'error: Email Required for Reward: Please provide your email address to receive your gift card reward.\n' });
    const [count] = await query<{ n: number }>(app, `select count(*)::int as n from survey_responses where survey_config_id = ?`, [shop.surveyId]);
    expect(count!.n).toBe(1);
  });

  it('is a usage error for answers that are not a JSON object, and a failure for a survey that is not there', async () => {
    expect(await runCli(env, ['responses', 'submit', shop.businessId, shop.surveyId, '--answers', answersFile('list.json', '[1, 2]')])).toMatchObject({ code: EXIT.usage });
    expect(await runCli(env, ['responses', 'submit', shop.businessId, 'nope', '--answers', answersFile('ok.json', SILVER_ANSWERS)])).toMatchObject({ code: EXIT.usage });
    const missing = await runCli(env, ['responses', 'submit', shop.businessId, '3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b', '--answers', answersFile('ok2.json', SILVER_ANSWERS)]);
    expect(missing).toMatchObject({ code: EXIT.failure, err: 'error: Survey Not Found: This survey is not available.\n' });
  });
});
