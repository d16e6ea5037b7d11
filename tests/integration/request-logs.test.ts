import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createServer as createVite, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../modules/shared/logger.ts';
import { createHttpApp } from '../../server/http.ts';
import { devServerBuild } from '../../server/dev-build.ts';
import { signedInOwner } from '../setup/factories.ts';
import type { CookieJar } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 25, item 9: logs that mean something. The whole app over HTTP (the Express pipeline in front
// of the real Remix build, as hardening.test.ts), with every log line captured: refused requests (4xx)
// are not errors; a real fault is, with the request id that the response carries too.

type Line = Record<string, unknown> & { level: number; msg: string };
const lines: Line[] = [];
let app: TestApp;
let vite: ViteDevServer;
let base: string;
let close: () => Promise<void>;
let owner: { jar: CookieJar };

beforeAll(async () => {
  app = await createTestApp();
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      cb();
    },
  });
  app.root.logger = createLogger({ level: 'info', destination: sink });
  vite = await createVite({ server: { middlewareMode: true, hmr: false, ws: false }, appType: 'custom', logLevel: 'silent' });
  const server = createHttpApp(app.root, { build: devServerBuild(vite, process.cwd()).build }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
  owner = await signedInOwner(app, 'Log Cafe');
}, 120_000);
afterAll(async () => {
  await close?.();
  await vite?.close();
  await app?.close();
});

const ERROR = 50;
const send = (pathAndQuery: string, init: RequestInit & { id?: string } = {}) =>
  fetch(base + pathAndQuery, { redirect: 'manual', ...init, headers: { ...(init.headers as Record<string, string>), ...(init.id ? { 'X-Request-Id': init.id } : {}) } });
/** The body read, and the request line written (on the response's `finish`, just after the last byte). */
const settled = async (res: Response) => {
  await res.arrayBuffer();
  await new Promise((r) => setTimeout(r, 50));
};
const json = (body: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

describe('request ids', () => {
  it('a sane X-Request-Id is kept, anything else is replaced by a UUID; the response carries it', async () => {
    expect((await send('/healthz', { id: 'edge-1234.abc_DEF:9' })).headers.get('x-request-id')).toBe('edge-1234.abc_DEF:9');
    for (const bad of ['has space', 'x'.repeat(200), 'quote"s', '']) {
      const id = (await send('/healthz', { headers: { 'X-Request-Id': bad } })).headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    const a = (await send('/healthz')).headers.get('x-request-id');
    const b = (await send('/healthz')).headers.get('x-request-id');
    expect(a).not.toBe(b);
  });

  it('every line a request logs carries its id, the request line included', async () => {
    const res = await send('/api/auth/login', { ...json(JSON.stringify({ email: 'nobody@example.com', password: 'sesame-street-42' })), id: 'login-line-1' });
    expect(res.status).toBe(401);
    await settled(res);
    const mine = lines.filter((l) => l.requestId === 'login-line-1');
    expect(mine.map((l) => l.msg)).toContain('request');
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({ method: 'POST', path: '/api/auth/login', status: 401 });
  });
});

describe('log levels (issue 25, item 9)', () => {
  it('a burst of bad requests (405s, ?_data, bad JSON, deep JSON, unknown pages) leaves no error-level line', async () => {
    const burst: Array<[string, RequestInit]> = [
      // Remix's own 405: a POST to a page without an action.
      ['/privacy', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' }],
      ['/terms', { method: 'PUT' }],
      ['/', { method: 'DELETE' }],
      // A route's own 405: a GET to a POST-only endpoint.
      ['/api/auth/login', {}],
      // Legacy ?_data requests (this app uses single fetch), on a missing route and on real ones.
      ['/nothing-here?_data=routes/nothing-here', {}],
      ['/?_data=root', {}],
      // The route's id is routes/_marketing+/privacy; a + in a query is a space, so it is escaped.
      ['/privacy?_data=routes/_marketing%2B/privacy', {}],
      ['/privacy?_data=routes/nope', {}],
      ['/nothing-here.data', {}],
      ['/nothing-here', {}],
      // Bad bodies.
      ['/api/auth/login', json('{"email": ')],
      ['/api/auth/login', json('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000))],
      ['/api/auth/signup', json('[1,2]')],
      ['/api/survey/config/not-a-uuid', json('{}')],
      ['/survey-builder', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }],
    ];
    const ids: string[] = [];
    const statuses = new Set<number>();
    for (const [i, [path, init]] of burst.entries()) {
      for (const jar of [undefined, owner.jar]) {
        const id = `burst-${i}-${jar ? 'owner' : 'visitor'}`;
        ids.push(id);
        const res = await send(path, { ...init, id, headers: { ...(init.headers as Record<string, string>), ...(jar ? { Cookie: jar.header() } : {}) } });
        await settled(res);
        // Refused (4xx), or for a legacy ?_data on a real route its data (200).
        expect(res.status, `${path} ${init.method ?? 'GET'}`).toBeLessThan(500);
        statuses.add(res.status);
        expect(res.headers.get('x-request-id')).toBe(id);
      }
    }
    expect([...statuses]).toEqual(expect.arrayContaining([400, 404, 405, 415]));
    const ofBurst = lines.filter((l) => ids.includes(String(l.requestId)));
    // Every request of the burst logged its request line, at info.
    expect(new Set(ofBurst.filter((l) => l.msg === 'request').map((l) => l.requestId)).size).toBe(ids.length);
    expect(ofBurst.filter((l) => l.level >= ERROR).map((l) => `${l.requestId} ${l.msg} ${JSON.stringify(l.err ?? '').slice(0, 200)}`)).toEqual([]);
    // Remix's own refusals are there, at info, with the reason.
    expect(ofBurst.find((l) => l.requestId === 'burst-0-visitor' && l.msg === 'request refused')).toMatchObject({
      level: 30,
      status: 405,
      reason: expect.stringContaining('did not provide an `action`'),
    });
    // Nor any other line at error level while the burst ran (lines without a request id included).
    expect(lines.filter((l) => l.level >= ERROR).map((l) => `${l.msg}`)).toEqual([]);
  });

  it('a real fault (the database gone) is logged at error level with the request id the response carries', async () => {
    await app.breakDatabase();
    const res = await send('/survey-management', { headers: { Cookie: owner.jar.header() }, id: 'fault-1' });
    await settled(res);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.headers.get('x-request-id')).toBe('fault-1');
    const errors = lines.filter((l) => l.level >= ERROR && l.requestId === 'fault-1');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((l) => l.err !== undefined)).toBe(true);
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'fault-1')).toMatchObject({ level: ERROR, status: res.status });
  });
});
