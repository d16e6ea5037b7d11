import { readFile } from 'node:fs/promises';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { surveyBody } from '../setup/factories.ts';
import { choosePlanAndPay, connectSquare, fillBuilder, notLivePublicUrl, openStep, signUp, submitSignUp } from './owner.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Decodes the QR code in a PNG (downscaled first: the flyer is 2550x3300). */
async function decodeQr(png: Buffer): Promise<string | null> {
  const image = await loadImage(png);
  const scale = Math.min(1, 1000 / image.width);
  const canvas = createCanvas(Math.round(image.width * scale), Math.round(image.height * scale));
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return jsQR(new Uint8ClampedArray(data), width, height)?.data ?? null;
}

describe('an owner builds, publishes and shares a survey', () => {
  it('with JavaScript: build, preview, free trial with the fake card, publish, copy URL, flyer, switch off', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signUp(page, 'Crumb Co');

    await page.getByRole('link', { name: 'Build your first survey' }).click(); // a new owner's one first step (ADR 083)
    await page.waitForURL(/\/survey-builder$/);
    // The side panel follows the platforms chosen.
    const before = Number(await page.getByTestId('max-points').textContent());
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    // Stopped in the browser: the first step with a problem opens with its field focused (ADR 093).
    await expect.poll(() => page.getByText('Title is required').isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
    await openStep(page, 'Where to review and follow');
    expect(await page.getByText('Select at least one review platform').isVisible()).toBe(true);
    await fillBuilder(page, 'Spring feedback');
    await expect.poll(async () => Number(await page.getByTestId('max-points').textContent())).toBeGreaterThan(before);
    await openStep(page, 'Questions');
    await page.getByRole('button', { name: /Remove question: Would you recommend us/ }).click();
    await expect.poll(async () => page.getByTestId('removed-questions').textContent()).toBe('1');
    await page.getByRole('button', { name: /Restore question: Would you recommend us/ }).click();
    await expect.poll(async () => page.getByTestId('removed-questions').textContent()).toBe('0');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();

    await page.waitForURL(/\/survey-preview\?surveyId=/);
    await expect.poll(() => page.getByText('Draft', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('$8.00').first().isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Publish Survey' }).click();
    await page.waitForURL(/\/subscription-check/);
    await expect.poll(() => page.getByRole('heading', { name: 'Ready to Publish?' }).isVisible()).toBe(true);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('No subscription');
    await page.getByRole('link', { name: 'Start Free Trial' }).click();
    await choosePlanAndPay(page);
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Free trial');
    await page.getByRole('button', { name: 'Publish Survey' }).click();

    await page.waitForURL(/\/survey-published\/[\w-]+$/);
    // Square is not connected yet: published, not live; no link, QR code or flyer leads to 'Survey Not Found' (issue 27 item 7).
    await expect.poll(() => page.getByText('Published, not live yet').isVisible()).toBe(true);
    const surveyId = page.url().split('/').pop()!;
    await notLivePublicUrl(page);
    await page.goto(`${baseUrl}/survey-management`);
    expect(await page.getByTestId('availability').first().textContent()).toBe('Unavailable');
    await connectSquare(page, 'Main Street Cafe');
    await page.goto(`${baseUrl}/survey-published/${surveyId}`);
    // The short link (ADR 082): no UUID in it, nor anywhere the page shows; it leads to this survey's public path.
    const publicUrl = await page.getByLabel('Public survey URL').inputValue();
    expect(publicUrl).toMatch(new RegExp(`^${baseUrl}/s/[a-z2-9]{9}$`));
    expect(await page.locator('body').innerText()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    const followed = await page.request.get(publicUrl, { maxRedirects: 0 });
    expect(followed.status()).toBe(302);
    expect(followed.headers().location).toMatch(new RegExp(`^/survey/public/[\\w-]+/${surveyId}$`));
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await expect.poll(() => page.getByText('URL Copied').isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download Promotional Material' }).click()]);
    expect(download.suggestedFilename()).toBe('spring-feedback-flyer.png');
    const flyer = await readFile((await download.path())!);
    expect(await decodeQr(flyer)).toBe(publicUrl);

    await page.goto(`${baseUrl}/survey-management`);
    const badge = page.getByTestId('availability').first();
    await expect.poll(() => badge.textContent()).toBe('Available');
    await page.getByRole('switch', { name: 'Spring feedback active' }).click();
    await expect.poll(() => badge.textContent()).toBe('Inactive');
    await expect.poll(() => page.getByTestId('toast').first().textContent()).toContain('Survey Updated');
    // The switch is saved, not only shown.
    await page.waitForLoadState('networkidle');
    await page.reload();
    expect(await page.getByTestId('availability').first().textContent()).toBe('Inactive');
    expect(await page.getByRole('switch', { name: 'Spring feedback active' }).getAttribute('aria-checked')).toBe('false');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript: the builder saves with real form posts and shows errors inline', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signUp(page, 'NoJS Cafe');
    await page.goto(`${baseUrl}/survey-builder`);
    await page.getByLabel('Survey Title').fill('Plain form survey');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await expect.poll(() => page.getByText('Select at least one review platform').isVisible()).toBe(true);
    expect(await page.getByLabel('Survey Title').inputValue()).toBe('Plain form survey');
    await fillBuilder(page, 'Plain form survey');
    await page.getByRole('radio', { name: /Custom/ }).check();
    await page.getByLabel('Bronze ($, minimum 1)').fill('2');
    await page.getByLabel('Silver ($, minimum 2)').fill('5');
    await page.getByLabel('Gold ($, minimum 3)').fill('12');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    expect(await page.getByText('$12.00').first().isVisible()).toBe(true);
    await context.close();
  });

  it('without JavaScript: after a refused save every field comes back as typed', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await signUp(page, 'Kept Input Cafe');
    await page.goto(`${baseUrl}/survey-builder`);
    await page.getByLabel('Survey Title').fill('Everything I typed');
    await page.getByRole('radio', { name: /High/ }).check();
    await page.getByLabel('How often can a customer submit?').selectOption('180');
    await page.getByLabel('Redemption website').fill('crumbandco.com');
    await page.getByRole('checkbox', { name: 'Google' }).check();
    await page.getByRole('checkbox', { name: 'Yelp' }).check();
    await page.getByLabel('Yelp review URL').fill('https://yelp.com/biz/crumb');
    await page.getByRole('checkbox', { name: 'Instagram' }).check();
    await page.getByLabel('Instagram handle').fill('@crumbandco');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await expect.poll(() => page.getByText('URL required for selected platform').isVisible()).toBe(true);
    expect(await page.getByLabel('Survey Title').inputValue()).toBe('Everything I typed');
    expect(await page.getByRole('radio', { name: /High/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /Middle/ }).isChecked()).toBe(false);
    expect(await page.getByLabel('How often can a customer submit?').inputValue()).toBe('180');
    expect(await page.getByLabel('Redemption website').inputValue()).toBe('crumbandco.com');
    expect(await page.getByRole('checkbox', { name: 'Google' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Yelp' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Facebook' }).first().isChecked()).toBe(false);
    expect(await page.getByLabel('Yelp review URL').inputValue()).toBe('https://yelp.com/biz/crumb');
    expect(await page.getByRole('checkbox', { name: 'Instagram' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Instagram handle').inputValue()).toBe('@crumbandco');
    // Fixing the one field saves the survey with the rest as typed.
    await page.getByLabel('Google review URL').fill('https://g.page/r/crumb/review');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    expect(await page.getByText('$15.00').first().isVisible()).toBe(true);
    // Saving an existing survey goes to its published page (spec section 4).
    const surveyId = new URL(page.url()).searchParams.get('surveyId');
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Survey Title').fill('Everything I typed, edited');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await page.waitForURL(new RegExp(`/survey-published/${surveyId}$`));
    await expect.poll(() => page.getByText('Survey Updated').first().isVisible()).toBe(true);
    // The switch without JavaScript answers with the same toast.
    await page.goto(`${baseUrl}/survey-management`);
    await page.getByRole('switch', { name: 'Everything I typed, edited active' }).click();
    await expect.poll(() => page.getByText('Survey Updated').first().isVisible()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Everything I typed, edited active' }).getAttribute('aria-checked')).toBe('false');
    await context.close();
  });

  it('a visitor builds while logged out, signs up, and the draft is saved to the new account', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/survey-builder`);
    await fillBuilder(page, 'Built before signing up');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await expect.poll(() => page.getByText('Your survey is saved in this browser.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Sign up' }).first().click();
    await page.waitForURL(/\/auth\?mode=signup/);
    await submitSignUp(page, 'Later Cafe', `later-${Date.now()}@example.com`);
    await page.waitForURL(/\/subscription-check\?surveyId=/);
    await expect.poll(() => page.getByText('Built before signing up').isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('rewardloop:surveyBuilderDraft'))).toBeNull();
    await context.close();
  });
});

describe('archive and duplicate from Manage Surveys', () => {
  it.each([
    ['with JavaScript at 1280 px', true, 1280],
    ['without JavaScript at 360 px', false, 360],
  ])('%s', async (_label, javaScriptEnabled, width) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signUp(page, `Archive ${javaScriptEnabled ? 'JS' : 'Plain'} Cafe`);
    const created = await page.request.post(`${baseUrl}/api/survey/builder-config`, { data: surveyBody({ title: 'Winter menu' }) });
    expect(created.status()).toBe(201);
    await page.goto(`${baseUrl}/survey-management`);
    // Never published: Draft, with the way to publish it.
    expect(await page.getByTestId('availability').first().textContent()).toBe('Draft');
    expect(await page.getByRole('link', { name: 'Publish it' }).first().getAttribute('href')).toMatch(/^\/subscription-check\?surveyId=/);
    await page.getByRole('button', { name: 'Duplicate Winter menu' }).click();
    await page.waitForURL(/\/survey-builder\?surveyId=/);
    expect(await page.getByLabel('Survey Title').inputValue()).toBe('Copy of Winter menu');
    await expect.poll(() => page.getByText('Survey Duplicated').first().isVisible()).toBe(true);

    await page.goto(`${baseUrl}/survey-management`);
    // Asked first (issue 27 item 13): the confirm step, with and without JavaScript.
    await page.getByRole('link', { name: 'Archive Winter menu' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Archive Winter menu?' });
    await dialog.waitFor();
    await dialog.getByRole('link', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Without JavaScript Cancel is a link: the dialog goes with the old page before the new one has painted.
    await page.getByRole('heading', { name: 'Winter menu', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Archive Winter menu' }).click();
    await page.getByRole('alertdialog', { name: 'Archive Winter menu?' }).getByRole('button', { name: 'Yes, Archive' }).click();
    await expect.poll(() => page.getByText('Survey Archived').first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Winter menu', exact: true }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Copy of Winter menu' }).isVisible()).toBe(true);
    await page.getByText('Archived surveys (1)').click();
    await page.getByRole('button', { name: 'Restore Winter menu' }).click();
    await expect.poll(() => page.getByText('Survey Restored').first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Winter menu', exact: true }).isVisible()).toBe(true);
    await context.close();
  });
});
