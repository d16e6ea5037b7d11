import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';

// Issue 30, ADR 084: the customer page in the customer's language, in Chromium at 360 px. The
// island hydrates Spanish after loading i18next as a chunk of its own (a top-level await there once
// deadlocked: the page rendered but never hydrated, with no error anywhere).

const baseUrl = inject('baseUrl');
const demo = (lang: string) => `${baseUrl}/survey/preview?demo=true&lang=${lang}`;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe('a customer who reads Spanish', () => {
  it('with JavaScript: the page hydrates in Spanish, refuses in Spanish without a request, and switches language by its links', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await page.goto(demo('es'));
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    // Hydrated: 'Enviar ya' (Submit Early) waits for the rating only once React runs.
    await page.getByRole('button', { name: 'Enviar ya' }).and(page.locator('[disabled]')).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Continuar para una recompensa mayor' }).click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Valora tu experiencia general para continuar.');
    expect(posts).toEqual([]);
    await page.locator('label:has(input[name="overall_rating"][value="5"])').click();
    expect(await page.getByTestId('points').textContent()).toBe('2 puntos');
    await fitsWidth(page, 360);
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The switcher: a disclosure of plain links.
    await page.getByTestId('language-switcher').locator('summary').click();
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await page.waitForURL(/lang=de/);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await page.getByRole('heading', { name: 'Ihr Besuch' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('without JavaScript: the server answers each post in Spanish', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(demo('es'));
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    await page.getByRole('button', { name: 'Continuar para una recompensa mayor' }).click();
    await page.getByText('Valora tu experiencia general para continuar.').first().waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    await page.locator('label:has(input[name="overall_rating"][value="5"])').click();
    await page.getByRole('button', { name: 'Continuar para una recompensa mayor' }).click();
    await page.getByRole('heading', { name: 'Los detalles' }).waitFor();
    await fitsWidth(page, 360);
    await context.close();
  });
});
