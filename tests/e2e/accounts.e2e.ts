import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';
import { submitSignUp } from './owner.ts';

const baseUrl = inject('baseUrl');
const outboxDir = inject('outboxDir');

/** The link (to `linkPath`/{token}) in the newest outbox email to this address; waits a little for it to arrive. */
async function latestLinkTo(email: string, linkPath = '/email-verified/'): Promise<string> {
  const pattern = new RegExp(`https?://\\S+${linkPath}[\\w-]+`);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml')).sort().reverse();
    for (const file of files) {
      const mail = await simpleParser(await readFile(path.join(outboxDir, file)));
      const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
      const link = pattern.exec(mail.text ?? '')?.[0];
      if (to?.value[0]?.address === email && link) return link;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${email} with a link to ${linkPath}`);
}
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signUpSignOutSignIn(page: Page, email: string) {
  const problems = watchErrors(page);

  await page.goto(`${baseUrl}/`);
  await page.getByRole('link', { name: 'Sign Up' }).first().click();
  await page.waitForURL(/\/auth\?mode=signup/);
  await submitSignUp(page, 'Crumb & Co Bakery', email);

  await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Crumb & Co Bakery' }).isVisible(), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Account created!');
  expect(await page.getByText('Not Connected').isVisible()).toBe(true);
  expect(await page.getByText('14-Day Free Trial').isVisible()).toBe(true);

  await page.getByRole('link', { name: /Crumb & Co Bakery/ }).click();
  await page.waitForURL(/\/profile$/);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect.poll(() => page.getByRole('heading', { name: /Customer surveys and automated gift card rewards/ }).isVisible()).toBe(true);

  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('wrong password!');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect.poll(() => page.getByText('Invalid email or password').first().isVisible()).toBe(true);

  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Crumb & Co Bakery' }).isVisible(), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Welcome back!');
  return problems;
}

describe('an owner signs up, sees the dashboard, signs out and signs in again', () => {
  it('with JavaScript', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = await signUpSignOutSignIn(page, `js-${Date.now()}@example.com`);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await context.close();
  });

  it('without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signUpSignOutSignIn(page, `nojs-${Date.now()}@example.com`);
    await context.close();
  });

  it('confirms the owner email from the link in the outbox', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `verify-${Date.now()}@example.com`;
    const res = await page.request.post(`${baseUrl}/api/auth/signup`, {
      data: { email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Verify Me Cafe', terms: true },
    });
    expect(res.status()).toBe(201);
    await page.goto(`${baseUrl}/`);
    expect(await page.getByText('Confirm your email address').isVisible()).toBe(true);
    const link = await latestLinkTo(email);
    await page.goto(link);
    await page.getByRole('button', { name: 'Confirm email address' }).click();
    await expect.poll(() => page.getByText('Your email has been verified. Thank you!').isVisible()).toBe(true);
    await page.goto(`${baseUrl}/`);
    expect(await page.getByText('Confirm your email address').count()).toBe(0);
    // The same link a second time, signed in and confirmed: already confirmed, without a button to press (issue 27 item 14).
    await page.goto(link);
    expect(await page.getByRole('button', { name: 'Confirm email address' }).count()).toBe(0);
    await expect.poll(() => page.getByText('Your email address is already confirmed.').isVisible()).toBe(true);
    await context.close();
  });

  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('resets a forgotten password by email on a phone, %s', async (_label, javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const problems = watchErrors(page);
    const email = `forgot-${javaScriptEnabled ? 'js' : 'nojs'}-${Date.now()}@example.com`;
    const signup = await page.request.post(`${baseUrl}/api/auth/signup`, {
      data: { email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Forgetful Cafe', terms: true },
    });
    expect(signup.status()).toBe(201);
    await context.clearCookies();

    await page.goto(`${baseUrl}/auth`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email me a reset link' }).click();
    await expect.poll(() => page.getByText('Check your email').isVisible()).toBe(true);
    // axe and the width check run scripts in the page: with JavaScript only (the markup is the same).
    const checkPage = async () => {
      if (!javaScriptEnabled) return;
      expect(await seriousAxeViolations(page)).toEqual([]);
      await fitsWidth(page, 360);
    };
    await checkPage();

    await page.goto(await latestLinkTo(email, '/reset-password/'));
    await page.getByLabel('New password', { exact: true }).fill('lilac window 1984');
    await page.getByLabel('Confirm new password', { exact: true }).fill('lilac window 1984');
    await checkPage();
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL(/\/auth$/);
    await expect.poll(() => page.getByText('Password changed').first().isVisible()).toBe(true);

    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('lilac window 1984');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome, Forgetful Cafe' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await context.close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`${baseUrl}/no/such/page`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).toBe(true);
    await page.close();
  });
});
