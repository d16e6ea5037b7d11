import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';

const baseUrl = inject('baseUrl');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.2 AA, UX.md). */
async function seriousAxeViolations(page: Page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
}

function watchErrors(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return problems;
}

async function signUp(page: Page, name: string) {
  await page.goto(`${baseUrl}/auth?mode=signup`);
  await page.getByLabel('Business Name').fill(name);
  await page.getByLabel('Email address').fill(`square-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByLabel('Confirm Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('checkbox', { name: /I agree/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: `Welcome, ${name}` }).waitFor({ timeout: 15_000 });
}

/** Builds, starts the free trial for and publishes a survey; returns its public URL (absolute, without bypass_square). */
async function publishSurvey(page: Page): Promise<string> {
  await page.goto(`${baseUrl}/survey-builder`);
  await page.getByLabel('Survey Title').fill('Tell us about your visit');
  await page.getByLabel('Redemption website').fill('demo-coffee.example');
  await page.getByRole('checkbox', { name: 'Google' }).check();
  await page.getByLabel('Google review URL').fill('https://g.page/r/democoffee/review');
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByLabel('Instagram handle').fill('@democoffee');
  await page.getByRole('button', { name: /Save/ }).first().click();
  await page.waitForURL(/\/survey-preview\?surveyId=/);
  await page.getByRole('link', { name: 'Publish Survey' }).click();
  await page.getByRole('button', { name: 'Start Free Trial' }).click();
  await page.getByRole('button', { name: 'Publish Survey' }).click();
  await page.waitForURL(/\/survey-published\//);
  const href = await page.getByRole('link', { name: 'View Live Survey' }).getAttribute('href');
  expect(href).toMatch(new RegExp(`^${baseUrl}/survey/public/[0-9a-f-]{36}/[0-9a-f-]{36}$`));
  return href!;
}

/** From the onboarding page through the demo consent page (Allow) to the location choice. */
/** No sideways scrolling (UX.md: 360 px first). */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), page.url()).toBeLessThanOrEqual(width);
}

async function connectDemoSquare(page: Page, options: { axe?: boolean; width?: number } = {}) {
  await page.goto(`${baseUrl}/square-connect`);
  if (options.width) await fitsWidth(page, options.width);
  if (options.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  const steps = page.getByRole('navigation', { name: 'Setup progress' });
  expect(await steps.textContent()).toMatch(/Account Created.*Connect Square.*Dashboard/);
  expect(await page.locator('[aria-current="step"]').textContent()).toContain('Connect Square');
  expect(await page.getByText('Automatic customer reward distribution').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Skip for now (you can connect later)' }).getAttribute('href')).toBe('/dashboard');
  await page.getByRole('link', { name: 'Connect with Square' }).click();
  await page.waitForURL(/\/square-connect\/demo\?state=/);
  await page.getByRole('heading', { name: 'Authorize RewardLoop' }).waitFor();
  if (options.width) await fitsWidth(page, options.width);
  if (options.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(/\/square-location-selection$/);
  await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Square Integration Detected');
  await page.getByRole('heading', { name: 'Select Your Square Location' }).waitFor();
  expect(await page.getByTestId('location-card').count()).toBe(2);
  expect(await page.getByText('Gift cards are tied to the location you choose.').isVisible()).toBe(true);
  if (options.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  if (options.width) await fitsWidth(page, options.width);
}

async function dashboardShows(page: Page, location: string) {
  await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
  expect(await page.getByText('Connected', { exact: true }).isVisible()).toBe(true);
  expect(await page.getByTestId('square-location').textContent()).toBe(`Gift cards are issued from ${location}.`);
  expect(await page.getByRole('region', { name: 'Square Location Required' }).count()).toBe(0);
}

describe('connecting Square in demo mode', () => {
  it('with JavaScript: a published survey is Not Found until Square is connected, then the dropdown picks a location and the survey is live', async () => {
    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchErrors(page);
    await signUp(page, 'Demo Coffee Roasters');
    const surveyUrl = await publishSurvey(page);

    // Square is required for customers: without bypass_square the survey is not offered.
    await page.goto(surveyUrl);
    await page.getByRole('heading', { name: 'Survey Not Found' }).waitFor();
    problems.length = 0; // that page answers 404 on purpose, which the browser reports

    await connectDemoSquare(page, { axe: true });
    const confirm = page.getByRole('button', { name: 'Confirm Location' });
    expect(await confirm.isDisabled()).toBe(true); // nothing chosen yet
    await page.getByLabel('Or choose from the list').selectOption({ label: 'Riverside Kiosk' });
    expect(await page.getByRole('radio', { name: /Riverside Kiosk/ }).isChecked()).toBe(true);
    expect(await confirm.isEnabled()).toBe(true);
    await page.getByRole('radio', { name: /Main Street Cafe/ }).check();
    expect(await page.getByLabel('Or choose from the list').inputValue()).toBe('DEMO-MAIN-STREET');
    await page.getByLabel('Or choose from the list').selectOption({ label: 'Riverside Kiosk' });
    await confirm.click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Location Set Successfully');
    await dashboardShows(page, 'Riverside Kiosk');

    // The current user reports the connection.
    const me = await page.evaluate(async () => (await fetch('/api/auth/user')).json());
    expect(me).toMatchObject({ squareConnected: true, squareLocationId: 'DEMO-RIVERSIDE' });
    const locations = await page.evaluate(async () => (await fetch('/api/square/locations')).json());
    expect(locations).toMatchObject({ currentLocationId: 'DEMO-RIVERSIDE', currentLocationName: 'Riverside Kiosk' });
    expect(JSON.stringify(locations)).not.toMatch(/demo-(access|refresh)-/);

    // Back on the location page the current one is marked and preselected.
    await page.goto(`${baseUrl}/square-location-selection`);
    const current = page.getByTestId('location-card').filter({ hasText: 'Riverside Kiosk' });
    expect(await current.getByText('Current', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('radio', { name: /Riverside Kiosk/ }).isChecked()).toBe(true);

    // The customer now gets the survey.
    await page.goto(surveyUrl);
    await page.getByRole('heading', { level: 1, name: 'Tell us about your visit' }).waitFor();
    expect(await page.getByText('Preview mode').count()).toBe(0);
    expect(await page.content()).not.toMatch(/demo-(access|refresh)-/);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('without JavaScript: a radio card and a real form post choose the location; disconnect from the dashboard', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await signUp(page, 'Riverside Bakes');
    expect(await page.getByText('Not Connected').isVisible()).toBe(true);

    await connectDemoSquare(page, { width: 360 });
    // Without JavaScript the button cannot wait for a choice: it posts, and the server asks for one.
    await page.getByRole('button', { name: 'Confirm Location' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please choose a location.' }).first().waitFor();

    await page.getByTestId('location-card').filter({ hasText: 'Main Street Cafe' }).click();
    await page.getByRole('button', { name: 'Confirm Location' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Location Set Successfully');
    await dashboardShows(page, 'Main Street Cafe');
    await fitsWidth(page, 360);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Square Disconnected');
    expect(await page.getByText('Not Connected').isVisible()).toBe(true);
    expect(await page.getByText('Square Integration Required').isVisible()).toBe(true);
    await context.close();
  }, 90_000);

  it('Deny on the consent page comes back with the failure toast', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, 'Cautious Cafe');
    await page.getByRole('link', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/square-connect\/demo\?state=/);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Square connection failed');
    expect(await page.getByText('Not Connected').isVisible()).toBe(true);
    await context.close();
  }, 60_000);
});
