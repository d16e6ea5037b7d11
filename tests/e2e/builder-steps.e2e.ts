import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';
import { fillBuilder, openStep, signUp } from './owner.ts';

/**
 * The builder as five steps (issue 27, ADR 089, ADR 093): one form, a step navigation with each
 * step's state in words, a summary of points and tiers from the same check the save refuses on (a
 * sticky side panel on a laptop, a bar at the bottom of a phone). With JavaScript one step at a time;
 * without, one long page. A refused save opens at the step to fix (with JavaScript, focus on its
 * field; without, the step's heading autofocused), nothing typed lost.
 */
const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Builder steps' });
const stepLink = (page: Page, label: string) => nav(page).getByRole('link', { name: new RegExp(`^Step \\d: ${label}`) });
/** The steps shown: with JavaScript the open one, without it all five. */
const shownSteps = (page: Page) => page.locator('form section[data-step]').evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => e.id));
/** Whether the element is in the window (top inside it). */
const inView = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const r = document.querySelector(sel)!.getBoundingClientRect();
    return r.top >= 0 && r.top < window.innerHeight;
  }, selector);

describe('the builder in steps', () => {
  it.each([
    ['with JavaScript at 1280 px', true, 1280],
    ['without JavaScript at 360 px', false, 360],
  ])('%s: five steps in order, an unfair save refused at Rewards, everything kept, then saved', async (_label, javaScriptEnabled, width) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: width > 800 ? 900 : 740 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors = watchErrors(page);
    await signUp(page, `Steps ${javaScriptEnabled ? 'JS' : 'Plain'} Cafe`);
    await page.goto(`${baseUrl}/survey-builder`);
    expect(await nav(page).getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^.?Step 1: Basics\(To do\)$/),
      expect.stringMatching(/^.?Step 2: Rewards\(Done\)$/),
      expect.stringMatching(/^.?Step 3: Questions\(Done\)$/),
      expect.stringMatching(/^.?Step 4: Where to review and follow\(To do\)$/),
      expect.stringMatching(/^.?Step 5: Review and publish$/),
    ]);
    // Each step is a section of the one form, in order.
    const sections = await page.locator('form section[id^="step-"]').evaluateAll((els) => els.map((e) => e.id));
    expect(sections).toEqual(['step-basics', 'step-rewards', 'step-questions', 'step-platforms', 'step-review']);
    if (javaScriptEnabled) {
      // One step at a time: Basics first; Next opens Rewards, Back returns; the others stay in the form.
      await expect.poll(() => shownSteps(page)).toEqual(['step-basics']);
      expect(await nav(page).locator('[aria-current="step"]').textContent()).toContain('Basics');
      await page.getByRole('link', { name: 'Next: Rewards' }).click();
      await expect.poll(() => shownSteps(page)).toEqual(['step-rewards']);
      expect(await page.evaluate(() => [location.hash, document.activeElement?.id])).toEqual(['#step-rewards', 'step-rewards-title']);
      await page.getByRole('link', { name: 'Back: Basics' }).click();
      await expect.poll(() => shownSteps(page)).toEqual(['step-basics']);
      expect(await page.locator('form input[name="tierGold"]').count()).toBe(1);
    } else {
      expect(await shownSteps(page)).toEqual(sections);
    }
    await fitsWidth(page, width);
    // axe runs in the page: with JavaScript only (owner-pages.e2e.ts checks the page as served without it).
    if (javaScriptEnabled) expect(await seriousAxeViolations(page)).toEqual([]);

    await fillBuilder(page, 'Stepped survey');
    // Gold that everyone reaches without sharing: the save refuses it.
    await openStep(page, 'Rewards');
    await page.getByLabel('Gold (points)', { exact: true }).fill('17');
    if (javaScriptEnabled) {
      // The summary and the step say so before any save (one report).
      await expect.poll(() => page.getByTestId('reachable-tiers').textContent()).toContain('Needs a fix');
      await expect.poll(() => stepLink(page, 'Rewards').textContent()).toContain('Needs a fix');
      // A link to a step goes there, and the address names it.
      await stepLink(page, 'Review and publish').click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#step-review');
      expect(await page.getByTestId('survey-in-words').textContent()).toContain('Stepped survey');
      expect(await shownSteps(page)).toEqual(['step-review']);
    } else {
      // Saved from the top of the page: the answer must not open there.
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await expect.poll(() => stepLink(page, 'Rewards').textContent()).toContain('Needs a fix');
    expect(await page.getByTestId('not-saved').textContent()).toContain('Rewards (1 problem)');
    expect(await page.getByTestId('step-rewards').getByTestId('step-problems').isVisible()).toBe(true);
    if (javaScriptEnabled) {
      // Opened at the step to fix, alone, focus on the field to fix, the address naming the step.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('tierGold');
      expect(await shownSteps(page)).toEqual(['step-rewards']);
      expect(await page.evaluate(() => location.hash)).toBe('#step-rewards');
    } else {
      // A new page (400) without a fragment: it opens at the step to fix, its heading autofocused, in the window.
      expect(await page.evaluate(() => [location.hash, document.activeElement?.id])).toEqual(['', 'step-rewards-title']);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      expect(await inView(page, '#step-rewards-title')).toBe(true);
    }
    // Nothing typed was lost.
    expect(await page.getByLabel('Survey Title').inputValue()).toBe('Stepped survey');
    expect(await page.getByLabel('Google review URL').inputValue()).toBe('https://g.page/r/crumb/review');
    expect(await page.getByLabel('Gold (points)', { exact: true }).inputValue()).toBe('17');

    await page.getByLabel('Gold (points)', { exact: true }).fill('25');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    // The refused save's 400 is the only thing the console reports.
    expect(errors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('on a 360 px phone the summary is a bar at the bottom that opens', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signUp(page, 'Phone Steps Cafe');
    await page.goto(`${baseUrl}/survey-builder`);
    const bar = page.getByTestId('summary-bar');
    const box = (await bar.boundingBox())!;
    expect(Math.round(box.y + box.height)).toBe(740);
    expect(await bar.textContent()).toMatch(/\d+ points · Bronze 5\+, Silver 8\+, Gold \d+\+/);
    await bar.locator('summary').click();
    await expect.poll(() => bar.getByText('available to a customer who answers everything and shares').isVisible()).toBe(true);
    expect(await bar.getByRole('listitem').first().textContent()).toMatch(/^Bronze \(5\+ points\)(Reachable|Needs a fix|Out of reach)$/);
    await context.close();
  });
});
