import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations } from './checks.ts';
import { choosePlanAndPay, connectSquare, fillBuilder, notLivePublicUrl, openStep, signUp } from './owner.ts';

/**
 * Issue 16 in Chromium: an owner adds a multiple-choice question and removes a template question in
 * the builder (with JavaScript, no reload; then an edit without JavaScript), customers answer it on
 * a phone with and without JavaScript, and the owner reads it on Question Analysis, old answers
 * still labelled with the text they were asked.
 */

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const number = async (page: Page, testId: string) => Number(await page.getByTestId(testId).textContent());

async function customerAnswers(surveyUrl: string, javaScriptEnabled: boolean, email: string) {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: javaScriptEnabled, hasTouch: javaScriptEnabled, javaScriptEnabled });
  const page = await phone.newPage();
  await page.goto(surveyUrl);
  await page.locator('label', { has: page.locator('input[name="overall_rating"][value="5"]') }).click();
  await page.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await page.getByText('Section 2 of 3').waitFor();
  // The owner's question, in the owner's words; the removed template question is gone.
  const milk = page.getByRole('group', { name: /Which milk do you take\?/ });
  await milk.waitFor();
  expect(await page.getByText('How would you rate the atmosphere?').count()).toBe(0);
  if (javaScriptEnabled) {
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fitsWidth(page, 360);
  }
  await milk.locator('label', { hasText: 'Oat' }).click();
  await page.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await page.getByText('Section 3 of 3').waitFor();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: /^Submit( for \$\d+)?$/ }).click();
  await page.getByRole('heading', { name: 'Thank You!' }).waitFor({ timeout: 15_000 });
  await phone.close();
}

describe("the owner's own questions", () => {
  it('added and removed in the builder, answered on phones with and without JavaScript, read on Question Analysis', async () => {
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signUp(page, 'Oat & Co', 'questions');
    await page.goto(`${baseUrl}/survey-builder`);
    await fillBuilder(page, 'Milk matters');
    const total = await number(page, 'total-questions');
    const max = await number(page, 'max-points');
    const main = page.getByRole('main');
    await openStep(page, 'Questions');

    // Add a multiple-choice question to The Details: no reload, the stats follow.
    await main.getByLabel('Section').selectOption({ label: 'The Details' });
    await main.getByLabel('Type').selectOption('multiple_choice');
    await main.getByLabel('Question text').fill('Which milk do you take?');
    await main.getByLabel('Points (0 to 5)').fill('2');
    // Duplicate options are refused with a message, nothing added.
    await main.getByLabel(/Options, one per line/).fill('Oat\nDairy\noat');
    await main.getByRole('button', { name: 'Add question' }).click();
    await main.getByText('Options must all be different').waitFor();
    expect(await number(page, 'total-questions')).toBe(total);
    await main.getByLabel(/Options, one per line/).fill('Oat\nDairy\nSoy');
    await main.getByRole('button', { name: 'Add question' }).click();
    await expect.poll(() => number(page, 'total-questions')).toBe(total + 1);
    expect(await number(page, 'max-points')).toBe(max + 2);
    expect(await page.getByTestId('questions-part2').textContent()).toContain('Which milk do you take?');

    // Remove a template question (and see it can come back).
    await main.getByRole('button', { name: 'Remove question: How would you rate the atmosphere?' }).click();
    await expect.poll(() => page.getByTestId('removed-questions').textContent()).toBe('1');
    expect(await number(page, 'max-points')).toBe(max + 1);
    expect(await main.getByRole('button', { name: 'Restore question: How would you rate the atmosphere?' }).isVisible()).toBe(true);
    // The overall rating cannot be removed.
    expect(await main.getByRole('button', { name: /Remove question: How would you rate your overall/ }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 740 });
    await fitsWidth(page, 360);
    await page.setViewportSize({ width: 1280, height: 900 });
    // No post: the address is the builder with the open step named (ADR 093).
    expect(page.url()).toBe(`${baseUrl}/survey-builder#step-questions`);

    // One more point that needs no sharing lets Gold (18) be earned without a review, follow or post:
    // the builder says so before saving, and the owner raises Gold in 'Points for each tier'.
    await openStep(page, 'Rewards');
    await main.getByTestId('fairness-problems').getByText(/Gold must need sharing/).waitFor();
    await main.getByLabel('Gold (points)', { exact: true }).fill('20');
    await expect.poll(() => main.getByTestId('fairness-problems').count()).toBe(0);
    expect(await page.getByTestId('reachable-tiers').textContent()).toContain('Gold (20+ points)');

    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    const surveyId = new URL(page.url()).searchParams.get('surveyId')!;
    await page.getByRole('link', { name: 'Publish Survey' }).click();
    await page.getByRole('link', { name: 'Start Free Trial' }).click();
    await choosePlanAndPay(page);
    await page.getByRole('button', { name: 'Publish Survey' }).click();
    await page.waitForURL(/\/survey-published\//);
    const publicUrl = await notLivePublicUrl(page);
    await connectSquare(page, 'Main Street Cafe');

    const stamp = Date.now();
    await customerAnswers(publicUrl, true, `milk-js-${stamp}@example.com`);
    await customerAnswers(publicUrl, false, `milk-nojs-${stamp}@example.com`);

    // Without JavaScript the owner rewords the live question: each step is a post that keeps the form.
    const plain = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false, storageState: await owner.storageState() });
    const form = await plain.newPage();
    await form.goto(`${baseUrl}/survey-builder?surveyId=${surveyId}`);
    await form.getByRole('main').getByRole('button', { name: 'Edit question: Which milk do you take?' }).click();
    await form.getByRole('main').getByLabel('Question text').fill('Which milk would you like?');
    await form.getByRole('main').getByRole('button', { name: 'Save question' }).click();
    await form.getByText('Updated: Which milk would you like?').waitFor();
    expect(await form.getByLabel('Survey Title').inputValue()).toBe('Milk matters');
    await form.getByRole('button', { name: 'Save Survey & Review' }).click();
    await form.waitForURL(/\/survey-published\//);
    await plain.close();

    // Question Analysis: the two answers, under the current text, the old text named.
    await page.goto(`${baseUrl}/survey-analytics/${surveyId}?tab=questions`);
    const milk = page.getByTestId('question').filter({ has: page.getByRole('heading', { name: 'Which milk would you like?', exact: true }) });
    await milk.waitFor();
    await expect.poll(() => milk.textContent()).toMatch(/Answers\s*2/);
    expect(await milk.textContent()).toContain('Oat');
    expect(await milk.textContent()).toContain('Earlier asked as: “Which milk do you take?”');
    expect(errors).toEqual([]);
    await owner.close();
  }, 180_000);
});
