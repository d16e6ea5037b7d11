import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations } from './checks.ts';
import { publishSurvey, signUp } from './owner.ts';

// Issue 15, "their own brand": the owner sets a colour (a too-light one is refused with a
// suggestion) and a logo on /brand without JavaScript; customers see both on the survey.

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('an owner brands the survey', () => {
  it('sets a logo and a colour on a phone without JavaScript; the customer page wears them', async () => {
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    await signUp(page, 'Green Leaf Cafe');
    const { previewUrl } = await publishSurvey(page, 'How was lunch?');
    const state = await owner.storageState();
    await owner.close();

    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false, storageState: state });
    const plain = await phone.newPage();
    await plain.goto(`${baseUrl}/profile`);
    await plain.getByRole('link', { name: 'Your brand' }).click();
    await plain.waitForURL(/\/brand$/);
    await plain.getByLabel('Brand colour').fill('#ffd400');
    await plain.getByRole('button', { name: 'Save brand' }).click();
    await expect.poll(() => plain.getByText(/#ffd400 is too light for white text/).isVisible()).toBe(true);
    const suggestion = (await plain.locator('strong.font-mono').textContent())!;
    expect(suggestion).toMatch(/^#[0-9a-f]{6}$/);

    const logo = await sharp({ create: { width: 600, height: 200, channels: 4, background: { r: 20, g: 90, b: 60, alpha: 1 } } }).png().toBuffer();
    await plain.getByLabel('Brand colour').fill('#1f7a4d');
    await plain.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
    await plain.getByRole('button', { name: 'Save brand' }).click();
    await expect.poll(() => plain.getByText('Brand saved').first().isVisible()).toBe(true);
    // Visible once loaded (an image has no width before it loads).
    await plain.getByRole('img', { name: 'Green Leaf Cafe logo' }).waitFor({ state: 'visible' });
    await phone.close();

    // The owner's preview of the survey, as a customer sees it, on a phone with JavaScript.
    const customer = await browser.newContext({ viewport: { width: 360, height: 740 }, storageState: state });
    const survey = await customer.newPage();
    await survey.goto(previewUrl.startsWith('http') ? previewUrl : `${baseUrl}${previewUrl}`);
    await survey.getByRole('heading', { level: 1, name: 'How was lunch?' }).waitFor();
    const img = survey.getByRole('img', { name: 'Green Leaf Cafe logo' });
    await img.waitFor({ state: 'visible' });
    expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const button = survey.getByRole('button', { name: 'Continue for Higher Reward' });
    expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(31, 122, 77)');
    expect(await seriousAxeViolations(survey)).toEqual([]);
    await fitsWidth(survey, 360);
    await customer.close();
  });
});
