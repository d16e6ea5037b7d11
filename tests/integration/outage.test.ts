import type { AddressInfo } from 'node:net';
import { createServer as createVite, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../../server/http.ts';
import { devServerBuild } from '../../server/dev-build.ts';
import { OUTAGE_MESSAGE } from '../../server/outage.ts';
import { createSurvey, signedInOwner } from '../setup/factories.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 26 (faults): while the database does not answer, a request that failed for it answers 503
// with Retry-After and words the reader can act on, as a page or as JSON; not a bare 500.

let app: TestApp;
let vite: ViteDevServer;
let base: string;
let close: () => Promise<void>;
let target: { businessId: string; surveyId: string };

beforeAll(async () => {
  app = await createTestApp();
  vite = await createVite({ server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom', logLevel: 'silent' });
  const server = createHttpApp(app.root, { build: devServerBuild(vite, process.cwd()).build }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
  const owner = await signedInOwner(app, 'Outage Cafe');
  target = { businessId: owner.id, surveyId: (await createSurvey(app, owner.jar)).id };
}, 120_000);
afterAll(async () => {
  await close?.();
  await vite?.close();
  await app?.close();
});

describe('the database down', () => {
  it('answers 503 with Retry-After and plain words, as JSON and as a page', { timeout: 60_000 }, async () => {
    // Before: the survey page answers (404 "not found" for an unpublished survey is an answer too).
    const before = await fetch(`${base}/survey/public/${target.businessId}/${target.surveyId}`, { headers: { Accept: 'text/html' } });
    expect(before.status).toBeLessThan(500);
    await before.text();

    await app.breakDatabase();
    const submit = await fetch(`${base}/api/survey/submit/${target.businessId}/${target.surveyId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify({ responses: { overall_rating: 5 }, customerEmail: 'ana@example.com' }),
    });
    expect(submit.status).toBe(503);
    expect(submit.headers.get('Retry-After')).toBe('5');
    expect(await submit.json()).toEqual({ message: OUTAGE_MESSAGE });

    const page = await fetch(`${base}/survey/public/${target.businessId}/${target.surveyId}`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('Nothing was saved: please try again in a few seconds.');
  });
});
