import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { watchErrors } from './checks.ts';
import { fillBuilder, openStep, submitSignUp } from './owner.ts';

/**
 * A survey built logged out travels with the sign-up (ADR 010). One that fails the save-time
 * fairness check (ADR 041) is not saved: the new owner lands in the builder with their draft and
 * the reason, changes it, and saves; the browser then forgets the draft.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('a draft handed over at sign-up', () => {
  it('that is unfair opens in the builder with the reason, and is saved once changed', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const problems = watchErrors(page);
    await page.goto(`${baseUrl}/survey-builder`);
    await fillBuilder(page, 'Built before signing up');
    await openStep(page, 'Rewards');
    await page.getByLabel('Gold (points)', { exact: true }).fill('10');
    await page.getByRole('button', { name: /Save/ }).first().click();
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).length)).toBe(1);

    await page.goto(`${baseUrl}/auth?mode=signup`);
    await submitSignUp(page, 'Late Signup Cafe', `late-${Date.now()}@example.com`);
    await page.waitForURL(/\/survey-builder\?draft=1$/);
    await page.getByText('Survey not saved yet').waitFor();
    await expect.poll(() => page.getByLabel('Survey Title').inputValue()).toBe('Built before signing up');
    expect(await page.getByLabel('Gold (points)', { exact: true }).inputValue()).toBe('10');

    await openStep(page, 'Rewards');
    await page.getByLabel('Gold (points)', { exact: true }).fill('25');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(/\/survey-preview\?surveyId=[\w-]+&handover=1$/);
    await expect.poll(() => page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await context.close();
  }, 120_000);
});
