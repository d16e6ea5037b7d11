import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, watchErrors } from './checks.ts';
import { authorizeSquare, publishSurvey, signUp, type SurveyLinks } from './owner.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Demo Coffee Roasters' links. */
const demoCoffeeLinks: SurveyLinks = { website: 'demo-coffee.example', googleReviewUrl: 'https://g.page/r/democoffee/review', instagram: '@democoffee' };

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
    await signUp(page, 'Demo Coffee Roasters', 'square');
    const { publicUrl: surveyUrl } = await publishSurvey(page, 'Tell us about your visit', demoCoffeeLinks);

    // Square is required for customers: without bypass_square the survey is not offered.
    await page.goto(surveyUrl);
    await page.getByRole('heading', { name: 'Survey Not Found' }).waitFor();
    problems.length = 0; // that page answers 404 on purpose, which the browser reports
    // The owner's list says why, with the fix (issue 15: one status word, each Unavailable explained).
    await page.goto(`${baseUrl}/survey-management`);
    expect(await page.getByTestId('availability').first().textContent()).toBe('Unavailable');
    expect(await page.getByRole('main').getByText('Connect Square so rewards can be delivered.').first().isVisible()).toBe(true);

    await authorizeSquare(page, { axe: true });
    // Connected without a location: Available, and the list asks for the location, linking to it.
    await page.goto(`${baseUrl}/survey-management`);
    expect(await page.getByTestId('availability').first().textContent()).toBe('Available');
    expect(await page.getByText('Rewards are Test cards until you choose a Square location.').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Choose Location' }).click();
    await page.waitForURL(/\/square-location-selection$/);
    await page.getByRole('heading', { name: 'Select Your Square Location' }).waitFor();
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
    await signUp(page, 'Riverside Bakes', 'square');
    expect(await page.getByText('Not Connected').isVisible()).toBe(true);

    await authorizeSquare(page, { width: 360 });
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
    await signUp(page, 'Cautious Cafe', 'square');
    await page.getByRole('link', { name: 'Connect', exact: true }).click();
    await page.waitForURL(/\/square-connect\/demo\?state=/);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Square connection failed');
    expect(await page.getByText('Not Connected').isVisible()).toBe(true);
    await context.close();
  }, 60_000);
});
