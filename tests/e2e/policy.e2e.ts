import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { publishSurvey, signUp } from './owner.ts';

/**
 * Issue 14 (ADR 040): the owner picks the review policy in the builder, with the rules in plain
 * words and the Google warning beside it; under "Ask every customer" a customer who rates 2 stars
 * is offered the review step, and the page says what is rewarded.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('review policy', () => {
  it('an owner picks "Ask every customer"; a 2-star customer is offered the review, with and without JavaScript', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, 'Fair Grounds Cafe', 'fairgrounds');
    const { previewUrl } = await publishSurvey(page, 'Fair and square', undefined, async (builder) => {
      const main = builder.getByRole('main');
      // The rules beside the choice, and the warning for Google (chosen by fillBuilder).
      await main.getByText('Who is asked to review and follow you').waitFor();
      expect(await main.getByText(/16 CFR 465\.4/).count()).toBeGreaterThan(0);
      await main.getByTestId('platform-policy-warning').waitFor();
      expect(await main.getByTestId('platform-policy-warning').textContent()).toContain("Google's policy does not allow offering anything in exchange for a review");
      // Rating-routed with Google and Instagram is allowed; the owner switches to the safe choice.
      await main.getByRole('radio', { name: /Rating-routed \(as specified\)/ }).check();
      await expect.poll(() => main.getByRole('radio', { name: /Rating-routed/ }).isChecked()).toBe(true);
      await main.getByRole('radio', { name: /Ask every customer/ }).check();
      await expect.poll(() => builder.getByText('Every customer, whatever the rating').count()).toBe(1);
    });
    const ownerState = await context.storageState();
    await context.close();

    for (const javaScriptEnabled of [true, false]) {
      const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled, storageState: ownerState });
      const survey = await customer.newPage();
      await survey.goto(previewUrl);
      const disclosure = survey.getByTestId('incentive-disclosure');
      await disclosure.waitFor();
      expect(await disclosure.textContent()).toContain('Any honest opinion counts');
      expect(await disclosure.textContent()).toContain('Every customer is offered the same steps, whatever their rating.');
      await survey.locator('label', { has: survey.locator('input[name="overall_rating"][value="2"]') }).click();
      await survey.getByRole('button', { name: 'Continue for Higher Reward' }).click();
      await survey.getByText('Section 2 of 3').waitFor();
      await survey.getByRole('button', { name: 'Continue for Higher Reward' }).click();
      await survey.getByText('Section 3 of 3').waitFor();
      await survey.getByRole('heading', { name: 'Share Your Review' }).waitFor();
      await expect.poll(() => survey.getByRole('link', { name: /Write a review on Google/ }).count()).toBe(1);
      await expect.poll(() => survey.getByRole('heading', { name: 'Help Us Improve' }).count()).toBe(1);
      await expect.poll(() => survey.getByLabel('Screenshot of your review').count()).toBe(1);
      await customer.close();
    }
  }, 120_000);
});
