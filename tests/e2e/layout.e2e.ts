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
