import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { surveyBody } from '../setup/factories.ts';
import { launchBrowser } from './browser.ts';
import { watchErrors } from './checks.ts';
import { freePort, startServer, type RunningServer } from './server.ts';

// Issue 15: what a newcomer meets on `npm run dev`. The development server (Vite middleware) on a
// fresh dependency cache, with PORT set and APP_URL not: the first pages never reload under the
// visitor's typing, and every share link and email names the port the server listens on.

let server: RunningServer;
let browser: Browser;
let cacheDir: string;

beforeAll(async () => {
  cacheDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-vite-cache-'));
  server = await startServer({
    NODE_ENV: 'development',
    APP_URL: '',
    VITE_CACHE_DIR: cacheDir,
    HMR_PORT: String(await freePort()),
    SCREENSHOT_VERIFIER: 'fake',
    LOG_LEVEL: 'info',
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe('the development server on a fresh dependency cache', () => {
  it('keeps what a visitor types on the first pages: no reload after dependency discovery', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    const problems = watchErrors(page);
    let loads = 0;
    page.on('load', () => (loads += 1));
    for (const route of ['/auth?mode=signup', '/survey-builder', '/forgot-password', '/survey/preview?demo=true', '/']) {
      loads = 0;
      await page.goto(`${server.url}${route}`);
      const typed = page.locator('input[type="text"], input[type="email"]').first();
      if ((await typed.count()) > 0) await typed.fill('typed in the first second');
      // Vite re-optimises and reloads within a few seconds of the first request when a dependency is missed.
      await page.waitForTimeout(4000);
      expect(loads, `${route} reloaded`).toBe(1);
      if ((await typed.count()) > 0) expect(await typed.inputValue(), route).toBe('typed in the first second');
    }
    expect(server.output()).not.toMatch(/optimized dependencies changed\. reloading/);
    // Nothing server-only reaches the browser: no script errors on any of those pages.
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await page.close();
  });

  it('names the port it listens on in share links and emails when APP_URL is not set', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `port-${Date.now()}@example.com`;
    const signup = await page.request.post(`${server.url}/api/auth/signup`, {
      data: { email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Port Cafe', terms: true },
    });
    expect(signup.status()).toBe(201);
    const created = await page.request.post(`${server.url}/api/survey/builder-config`, { data: surveyBody() });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`${server.url}/survey-published/${id}`);
    // Not live (no plan, no Square): the page offers the owner's preview, on the same absolute URL customers will get (issue 27 item 7).
    const preview = await page.getByRole('link', { name: 'Preview', exact: true }).getAttribute('href');
    expect(preview).toMatch(new RegExp(`^${server.url}/s/[a-z2-9]{9}\\?bypass_square=true$`));
    const outbox = path.join(server.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    const texts = await Promise.all(files.map(async (f) => (await simpleParser(await readFile(path.join(outbox, f)))).text ?? ''));
    expect(texts.join('\n')).toContain(`${server.url}/email-verified/`);
    await context.close();
  });
});
