import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';
import { fillBuilder, openStep, signUp } from './owner.ts';

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

describe('an owner who translates their words (ADR 090), read by a customer in Spanish at 360 px', () => {
  it('the builder’s Spanish card (plain fields) stores the translation; the page shows it with and without JavaScript', async () => {
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    await signUp(page, 'Café Lengua', 'lengua');
    await page.goto(`${baseUrl}/survey-builder`);
    await fillBuilder(page, 'How was your visit?');
    // No language but the default ticked: no translation card shows.
    await openStep(page, 'Questions');
    const spanishTitle = page.locator('input[name="translations.es.title"]');
    const frenchTitle = page.locator('input[name="translations.fr.title"]');
    expect(await spanishTitle.isVisible()).toBe(false);
    // Ticking Spanish shows its card at once, before any save; French comes and goes with its box.
    await openStep(page, 'Basics');
    await page.locator('input[name="languages"][value="es"]').check();
    await page.locator('input[name="languages"][value="fr"]').check();
    await openStep(page, 'Questions');
    await spanishTitle.waitFor({ state: 'visible' });
    await frenchTitle.waitFor({ state: 'visible' });
    await openStep(page, 'Basics');
    await page.locator('input[name="languages"][value="fr"]').uncheck();
    await openStep(page, 'Questions');
    expect(await frenchTitle.isVisible()).toBe(false);
    expect(await page.locator('input[name="translations.en.title"]').isVisible()).toBe(false);
    await spanishTitle.fill('¿Qué tal tu visita?');
    await page.locator('input[name="translations.es.rewards.Gold"]').fill('Oro de la casa');
    await page.locator('input[name="translations.es.questions.recommend.text"]').fill('¿Nos recomendarías a tus amigos?');
    await page.locator('input[name="translations.es.questions.visit_frequency.options[0]"]').fill('Es mi primera vez');
    await fitsWidth(page, 1280);
    // The card on a phone: no sideways scrolling, no serious axe finding.
    await page.setViewportSize({ width: 360, height: 740 });
    await fitsWidth(page, 360);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByTestId('translations').screenshot({ path: '/tmp/i18n/builder-translations-360.png' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: /Save/ }).first().click();
    await page.waitForURL(/\/survey-preview\?surveyId=/);
    const surveyId = new URL(page.url()).searchParams.get('surveyId')!;
    // Without JavaScript the cards follow the boxes just the same (a stylesheet rule, ADR 090).
    const plain = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false, storageState: await owner.storageState() });
    const noJs = await plain.newPage();
    await noJs.goto(`${baseUrl}/survey-builder?surveyId=${surveyId}`);
    expect(await noJs.locator('input[name="translations.es.title"]').inputValue()).toBe('¿Qué tal tu visita?');
    expect(await noJs.locator('input[name="translations.es.title"]').isVisible()).toBe(true);
    expect(await noJs.locator('input[name="translations.de.title"]').isVisible()).toBe(false);
    await noJs.locator('input[name="languages"][value="de"]').check();
    expect(await noJs.locator('input[name="translations.de.title"]').isVisible()).toBe(true);
    await plain.close();
    await page.goto(`${baseUrl}/survey-preview?surveyId=${surveyId}`);
    const preview = await page.locator('a[href*="/s/"][href*="bypass_square=true"]').first().getAttribute('href');
    const state = await owner.storageState();
    await owner.close();

    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled, storageState: state, ...(javaScriptEnabled ? { isMobile: true, hasTouch: true } : {}) });
      const customer = await context.newPage();
      const errors = watchErrors(customer);
      await customer.goto(`${preview}&lang=es`);
      expect(await customer.getAttribute('html', 'lang')).toBe('es');
      await customer.getByRole('heading', { level: 1, name: '¿Qué tal tu visita?' }).waitFor();
      await customer.getByText('¿Nos recomendarías a tus amigos?').waitFor();
      expect(await customer.getByText('Oro de la casa').count()).toBeGreaterThan(0);
      if (javaScriptEnabled) await customer.getByRole('button', { name: 'Enviar ya' }).and(customer.locator('[disabled]')).waitFor({ timeout: 15_000 });
      await customer.screenshot({ path: `/tmp/i18n/translated-es-360-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true });
      // The owner's option label in Spanish, the value the owner's option.
      const firstTime = customer.locator('label:has(input[name="visit_frequency"][value="First time"])');
      expect(await firstTime.textContent()).toContain('Es mi primera vez');
      await fitsWidth(customer, 360);
      if (javaScriptEnabled) expect(await seriousAxeViolations(customer)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
