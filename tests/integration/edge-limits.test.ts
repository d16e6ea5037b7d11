import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createVite, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoot, type Root } from '../../server/composition.ts';
import { createEdgeLimiter, EDGE_POLICY, limitClass, type ClassPolicy, type LimitClass } from '../../server/edge-limits.ts';
import { createHttpApp } from '../../server/http.ts';
import { devServerBuild } from '../../server/dev-build.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 14, "Limits at the edge": one policy in the HTTP pipeline for every route by class, the HTML
// and JSON routes alike, keyed by device cookie and address, counted in PostgreSQL so two app
// instances on one database share it; 429 with Retry-After; a cafe's shared Wi-Fi never meets it.

let app: TestApp;
let second: Root;
let vite: ViteDevServer;
const servers: http.Server[] = [];

beforeAll(async () => {
  app = await createTestApp();
  // A second app instance on the same database, as a second server process would be.
  second = await createRoot(app.root.config, { migrate: false });
  vite = await createVite({ server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom', logLevel: 'silent' });
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  await vite?.close();
  await second?.close();
  await app?.close();
});

let dev: ReturnType<typeof devServerBuild> | undefined;
const build = () => (dev ??= devServerBuild(vite, process.cwd())).build();

/** Serves `root`'s app, optionally with a small policy, on a free port; returns its base URL. */
async function serve(root: Root, policy?: Record<LimitClass, ClassPolicy>): Promise<string> {
  const edgeLimiter = policy ? createEdgeLimiter({ databaseUrl: root.db.url, logger: root.logger, secureCookie: false, policy }) : root.edgeLimiter;
  const server = createHttpApp({ ...root, edgeLimiter }, { build }).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  if (policy) server.once('close', () => void edgeLimiter?.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const small = (submit: Partial<ClassPolicy>): Record<LimitClass, ClassPolicy> => ({ ...EDGE_POLICY, submit: { ...EDGE_POLICY.submit, ...submit } });
const NO_SURVEY = '00000000-0000-4000-8000-000000000000';

function post(base: string, path: string, init: { ip: string; device?: string; json?: unknown; form?: Record<string, string> }) {
  const headers: Record<string, string> = { 'X-Forwarded-For': init.ip, Origin: base };
  if (init.device) headers.Cookie = `rl_client=${init.device}`;
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  if (init.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form ? new URLSearchParams(init.form).toString() : undefined;
  return fetch(base + path, { method: 'POST', headers, body, redirect: 'manual' });
}

describe('request classes', () => {
  it.each([
    ['POST', '/api/survey/submit/b/s', 'submit'],
    ['POST', '/api/survey/dynamic/submit/b', 'submit'],
    ['POST', '/survey/public/b/s', 'submit'],
    ['POST', '/survey/b', 'submit'],
    ['POST', '/api/verify-screenshot', 'upload'],
    ['POST', '/api/verify-social', 'upload'],
    ['POST', '/api/survey/check-email-eligibility/b', 'lookup'],
    ['POST', '/auth', 'auth'],
    ['POST', '/api/auth/login', 'auth'],
    ['POST', '/forgot-password', 'auth'],
    ['POST', '/api/create-subscription', 'auth'],
    ['POST', '/api/billing/fake/confirm-setup', 'auth'],
    ['GET', '/survey/public/b/s', 'public'],
    ['GET', '/api/survey/public/b/s', 'public'],
    ['GET', '/s/k7m2qx9ab', 'public'],
    ['POST', '/api/survey/progress/b/s', 'public'],
    ['POST', '/survey-builder', null],
    ['GET', '/survey-management', null],
    ['POST', '/api/square/webhook', null],
  ])('%s %s is %s', (method, path, cls) => {
    expect(limitClass(method, path)).toBe(cls);
  });
});

describe('the edge limiter', () => {
  it('counts one device across the HTML and JSON routes and across two app instances, then answers 429 with Retry-After', async () => {
    const policy = small({ perDevice: 4, perIp: 1000 });
    const a = await serve(app.root, policy);
    const b = await serve(second, policy);
    const device = 'device-one-aaaaaaaaaaa'; // 22 characters, as the server issues them
    const statuses: number[] = [];
    statuses.push((await post(a, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.1.0.1', device, json: { responses: {} } })).status);
    statuses.push((await post(b, `/survey/public/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.1.0.1', device, form: { section: '0' } })).status);
    statuses.push((await post(a, `/api/survey/dynamic/submit/${NO_SURVEY}`, { ip: '10.1.0.1', device, json: { responses: {} } })).status);
    statuses.push((await post(b, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.1.0.1', device, json: { responses: {} } })).status);
    expect(statuses.every((s) => s !== 429 && s < 500), JSON.stringify(statuses)).toBe(true);

    const json = await post(a, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.1.0.1', device, json: { responses: {} } });
    expect(json.status).toBe(429);
    expect(Number(json.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await json.json()) as { message: string }).message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    const page = await fetch(`${b}/survey/public/${NO_SURVEY}/${NO_SURVEY}`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': '10.1.0.1', Cookie: `rl_client=${device}`, Origin: b, Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'section=0',
    });
    expect(page.status).toBe(429);
    const english = await page.text();
    expect(english).toContain('Your answers are not lost');
    expect(english).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);
    // A customer who reads Spanish reads the wait in Spanish (ADR 084: Accept-Language).
    const spanish = await fetch(`${b}/survey/public/${NO_SURVEY}/${NO_SURVEY}`, {
      method: 'POST',
      headers: { 'X-Forwarded-For': '10.1.0.1', Cookie: `rl_client=${device}`, Origin: b, Accept: 'text/html', 'Accept-Language': 'es-ES,es;q=0.9', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'section=0',
    });
    expect(spanish.status).toBe(429);
    const espanol = await spanish.text();
    expect(espanol).toContain('<html lang="es"');
    expect(espanol).toContain('Tus respuestas no se han perdido');
    expect(espanol).toMatch(/Demasiados intentos\. Espera \d+ minutos? y vuelve a intentarlo\./);
    // Any of the five languages (ADR 090): the rl_lang cookie, and ?lang= before it.
    const waitIn = async (query: string, cookie: string) =>
      (
        await fetch(`${b}/survey/public/${NO_SURVEY}/${NO_SURVEY}${query}`, {
          method: 'POST',
          headers: { 'X-Forwarded-For': '10.1.0.1', Cookie: `rl_client=${device}; ${cookie}`, Origin: b, Accept: 'text/html', 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'section=0',
        })
      ).text();
    expect(await waitIn('', 'rl_lang=de')).toContain('<html lang="de"');
    const pt = await waitIn('?lang=pt', 'rl_lang=de');
    expect(pt).toContain('<html lang="pt"');
    expect(pt).not.toContain('Your answers are not lost');

    // Another device on the same address is not held back.
    expect((await post(b, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.1.0.1', device: 'device-two-bbbbbbbbbbb', json: { responses: {} } })).status).not.toBe(429);
  });

  it('holds back one address that sends from ever new devices, across both instances', async () => {
    const policy = small({ perDevice: 100, perIp: 5 });
    const a = await serve(app.root, policy);
    const b = await serve(second, policy);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      statuses.push((await post(i % 2 ? a : b, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.2.0.1', json: { responses: {} } })).status);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('gives a new browser a first-party device cookie', async () => {
    const base = await serve(app.root);
    const res = await fetch(`${base}/survey/public/${NO_SURVEY}/${NO_SURVEY}`, { headers: { 'X-Forwarded-For': '10.3.0.1' } });
    expect(res.headers.get('Set-Cookie')).toMatch(/rl_client=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax/);
  });

  it('with the real policy, 150 customers of one cafe on one Wi-Fi open, check and submit without a single 429', { timeout: 120_000 }, async () => {
    const base = await serve(app.root);
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    for (let c = 0; c < 150; c += 1) {
      const device = `cafe-customer-${String(c).padStart(8, '0')}`;
      const headers = { 'X-Forwarded-For': '10.4.0.1', Cookie: `rl_client=${device}` };
      count((await fetch(`${base}/api/survey/public/${NO_SURVEY}/${NO_SURVEY}`, { headers })).status);
      count((await post(base, `/api/survey/check-email-eligibility/${NO_SURVEY}`, { ip: '10.4.0.1', device, json: { email: `c${c}@example.com`, surveyId: NO_SURVEY } })).status);
      count((await post(base, `/api/survey/submit/${NO_SURVEY}/${NO_SURVEY}`, { ip: '10.4.0.1', device, json: { responses: {} } })).status);
    }
    expect(statuses.get(429) ?? 0).toBe(0);
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  });
});
