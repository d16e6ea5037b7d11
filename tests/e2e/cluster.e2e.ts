import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';

// Issue 26, item 2: WEB_CONCURRENCY runs several web workers on one port (node:cluster), the embedded
// PostgreSQL started once by the primary; SIGTERM drains them all and the primary exits 0.

const TOKEN = 'cluster-metrics-token-0123456789';
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ WEB_CONCURRENCY: '2', SCREENSHOT_VERIFIER: 'fake', METRICS_TOKEN: TOKEN });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** The primary's child processes that run server/index.ts (the embedded PostgreSQL is a child too). */
function webWorkers(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('server/index.ts');
    } catch {
      return false;
    }
  });
}

describe('WEB_CONCURRENCY=2', () => {
  it('answers /metrics with the figures of every worker, summed', { timeout: 60_000 }, async () => {
    await expect.poll(() => webWorkers(server.process.pid!).length, { timeout: 30_000 }).toBe(2);
    // Both workers listening and ready (a worker still starting would take no share).
    await expect.poll(async () => (await Promise.all([1, 2, 3, 4].map(() => fetch(`${server.url}/readyz`, { headers: { Connection: 'close' } })))).every((r) => r.status === 200), { timeout: 30_000 }).toBe(true);
    const served = (text: string) => Number(/rewardloop_http_request_duration_seconds_count\{method="GET",route="\/privacy",status="200"\} (\d+)/.exec(text)?.[1] ?? 0);
    const scrape = async () => {
      const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}`, Connection: 'close' } });
      expect(res.status).toBe(200);
      return res.text();
    };
    // New connections go to the workers in turn: each answers about half.
    for (let i = 0; i < 20; i += 1) {
      const page = await fetch(`${server.url}/privacy`, { headers: { Connection: 'close' } });
      expect(page.status).toBe(200);
      // Read to the end: a response is counted when the server has finished sending it.
      await page.text();
    }
    // Whichever worker answers the scrape reports all 20, and the deployment's figures once.
    for (let i = 0; i < 4; i += 1) {
      const text = await scrape();
      expect(served(text), text.split('\n').filter((l) => l.includes('route="/privacy"')).join('\n')).toBe(20);
      expect(text.match(/^# TYPE rewardloop_rewards gauge$/gm)).toHaveLength(1);
      expect(text).toMatch(/^rewardloop_db_pool_connections_idle \d+$/m);
    }
  });


  it('runs two web workers that answer on one port, then drains them and exits 0 on SIGTERM', { timeout: 60_000 }, async () => {
    const pid = server.process.pid!;
    await expect.poll(() => webWorkers(pid).length, { timeout: 30_000 }).toBe(2);
    // Both workers answer: readiness on fresh connections, and a page.
    for (let i = 0; i < 6; i += 1) {
      const res = await fetch(`${server.url}/readyz`, { headers: { Connection: 'close' } });
      expect(res.status).toBe(200);
    }
    expect((await fetch(`${server.url}/terms`)).status).toBe(200);
    const workers = webWorkers(pid);
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    server.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    const running = (w: number) => {
      try {
        return readFileSync(`/proc/${w}/cmdline`, 'utf8').includes('server/index.ts');
      } catch {
        return false;
      }
    };
    expect(workers.filter(running)).toEqual([]);
  });
});
