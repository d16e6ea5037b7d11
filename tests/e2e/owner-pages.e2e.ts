import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';
import { connectSquare, publishSurvey, signUp } from './owner.ts';

/**
 * Issue 27: every owner page at 360 and 1280 px, with and without JavaScript, has no serious or
 * critical axe finding and no sideways scrolling. Two owners: one with a published survey, Square
 * connected and customers' responses (every page with data), and one just signed up (the empty
 * states and the way to a plan). E2E_SCREENSHOT_DIR=… keeps a full-page screenshot of each view.
 */

const baseUrl = inject('baseUrl');
const screenshotDir = process.env.E2E_SCREENSHOT_DIR;
const widths = [1280, 360] as const;
const modes = [
  ['with JavaScript', true],
  ['without JavaScript', false],
] as const;

let browser: Browser;
/** The signed-in cookies of the owner with data and of the new owner. */
let busy: Awaited<ReturnType<BrowserContext['storageState']>>;
let fresh: Awaited<ReturnType<BrowserContext['storageState']>>;
let surveyId = '';
let responseId = '';
let portalPath = '';
let checkoutPath = '';

/** One customer's answers through the public API, from a visitor of their own (the rate limits are per address). */
async function customerAnswers(businessId: string, answers: Record<string, unknown>, name: string): Promise<string> {
  const context = await browser.newContext();
  const res = await context.request.post(`${baseUrl}/api/survey/submit/${businessId}/${surveyId}`, {
    data: { responses: answers, customerEmail: `${name.toLowerCase().replace(/\W/g, '')}-${Date.now()}@example.com`, customerName: name },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { responseId: id } = (await res.json()) as { responseId: string };
  await context.close();
  return id;
}

beforeAll(async () => {
  browser = await launchBrowser();
});

/** The two owners and their data, made once by the first test that needs them (expect.poll works only inside a test). */
let prepared: Promise<void> | null = null;
const prepare = () => (prepared ??= makeOwners());

async function makeOwners() {
  // The owner with data: a published survey, Square connected, three customers' answers.
  const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await owner.newPage();
  await signUp(page, 'Lantern Coffee House', 'pages');
  const { publicUrl } = await publishSurvey(page, 'How was your visit?');
  await connectSquare(page, 'Main Street Cafe');
  const landing = await fetch(publicUrl, { redirect: 'manual' });
  const [, businessId, id] = /\/survey\/public\/([0-9a-f-]{36})\/([0-9a-f-]{36})/.exec(landing.headers.get('location') ?? '') ?? [];
  expect(id, 'the short link leads to the public path').toBeTruthy();
  surveyId = id!;
  responseId = await customerAnswers(
    businessId!,
    { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 4, favorite_item: 'The cardamom bun', atmosphere_rating: 5, value_rating: 4, improvement_suggestions: 'More seats by the window' },
    'Ana Pereira',
  );
  await customerAnswers(businessId!, { overall_rating: 3, recommend: 'no', visit_frequency: 'Weekly', service_rating: 2 }, 'Ben Okafor');
  await customerAnswers(businessId!, { overall_rating: 4, recommend: 'yes', visit_frequency: 'Weekly' }, 'Chloe Martin');
  const portal = await page.request.post(`${baseUrl}/api/stripe/create-portal-session`, { data: {} });
  expect(portal.status(), await portal.text()).toBe(200);
  const portalUrl = new URL(((await portal.json()) as { url: string }).url, baseUrl);
  portalPath = portalUrl.pathname + portalUrl.search;
  busy = await owner.storageState();
  await owner.close();

  // The owner just signed up: no survey, no plan; a plan chosen opens the (fake) checkout.
  const newcomer = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const newPage = await newcomer.newPage();
  await signUp(newPage, 'Fern & Fig Tea Room', 'pages-new');
  await newPage.goto(`${baseUrl}/subscription-plans`);
  await newPage.getByRole('button', { name: /^(Start \d+-Day Free Trial|Subscribe): Starter,/ }).click();
  await newPage.waitForURL(/\/stripe-checkout\?/);
  checkoutPath = new URL(newPage.url()).pathname + new URL(newPage.url()).search;
  fresh = await newcomer.storageState();
  await newcomer.close();
}

afterAll(async () => {
  await browser?.close();
});

/** Every owner page (app/routes), the owner whose view it is, and the heading that says the page has rendered. */
const pages: Array<{ name: string; path: () => string; who: 'busy' | 'fresh' }> = [
  { name: 'home', path: () => '/', who: 'busy' },
  { name: 'home, new owner', path: () => '/', who: 'fresh' },
  { name: 'dashboard', path: () => '/dashboard', who: 'busy' },
  { name: 'survey builder, new survey', path: () => '/survey-builder', who: 'busy' },
  { name: 'survey builder, a saved survey', path: () => `/survey-builder?surveyId=${surveyId}`, who: 'busy' },
  { name: 'survey preview', path: () => `/survey-preview?surveyId=${surveyId}`, who: 'busy' },
  { name: 'survey management', path: () => '/survey-management', who: 'busy' },
  { name: 'survey management, empty', path: () => '/survey-management', who: 'fresh' },
  { name: 'survey published', path: () => `/survey-published/${surveyId}`, who: 'busy' },
  { name: 'survey published, latest', path: () => '/survey-published', who: 'busy' },
  { name: 'survey published, none yet', path: () => '/survey-published', who: 'fresh' },
  { name: 'subscription check', path: () => `/subscription-check?surveyId=${surveyId}`, who: 'busy' },
  { name: 'analytics, all surveys', path: () => '/survey-analytics', who: 'busy' },
  { name: 'analytics, empty', path: () => '/survey-analytics', who: 'fresh' },
  { name: 'analytics, responses', path: () => `/survey-analytics/${surveyId}`, who: 'busy' },
  { name: 'analytics, distribution', path: () => `/survey-analytics/${surveyId}?tab=distribution`, who: 'busy' },
  { name: 'analytics, questions', path: () => `/survey-analytics/${surveyId}?tab=questions`, who: 'busy' },
  { name: 'analytics, gift cards', path: () => `/survey-analytics/${surveyId}?tab=giftcards`, who: 'busy' },
  { name: 'analytics, funnel', path: () => `/survey-analytics/${surveyId}?tab=funnel`, who: 'busy' },
  { name: 'a response', path: () => `/survey-analytics/responses/${responseId}`, who: 'busy' },
  { name: 'rewards', path: () => '/rewards', who: 'busy' },
  { name: 'rewards, empty', path: () => '/rewards', who: 'fresh' },
  { name: 'brand', path: () => '/brand', who: 'busy' },
  { name: 'profile', path: () => '/profile', who: 'busy' },
  { name: 'subscription plans', path: () => '/subscription-plans', who: 'busy' },
  { name: 'subscription plans, new owner', path: () => '/subscription-plans', who: 'fresh' },
  { name: 'subscription details', path: () => '/subscription-details', who: 'busy' },
  { name: 'billing portal', path: () => portalPath, who: 'busy' },
  { name: 'checkout', path: () => checkoutPath, who: 'fresh' },
  { name: 'square connect', path: () => '/square-connect', who: 'busy' },
  { name: 'square consent (demo)', path: () => '/api/square/auth', who: 'fresh' },
  { name: 'square location selection', path: () => '/square-location-selection', who: 'busy' },
  { name: 'email verified', path: () => '/email-verified', who: 'busy' },
];

/**
 * Without JavaScript axe cannot run in the page (axe is a script; Playwright's evaluate waits for a
 * script context that never comes). So the HTML the no-JavaScript browser got is served, its scripts
 * removed and its <noscript> content kept, to a page that runs scripts at the same address with the
 * same stylesheets, and axe, the width check and the screenshot look at that.
 */
async function asLoadedWithoutScripts(inspector: Page, url: string, html: string) {
  const body = html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
    .replace(/<noscript>/gi, '<div>')
    .replace(/<\/noscript>/gi, '</div>');
  await inspector.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body }));
  await inspector.goto(url);
  await inspector.unroute(url);
}

