import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { visitorAddress } from './browser.ts';

const baseUrl = inject('baseUrl');
const clientDir = path.resolve(import.meta.dirname, '../../build/client');

describe('the server build (ADR 095)', () => {
  it('holds app/ only: what routes use from modules/ is imported from the source, the module the server itself loads', () => {
    const build = readFileSync(path.resolve(import.meta.dirname, '../../build/server/index.js'), 'utf8');
    expect(build).toContain('from "../../modules/surveys/index.ts"');
    // No copy of an entity definition, of the composition's services or of a migration.
    expect(build).not.toMatch(/defineEntity|class Migration\d+|createRoot/);
  });
});

describe('the built app over HTTP (production mode)', () => {
  it('puts the response CSP nonce on every script tag', async () => {
    const res = await fetch(`${baseUrl}/auth`);
    expect(res.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1];
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it('sets Secure, HttpOnly, SameSite=Lax session cookies in production', async () => {
    const res = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': visitorAddress() },
      body: JSON.stringify({ email: `cookie-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Cookie Co', terms: true }),
    });
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('rl_session='))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
  });

  it('answers bad requests with clear 4xx messages, never a 500', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': type }, body });
    expect((await post('{oops')).status).toBe(400);
    expect((await post('email=a', 'text/plain')).status).toBe(415);
    expect((await post(JSON.stringify({ email: 'x'.repeat(2_000_000) }))).status).toBe(413);
    expect((await fetch(`${baseUrl}/api/auth/login`)).status).toBe(405);
    expect((await fetch(`${baseUrl}/api/auth/user`)).status).toBe(401);
    const res = await fetch(`${baseUrl}/auth?returnTo=//evil.example`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('evil.example');
  });

  it('serves public files by name and hashed assets with a long cache', async () => {
    const icon = await fetch(`${baseUrl}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\/svg\+xml/);
    const html = await (await fetch(`${baseUrl}/auth`)).text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)![0];
    const res = await fetch(`${baseUrl}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('sends assets as the build compressed them, in the encoding the browser accepts (issue 29)', async () => {
    const html = await (await fetch(`${baseUrl}/auth`)).text();
    const asset = /\/assets\/[\w.-]+\.css/.exec(html)![0];
    const plain = await fetch(`${baseUrl}${asset}`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1024);
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const copy = statSync(path.join(clientDir, `${asset}.${encoding === 'gzip' ? 'gz' : 'br'}`));
      const res = await fetch(`${baseUrl}${asset}`, { headers: { 'Accept-Encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect(res.headers.get('content-type')).toMatch(/text\/css/);
      // The build's copy as it is, not a response compressed again per request (which has no length).
      expect(Number(res.headers.get('content-length'))).toBe(copy.size);
      // fetch decodes the body: the same stylesheet as the plain one.
      expect(await res.text()).toBe(text);
    }
  });

  it('hides the development outbox in production', async () => {
    expect((await fetch(`${baseUrl}/dev/outbox`)).status).toBe(404);
  });

  it('does not change state on GET: /logout and the verification link only read', async () => {
    const res = await fetch(`${baseUrl}/logout`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie()).toEqual([]);
    const verify = await fetch(`${baseUrl}/email-verified/not-a-real-token-but-long-enough`);
    expect(verify.status).toBe(200);
    // An unknown or used link: the page says so in plain words (issue 27 item 14), and nothing is confirmed.
    expect(await verify.text()).toContain('This confirmation link has expired or was used already.');
  });
});
