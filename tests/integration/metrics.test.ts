import type { AddressInfo } from 'node:net';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../server/http.ts';
import { routeLabel } from '../../server/metrics.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 26, item 5: Prometheus metrics behind METRICS_TOKEN, on the Express pipeline (no Remix build).

const noBuild = () => Promise.reject(new Error('no Remix build in this test')) as Promise<ServerBuild>;
const TOKEN = 'metrics-token-0123456789abcdef';

async function serve(app: TestApp) {
  const server = createHttpApp(app.root, { build: noBuild }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let app: TestApp;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  app = await createTestApp({ METRICS_TOKEN: TOKEN });
  ({ url, close } = await serve(app));
}, 60_000);
afterAll(async () => {
  await close?.();
  await app?.close();
});

describe('GET /metrics', () => {
  it('answers 401 without the token or with a wrong one', async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { Authorization: 'Bearer wrong-token-0123456789abcdef' } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { Authorization: TOKEN } })).status).toBe(401);
  });

  it('serves Prometheus text: request durations by route and status, queues, rewards, verifications, the process', async () => {
    await fetch(`${url}/healthz`);
    await fetch(`${url}/reset-password/secret-link-token-123`);
    const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/rewardloop_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} 1/);
    expect(text).toContain('route="/reset-password/:token"');
    expect(text).not.toContain('secret-link-token-123');
    expect(text).toMatch(/rewardloop_rewards\{state="issued"\} 0/);
    expect(text).toMatch(/rewardloop_rewards\{state="held"\} 0/);
    expect(text).toContain('# TYPE rewardloop_job_queue_depth gauge');
    expect(text).toContain('# TYPE rewardloop_screenshot_verifications gauge');
    expect(text).toContain('rewardloop_process_resident_memory_bytes');
    // The database pool of this process: the scrape's own queries have returned their connections.
    expect(text).toMatch(/^rewardloop_db_pool_connections_in_use 0$/m);
    expect(text).toMatch(/^rewardloop_db_pool_connections_idle [1-9]\d*$/m);
    expect(text).toMatch(/^rewardloop_db_pool_waiting 0$/m);
  });

  it('times every screenshot verification, by verifier and kind', async () => {
    const scrape = async () => (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
    const count = (text: string) => Number(/rewardloop_screenshot_verification_duration_seconds_count\{verifier="fake",kind="review",outcome="done"\} (\d+)/.exec(text)?.[1] ?? 0);
    const before = count(await scrape());
    const request = { businessId: 'b-1', businessName: 'Blue Door Cafe', platform: 'google' as const, image: Buffer.from('not an image'), reviewerName: 'Ana', reviewLink: 'https://g.page/r/blue/review' };
    await app.root.verifier.verifyReview(request);
    await app.root.verifier.verifyReview(request);
    expect(count(await scrape())).toBe(before + 2);
  });

  it('answers 404 when no token is configured', async () => {
    const bare = await createTestApp();
    const other = await serve(bare);
    try {
      expect((await fetch(`${other.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await other.close();
      await bare.close();
    }
  });
});

describe('routeLabel', () => {
  it('keeps the series bounded: ids, tokens and assets folded', () => {
    expect(routeLabel('/survey/public/6f1c1a8e-0d7e-4c6f-9a3b-2f1e0c9d8b7a/6f1c1a8e-0d7e-4c6f-9a3b-2f1e0c9d8b7b')).toBe('/survey/public/:id/:id');
    expect(routeLabel('/reward-confirm/abcDEF_123-xyz')).toBe('/reward-confirm/:token');
    expect(routeLabel('/assets/root-Bx12.js')).toBe('/assets/:file');
    expect(routeLabel('/a/b/c/d/e/f')).toBe('/a/b/c/d');
    expect(routeLabel('/')).toBe('/');
  });
});