async function shoot(page: Page, name: string) {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `${name.replace(/\W+/g, '-')}.png`), fullPage: true });
}

describe('every owner page at 360 and 1280 px, with and without JavaScript', () => {
  it.each(pages)('$name: no serious axe finding, no sideways scrolling', { timeout: 240_000 }, async ({ name, path: pathOf, who }) => {
    await prepare();
    const findings: Record<string, string[]> = {};
    for (const [mode, javaScriptEnabled] of modes) {
      const state = who === 'busy' ? busy : fresh;
      const context = await browser.newContext({ javaScriptEnabled, storageState: state, viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const problems = watchErrors(page);
      const inspector = javaScriptEnabled ? page : await (await browser.newContext({ storageState: state })).newPage();
      for (const width of widths) {
        await page.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        if (!javaScriptEnabled) await inspector.setViewportSize({ width, height: width === 360 ? 740 : 900 });
        const res = await page.goto(`${baseUrl}${pathOf()}`);
        expect(res?.status(), `${name} ${mode}: ${page.url()}`).toBeLessThan(400);
        // Signed in, never sent to the sign-in page.
        expect(new URL(page.url()).pathname, name).not.toBe('/auth');
        await page.locator('h1').first().waitFor();
        if (javaScriptEnabled) await page.waitForLoadState('networkidle');
        else {
          await asLoadedWithoutScripts(inspector, page.url(), await res!.text());
          // The inspector shows the page the no-JavaScript browser got, not something else.
          expect(await inspector.locator('h1').first().textContent(), name).toBe(await page.locator('h1').first().textContent());
        }
        const view = `${name} ${mode} at ${width}`;
        findings[view] = await seriousAxeViolations(inspector);
        if (findings[view].length) console.log(view, findings[view]);
        await fitsWidth(inspector, width);
        await shoot(inspector, view);
      }
      expect(problems, `${name} ${mode}: errors in the browser`).toEqual([]);
      if (inspector !== page) await inspector.context().close();
      await context.close();
    }
    expect(findings).toEqual(Object.fromEntries(Object.keys(findings).map((view) => [view, []])));
  });
});
