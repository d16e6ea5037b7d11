import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { fitsWidth, seriousAxeViolations } from './checks.ts';

/** What an owner does in the e2e tests, through the pages as a person would: sign up, build and publish a survey, connect Square (demo). */

const baseUrl = inject('baseUrl');

/** Fills and sends the sign-up form on the page (/auth?mode=signup); where that leads is the caller's to check. */
export async function submitSignUp(page: Page, name: string, email: string) {
  await page.getByLabel('Business Name').fill(name);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByLabel('Confirm Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/**
 * Signs up a new owner of the business `name` and waits for the dashboard's welcome. The e-mail
 * address is `emailPrefix` (by default the name's letters and digits) with a unique tail.
 */
export async function signUp(page: Page, name: string, emailPrefix = name.replace(/\W/g, '').toLowerCase()) {
  await page.goto(`${baseUrl}/auth?mode=signup`);
  await submitSignUp(page, name, `${emailPrefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`);
  await page.getByRole('heading', { name: `Welcome, ${name}` }).waitFor({ timeout: 15_000 });
}

/** Where a survey sends its customers: the redemption website, the Google review page, the Instagram account. */
export type SurveyLinks = { website: string; googleReviewUrl: string; instagram: string };

/** Crumb & Co Bakery's links. */
export const crumbLinks: SurveyLinks = { website: 'crumbandco.com', googleReviewUrl: 'https://g.page/r/crumb/review', instagram: '@crumbandco' };

/** The builder's steps by their navigation label (app/components/builder/steps.tsx). */
const STEP_IDS = { Basics: 'step-basics', Rewards: 'step-rewards', Questions: 'step-questions', 'Where to review and follow': 'step-platforms', 'Review and publish': 'step-review' } as const;

/**
 * Opens a step of the builder by its link in the step navigation (ADR 093): with JavaScript it shows
 * that step alone; without, it scrolls to it on the one long page.
 */
export async function openStep(page: Page, label: keyof typeof STEP_IDS) {
  await page
    .getByRole('navigation', { name: 'Builder steps' })
    .getByRole('link', { name: new RegExp(`^Step \\d: ${label}`) })
    .click();
  await page.locator(`#${STEP_IDS[label]}`).waitFor({ state: 'visible' });
}

/** Fills the survey builder on the page: the title, the redemption website (Basics), Google reviews and Instagram follows (Where to review and follow). */
export async function fillBuilder(page: Page, title: string, links: SurveyLinks = crumbLinks) {
  await openStep(page, 'Basics');
  await page.getByLabel('Survey Title').fill(title);
  await page.getByLabel('Redemption website').fill(links.website);
  await openStep(page, 'Where to review and follow');
  await page.getByRole('checkbox', { name: 'Google' }).check();
  await page.getByLabel('Google review URL').fill(links.googleReviewUrl);
  await page.getByRole('checkbox', { name: 'Instagram' }).check();
  await page.getByLabel('Instagram handle').fill(links.instagram);
}

/**
 * On the plans page: picks `plan` (yearly, the default: a 14-day trial), then pays on the fake
 * checkout with `card` and waits for where a finished checkout goes (`/subscription-check` with a
 * survey, else the dashboard). A declined card stays on the checkout page.
 */
export async function choosePlanAndPay(page: Page, plan = 'Starter', card = '4242 4242 4242 4242') {
  await page.waitForURL(/\/subscription-plans/);
  await page.getByRole('button', { name: new RegExp(`^(Start \\d+-Day Free Trial|Subscribe): ${plan},`) }).click();
  await payOnCheckout(page, card);
}

/** Fills the fake card form on /stripe-checkout and sends it. */
export async function payOnCheckout(page: Page, card = '4242 4242 4242 4242') {
  await page.waitForURL(/\/stripe-checkout\?/);
  await page.getByRole('heading', { name: 'Complete Your Setup' }).waitFor();
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^(Start Free Trial|Subscribe)$/ }).click();
  if (card.replace(/\s/g, '') === '4242424242424242') await page.waitForURL((url) => !url.pathname.startsWith('/stripe-checkout'));
}

/**
 * A published survey's addresses: `publicUrl`, the one customers get (the absolute short link
 * `/s/{code}`, ADR 082, without bypass_square), and `previewUrl`, the preview page's link to the
 * customer's view (the short link with bypass_square=true, so it opens without Square). Both
 * redirect to the public path `/survey/public/{businessId}/{surveyId}`, query kept.
 */
export type PublishedSurvey = { publicUrl: string; previewUrl: string };

/**
 * Builds (Google + Instagram), starts the free trial for and publishes a survey. Starts on the
 * builder where the page already is (say from the dashboard's first step, Build your first survey), else opens it.
 */
export async function publishSurvey(page: Page, title: string, links: SurveyLinks = crumbLinks, beforeSave?: (page: Page) => Promise<void>): Promise<PublishedSurvey> {
  if (new URL(page.url()).pathname !== '/survey-builder') await page.goto(`${baseUrl}/survey-builder`);
  await fillBuilder(page, title, links);
  await beforeSave?.(page);
  await page.getByRole('button', { name: /Save/ }).first().click();
  await page.waitForURL(/\/survey-preview\?surveyId=/);
  // The preview page links to the customer's view with bypass_square=true, by the short link.
  const previewUrl = await page.locator('a[href*="/s/"][href*="bypass_square=true"]').first().getAttribute('href');
  expect(previewUrl, 'the preview link on the preview page').toMatch(new RegExp(`^${baseUrl}/s/[a-z2-9]{9}\\?bypass_square=true$`));
  expect(previewUrl, 'the preview link on the preview page').toContain('bypass_square=true');
  // A survey needs a plan (here the free trial) before anyone can open it.
  await page.getByRole('link', { name: 'Publish Survey' }).click();
  await page.getByRole('link', { name: 'Start Free Trial' }).click();
  await choosePlanAndPay(page);
  await page.getByRole('button', { name: 'Publish Survey' }).click();
  await page.waitForURL(/\/survey-published\//);
  // Square connected first: the page is live; otherwise it offers no live link yet (issue 27 item 7).
  const live = page.getByRole('link', { name: 'View Live Survey' });
  // The published page has rendered one way or the other (the URL can change before it paints).
  await live.or(page.getByTestId('not-live')).first().waitFor({ state: 'visible', timeout: 20_000 });
  const publicUrl = (await live.count()) ? await live.getAttribute('href') : await notLivePublicUrl(page);
  expect(publicUrl).toMatch(new RegExp(`^${baseUrl}/s/[a-z2-9]{9}$`));
  return { publicUrl: publicUrl!, previewUrl: previewUrl! };
}

/**
 * On /survey-published before Square is connected (issue 27 item 7): no live link, QR code or flyer,
 * the fix (Connect Square) and the owner's preview instead. The customers' URL is the preview's without
 * bypass_square (it opens once Square is connected).
 */
export async function notLivePublicUrl(page: Page): Promise<string> {
  await page.getByTestId('not-live').waitFor({ state: 'visible', timeout: 15_000 });
  expect(await page.getByRole('link', { name: 'View Live Survey' }).count()).toBe(0);
  expect(await page.getByRole('link', { name: 'Download Promotional Material' }).count()).toBe(0);
  expect(await page.getByRole('link', { name: 'Connect Square' }).first().getAttribute('href')).toBe('/api/square/auth');
  const preview = (await page.getByRole('link', { name: 'Preview', exact: true }).getAttribute('href'))!;
  return preview.replace(/\?bypass_square=true$/, '');
}

/**
 * From the onboarding page through the demo consent page (Allow) to the location choice. With
 * `checks.axe` each of the three pages has no serious axe findings; with `checks.width` none
 * scrolls sideways at that width.
 */
export async function authorizeSquare(page: Page, checks: { axe?: boolean; width?: number } = {}) {
  await page.goto(`${baseUrl}/square-connect`);
  if (checks.width) await fitsWidth(page, checks.width);
  if (checks.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  const steps = page.getByRole('navigation', { name: 'Setup progress' });
  expect(await steps.textContent()).toMatch(/Account Created.*Connect Square.*Dashboard/);
  expect(await page.locator('[aria-current="step"]').textContent()).toContain('Connect Square');
  expect(await page.getByText('Automatic customer reward distribution').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Skip for now (you can connect later)' }).getAttribute('href')).toBe('/dashboard');
  await page.getByRole('link', { name: 'Connect with Square' }).click();
  await page.waitForURL(/\/square-connect\/demo\?state=/);
  await page.getByRole('heading', { name: 'Authorize RewardLoop' }).waitFor();
  if (checks.width) await fitsWidth(page, checks.width);
  if (checks.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(/\/square-location-selection$/);
  await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Square Integration Detected');
  await page.getByRole('heading', { name: 'Select Your Square Location' }).waitFor();
  expect(await page.getByTestId('location-card').count()).toBe(2);
  expect(await page.getByText('Gift cards are tied to the location you choose.').isVisible()).toBe(true);
  if (checks.axe) expect(await seriousAxeViolations(page)).toEqual([]);
  if (checks.width) await fitsWidth(page, checks.width);
}

/** The demo consent page (Allow), then `location`: back on the dashboard, gift cards are issued from it. */
export async function connectSquare(page: Page, location: string) {
  await authorizeSquare(page);
  await page.getByRole('radio', { name: new RegExp(location) }).check();
  await page.getByRole('button', { name: 'Confirm Location' }).click();
  await page.waitForURL(`${baseUrl}/`);
  expect(await page.getByTestId('square-location').textContent()).toBe(`Gift cards are issued from ${location}.`);
}
