import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBossJobQueue } from '../../adapters/jobs/PgBossJobQueue.ts';
import { createLogger } from '../../modules/shared/logger.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let queue: PgBossJobQueue;

beforeAll(async () => {
  app = await createTestApp();
  queue = await PgBossJobQueue.start({ connectionString: app.root.db.url, logger: createLogger({ level: 'silent' }) });
});
afterAll(async () => {
  await queue?.stop();
  await app?.close();
});

async function jobs(key: string) {
  const rows = await app.root.db.orm.em.fork().getConnection().execute(`select data from pgboss.job where name = 'reward-issue' and data->>'key' = ?`, [key]);
  return rows.length;
}

describe('PgBossJobQueue', () => {
  it('writes a job inside the caller’s transaction: committed with it, rolled back with it', async () => {
    const em = app.root.db.orm.em.fork();
    await em.transactional(async (tx) => {
      expect(await queue.send('reward-issue', { key: 'committed' }, { em: tx })).toEqual(expect.any(String));
    });
    await expect(
      em.transactional(async (tx) => {
        await queue.send('reward-issue', { key: 'rolled-back' }, { em: tx });
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(await jobs('committed')).toBe(1);
    expect(await jobs('rolled-back')).toBe(0);
  });

  it('queues the same keyed work once, however often it is sent', async () => {
    const first = await queue.send('reward-issue', { key: 'single' }, { key: 'response-1' });
    const second = await queue.send('reward-issue', { key: 'single' }, { key: 'response-1' });
    expect(first).toEqual(expect.any(String));
    expect(second).toBeNull();
    expect(await jobs('single')).toBe(1);
    expect(await queue.send('reward-issue', { key: 'single' }, { key: 'response-2' })).toEqual(expect.any(String));
  });

  it('refuses an EntityManager that is not in a transaction', async () => {
    await expect(queue.send('reward-issue', { key: 'x' }, { em: app.root.db.orm.em.fork() })).rejects.toThrow(/inside em.transactional/);
  });

  it('runs a worker on sent jobs', async () => {
    const seen: string[] = [];
    await queue.work<{ key: string }>('reward-email', async (job) => {
      seen.push(job.data.key);
    });
    await queue.send('reward-email', { key: 'hello' });
    await expect.poll(() => seen, { timeout: 15_000, interval: 200 }).toContain('hello');
  });

  it('runs a batch at once, fails only the job that threw, and retries it with its attempt count and limit', async () => {
    const batchQueue = await PgBossJobQueue.start({
      connectionString: app.root.db.url,
      logger: createLogger({ level: 'silent' }),
      policies: { 'screenshot-verify': { retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false } },
    });
    try {
      const attempts: Array<{ key: string; retryCount: number; retryLimit: number }> = [];
      await batchQueue.work<{ key: string }>(
        'screenshot-verify',
        async (job) => {
          attempts.push({ key: job.data.key, retryCount: job.retryCount, retryLimit: job.retryLimit });
          if (job.data.key === 'bad' && job.retryCount < 1) throw new Error('first attempt fails');
        },
        { batchSize: 5, pollingIntervalSeconds: 0.5 },
      );
      for (const key of ['a', 'bad', 'b']) await batchQueue.send('screenshot-verify', { key });
      await expect.poll(() => attempts.filter((a) => a.key === 'bad').length, { timeout: 15_000, interval: 100 }).toBe(2);
      expect(attempts.filter((a) => a.key === 'a')).toEqual([{ key: 'a', retryCount: 0, retryLimit: 2 }]);
      expect(attempts.filter((a) => a.key === 'b')).toHaveLength(1);
      expect(attempts.filter((a) => a.key === 'bad')).toEqual([
        { key: 'bad', retryCount: 0, retryLimit: 2 },
        { key: 'bad', retryCount: 1, retryLimit: 2 },
      ]);
    } finally {
      await batchQueue.stop();
    }
  });
});
