import { spawn } from 'node:child_process';
import path from 'node:path';
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
      policies: { 'billing-sync': { retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false } },
    });
    try {
      const attempts: Array<{ key: string; retryCount: number; retryLimit: number }> = [];
      await batchQueue.work<{ key: string }>(
        'billing-sync',
        async (job) => {
          attempts.push({ key: job.data.key, retryCount: job.retryCount, retryLimit: job.retryLimit });
          if (job.data.key === 'bad' && job.retryCount < 1) throw new Error('first attempt fails');
        },
        { batchSize: 5, pollingIntervalSeconds: 0.5 },
      );
      for (const key of ['a', 'bad', 'b']) await batchQueue.send('billing-sync', { key });
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

  it('retries a reward job whose server crashed mid-job within 30 s of the crash, once (heartbeat; issue 9)', { timeout: 90_000 }, async () => {
    const worker = spawn(process.execPath, [path.resolve(import.meta.dirname, '../setup/crashing-worker.ts'), app.root.db.url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    worker.stdout.on('data', (chunk) => (out += String(chunk)));
    const restarted = await PgBossJobQueue.start({ connectionString: app.root.db.url, logger: createLogger({ level: 'silent' }), worker: true });
    try {
      await queue.send('reward-issue', { key: 'crash' });
      await expect.poll(() => out, { timeout: 30_000, interval: 100 }).toContain('claimed');
      worker.kill('SIGKILL');
      const crashedAt = Date.now();
      const runs: number[] = [];
      // The restarted server's worker (the crashed one's heartbeat stops; the supervisor fails the attempt and it is retried).
      const claimed = /claimed (\S+)/.exec(out)![1];
      await restarted.work<{ key: string }>('reward-issue', async (job) => {
        if (job.id === claimed) runs.push(Date.now() - crashedAt);
      }, { pollingIntervalSeconds: 0.5 });
      await expect.poll(() => runs.length, { timeout: 40_000, interval: 250 }).toBe(1);
      expect(runs[0], 'ms from the crash to the retry').toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 2000));
      expect(runs).toHaveLength(1);
    } finally {
      worker.kill('SIGKILL');
      await restarted.stop();
    }
  });
});
