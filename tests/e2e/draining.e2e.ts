import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';

// Issue 26, item 3 and 4: liveness, readiness and draining on a real server process (the production
// build): on SIGTERM readiness fails at once, a request already received is answered, new connections
// are refused, and the process exits 0 well within 15 s.

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SCREENSHOT_VERIFIER: 'fake' });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

/** A POST whose body arrives in two halves, `gapMs` apart: the request is in flight in between. */
function slowPost(url: string, gapMs: number, onFirstHalf: () => void): Promise<{ status: number; connection: string | undefined }> {
  const body = new URLSearchParams({ intent: 'signin', email: 'nobody@example.com', password: 'not-the-password-123' }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/auth`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 10));
    setTimeout(onFirstHalf, 200);
    setTimeout(() => req.end(body.slice(10)), gapMs);
  });
}

describe('health, readiness and draining', () => {
  it('/healthz answers without the database; /readyz names its checks', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { lifecycle: 'running', database: 'ok', migrations: 'applied', jobs: 'started' } });
  });

  it('on SIGTERM: the request in flight is answered with Connection: close, new connections are refused, exit 0', { timeout: 30_000 }, async () => {
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => server.process.once('exit', (code) => resolve({ code, at: Date.now() })));
    let signalledAt = 0;
    const inFlight = slowPost(server.url, 1500, () => {
      signalledAt = Date.now();
      server.process.kill('SIGTERM');
    });
    const answer = await inFlight;
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    expect(answer.connection).toBe('close');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(15_000);
    expect(server.output()).not.toMatch(/draining took longer than 15 s/);
  });
});
