import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../modules/shared/logger.ts';
import { createHttpApp } from '../../server/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// The Express pipeline in front of Remix, without a Remix build: a request that reaches Remix gets a 500 here.
const noBuild = () => Promise.reject(new Error('no Remix build in this test')) as Promise<ServerBuild>;

let app: TestApp;
let url: string;
let close: () => Promise<void>;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  app = await createTestApp();
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      cb();
    },
  });
  app.root.logger = createLogger({ level: 'info', destination: sink });
  const server = createHttpApp(app.root, { build: noBuild }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => {
  await close?.();
  await app?.close();
});

describe('HTTP pipeline', () => {
  it('GET /healthz answers 200; GET /readyz names its checks', async () => {
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { lifecycle: 'running', database: 'ok', migrations: 'applied', jobs: 'not run by this process' } });
  });

  it('sets security headers with a fresh CSP nonce per response', async () => {
    const a = await fetch(`${url}/healthz`);
    const b = await fetch(`${url}/healthz`);
    const csp = a.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline[^;]*script|script-src[^;]*unsafe-inline/);
    expect(b.headers.get('content-security-policy')).not.toBe(csp);
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(a.headers.get('x-powered-by')).toBeNull();
  });

  it('refuses an oversized body with 413 and a clear message before reading it', async () => {
    const res = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2_000_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request body too large: the limit is 1000 KB.' });
  });

  // A 15 MB survey form post from a browser without JavaScript (the screenshot too large): a page, not JSON.
  const formPost = (pathname: string, accept: string, bytes = 15 * 1024 * 1024) => {
    const boundary = '----rewardloop413';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="file:q_google_review_screenshot"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n${'A'.repeat(bytes)}\r\n--${boundary}--\r\n`;
    return fetch(url + pathname, { method: 'POST', headers: { Accept: accept, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body });
  };
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

  it('answers a browser form post to a survey page over the upload limit with a 413 page in plain words and a link back', async () => {
    const pathname = '/survey/public/biz-1/survey-1?bypass_square=true';
    const res = await formPost(pathname, BROWSER_ACCEPT);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<h1>Your screenshot is too large</h1>');
    expect(html).toContain('Each screenshot can be at most 10 MB.');
    expect(html).not.toContain('14680');
    // Back to the page it came from: the same address, read by a GET.
    expect(html).toContain(`<a href="${pathname}"`);
    expect(html).toMatch(/<meta name="viewport"/);
  });

  it("says it in the customer's language: ?lang= first, else Accept-Language (issue 30, ADR 084)", async () => {
    const fr = await (await formPost('/survey/public/biz-1/survey-1?lang=fr', BROWSER_ACCEPT)).text();
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain("<h1>Votre capture d'écran est trop grande</h1>");
    expect(fr).toContain('Chaque capture peut faire au plus 10 Mo.');
    expect(fr).toContain('Revenir au questionnaire</a>');
    const boundary = '----rewardloop413';
    const es = await fetch(url + '/survey/public/biz-1/survey-1', {
      method: 'POST',
      headers: { Accept: BROWSER_ACCEPT, 'Accept-Language': 'es-MX,es;q=0.9', 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file:x"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n${'A'.repeat(15 * 1024 * 1024)}\r\n--${boundary}--\r\n`,
    });
    expect(es.status).toBe(413);
    expect(await es.text()).toContain('<h1>Tu captura de pantalla es demasiado grande</h1>');
    // The rl_lang cookie counts too, for any of the five languages (ADR 090).
    const de = await fetch(url + '/survey/public/biz-1/survey-1', {
      method: 'POST',
      headers: { Accept: BROWSER_ACCEPT, Cookie: 'rl_lang=de', 'Accept-Language': 'es', 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="file:x"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n${'A'.repeat(15 * 1024 * 1024)}\r\n--${boundary}--\r\n`,
    });
    expect(de.status).toBe(413);
    const deutsch = await de.text();
    expect(deutsch).toContain('<html lang="de">');
    expect(deutsch).not.toContain('Your screenshot is too large');
  });

  it('answers from the headers alone (no body sent), escaping the address in the link', async () => {
    // A raw request (fetch would percent-encode the quote and brackets) that announces 20 MB and sends none of it.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(url);
      const req = httpRequest({
        hostname,
        port,
        path: '/survey/public/a/b?x="><script>alert(1)</script>',
        method: 'POST',
        headers: { Accept: BROWSER_ACCEPT, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(20 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
    expect(body).not.toContain('<script>');
    expect(body).toContain('href="/survey/public/a/b?x=&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
  });

  it('answers a fetch of a survey page over the upload limit with JSON in the customer\'s words', async () => {
    const res = await formPost('/survey/public/a/b', '*/*');
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'This image is larger than 10 MB. Please upload a smaller screenshot.' });
  });

  it('answers a browser form post over the limit elsewhere with a plain page, without screenshot words', async () => {
    const res = await formPost('/auth', BROWSER_ACCEPT, 2_000_000);
    expect(res.status).toBe(413);
    const html = await res.text();
    expect(html).toContain('<h1>What you sent is too large</h1>');
    expect(html).not.toContain('screenshot');
    expect(html).toContain('<a href="/auth"');
  });

  it('refuses a cross-site POST by its Origin with 403', async () => {
    const res = await fetch(`${url}/auth`, { method: 'POST', headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'intent=signin' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Cross-site requests are not allowed.' });
  });

  it('refuses Origin: null with 403 (a sandboxed frame or data: page is foreign)', async () => {
    const res = await fetch(`${url}/api/square/disconnect`, { method: 'POST', headers: { Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'returnTo=/' });
    expect(res.status).toBe(403);
  });

  it('refuses an Origin that matches Host but not X-Forwarded-Host (Remix compares with that one) with 403', async () => {
    const origin = new URL(url).origin;
    const res = await fetch(`${url}/auth`, { method: 'POST', headers: { Origin: origin, 'X-Forwarded-Host': 'evil.example', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'intent=signin' });
    expect(res.status).toBe(403);
  });

  it.each(['/api/survey/config/%E0%A4%A', '/survey/public/%ZZ/x', '/%'])('answers a malformed percent-escape in the path (%s) with 400', async (p) => {
    const res = await fetch(url + p);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'The address is not valid: a percent-escape in the path is malformed.' });
  });

  it('answers U+0000 in the path or the query with 400', async () => {
    expect((await fetch(`${url}/api/survey/config/%00`)).status).toBe(400);
    expect((await fetch(`${url}/auth?returnTo=%00`)).status).toBe(400);
  });

  it('logs one line per request with method, path, status and ms, and no query string', async () => {
    await fetch(`${url}/healthz?token=secret-token-value`);
    const line = lines.filter((l) => l.msg === 'request' && l.path === '/healthz').at(-1)!;
    expect(line).toMatchObject({ method: 'GET', path: '/healthz', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-token-value');
  });

  it('redacts secrets in anything logged', () => {
    app.root.logger.info({ password: 'hunter2', user: { token: 'abc123', squareAccessToken: 'sq0' } }, 'with secrets');
    const line = lines.find((l) => l.msg === 'with secrets')!;
    expect(JSON.stringify(line)).not.toMatch(/hunter2|abc123|sq0/);
  });

  it('GET /readyz answers 503 when the database does not; /healthz stays 200 (the process is alive)', async () => {
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await app.breakDatabase();
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', message: 'The database is not answering.', checks: { database: 'unavailable' } });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
