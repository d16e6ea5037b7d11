import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

let visitors = 0;
/**
 * A client address of its own for each browser context: every context is another owner or
 * customer, as in real life, so the server's per-IP rate limits (10 sign-ups an hour) see many
 * visitors. The e2e server trusts X-Forwarded-For from loopback (TRUST_PROXY=loopback).
 */
export function visitorAddress(): string {
  visitors += 1;
  return `10.${(process.pid % 200) + 1}.${Math.floor(visitors / 250)}.${(visitors % 250) + 1}`;
}

function withVisitor(options: BrowserContextOptions = {}): BrowserContextOptions {
  return { ...options, extraHTTPHeaders: { 'X-Forwarded-For': visitorAddress(), ...options.extraHTTPHeaders } };
}

/** Debian's Chromium, started the way this machine needs (root, no network beyond loopback). */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? execFileSync('which', ['chromium']).toString().trim();
  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // Playwright gives every launch a fresh temporary profile of its own.
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options?: BrowserContextOptions) => newContext(withVisitor(options));
  browser.newPage = async (options?: BrowserContextOptions) => (await browser.newContext(options)).newPage();
  return browser;
}
