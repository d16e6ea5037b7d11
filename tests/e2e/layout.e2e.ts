import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth } from './checks.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('owner pages on a 360 px phone', () => {
  it('never scroll sideways, even with a long business name and survey title', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    const signup = await page.request.post(`${baseUrl}/api/auth/signup`, {
      data: { email: `narrow-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'A Very Long Business Name For A Small Phone Screen Cafe', terms: true },
    });
    expect(signup.status()).toBe(201);
    const created = await page.request.post(`${baseUrl}/api/survey/builder-config`, {
      data: {
        title: 'A survey with a rather long title that keeps going and going',
        rewardMode: 'preset_2',
        redemptionWebsite: 'https://example.com',
        surveyFrequencyDays: 90,
        selectedReviewPlatforms: ['google'],
        reviewUrls: { google: 'https://g.page/r/example/review' },
        selectedSocialPlatforms: ['x'],
        socialHandles: { x: '@example' },
      },
    });
    const { id } = (await created.json()) as { id: string };
    for (const path of ['/', '/profile', '/survey-builder', `/survey-builder?surveyId=${id}`, `/survey-preview?surveyId=${id}`, `/subscription-check?surveyId=${id}`, '/survey-management', `/survey-published/${id}`, '/rewards', '/terms']) {
      await page.goto(`${baseUrl}${path}`);
      await fitsWidth(page, 360);
    }
    await context.close();
  });
});

describe('the owner navigation', () => {
  const signUpByApi = async (page: import('playwright-core').Page, name: string) => {
    const res = await page.request.post(`${baseUrl}/api/auth/signup`, {
      data: { email: `nav-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: name, terms: true },
    });
    expect(res.status()).toBe(201);
  };
  const main = (page: import('playwright-core').Page) => page.getByRole('navigation', { name: 'Main' });

  it('on a laptop: every owner page shows the sections with the current one marked', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUpByApi(page, 'Nav Cafe');
    for (const [path, current] of [
      ['/', '/'],
      ['/survey-management', '/survey-management'],
      ['/survey-builder', '/survey-management'],
      ['/rewards', '/rewards'],
      ['/profile', '/profile'],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      const marked = main(page).locator('[aria-current="page"]:visible');
      expect(await marked.count(), path).toBe(1);
      expect(await marked.getAttribute('href'), path).toBe(current);
    }
    await main(page).getByRole('link', { name: 'Gift Cards' }).click();
    await page.waitForURL(/\/rewards$/);
    await context.close();
  });

  it.each([
    ['with JavaScript', true],
    ['without JavaScript', false],
  ])('on a 360 px phone the sections fold into a menu, %s', async (_label, javaScriptEnabled) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await signUpByApi(page, 'Phone Nav Bakery');
    await page.goto(`${baseUrl}/`);
    const surveys = main(page).getByRole('link', { name: 'Surveys', exact: true });
    expect(await surveys.isVisible()).toBe(false);
    await main(page).getByText('Menu').click();
    expect(await surveys.isVisible()).toBe(true);
    await surveys.click();
    await page.waitForURL(/\/survey-management$/);
    // With JavaScript the URL changes a moment before the navigation re-renders: wait for the mark, never read it once.
    await expect.poll(() => main(page).locator('[aria-current="page"]').first().getAttribute('href')).toBe('/survey-management');
    if (javaScriptEnabled) await fitsWidth(page, 360);
    await context.close();
  });
});
