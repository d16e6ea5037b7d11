import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';

// Issue 26, item 2: WEB_CONCURRENCY runs several web workers on one port (node:cluster), the embedded
// PostgreSQL started once by the primary; SIGTERM drains them all and the primary exits 0.

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ WEB_CONCURRENCY: '2', SCREENSHOT_VERIFIER: 'fake' });
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
