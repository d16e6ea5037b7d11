import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { toLastSection } from './customer.ts';
import { fillBuilder, openStep, publishSurvey, signUp } from './owner.ts';

/**
 * Issue 13 "Beyond" (ADR 066): on a server with a hosted vision key the owner may tick "Check
 * screenshots with a hosted AI service" in the builder; the survey then tells its customers, where
 * they upload, that their screenshots are sent to it. A survey that did not tick it says nothing.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function part3(previewUrl: string, storageState: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>, javaScriptEnabled: boolean) {
  const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled, storageState });
  const survey = await customer.newPage();
  await survey.goto(previewUrl);
  await toLastSection(survey);
  await survey.getByRole('heading', { name: 'Share Your Review' }).waitFor();
  const disclosures = await survey.getByTestId('vision-disclosure').allTextContents();
  await customer.close();
  return disclosures;
}

describe('hosted vision, by the owner’s choice', () => {
  it('the owner ticks it in the builder; customers are told where they upload, with and without JavaScript', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, 'Vision Bakery', 'visionbakery');
    const chosen = await publishSurvey(page, 'Read by the AI', undefined, async (builder) => {
      await openStep(builder, 'Basics');
      const box = builder.getByRole('checkbox', { name: 'Check screenshots with a hosted AI service (OpenAI)' });
      expect(await box.isChecked()).toBe(false);
      await box.check();
    });
    // A second survey, saved without the choice: its owner's preview is enough to see what customers see.
    await page.goto(chosen.previewUrl.replace(/\/s\/.*$/, '/survey-builder'));
    await fillBuilder(page, 'Read here');
    await page.getByRole('button', { name: /Save/ }).first().click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    const plain = { previewUrl: (await page.locator('a[href*="/s/"][href*="bypass_square=true"]').first().getAttribute('href'))! };
    const owner = await context.storageState();
    await context.close();

    for (const javaScriptEnabled of [true, false]) {
      const told = await part3(chosen.previewUrl, owner, javaScriptEnabled);
      expect(told).toHaveLength(1);
      expect(told[0]).toContain('sent to it to be read');
      expect(await part3(plain.previewUrl, owner, javaScriptEnabled)).toEqual([]);
    }
  }, 180_000);
});
