import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { fitsWidth, seriousAxeViolations, watchErrors } from './checks.ts';
import { choosePlanAndPay, connectSquare, fillBuilder, payOnCheckout, publishSurvey, signUp } from './owner.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;

async function fillTrialSignup(page: import('playwright-core').Page, name: string) {
  await page.getByRole('heading', { name: 'Start Your Free Trial' }).waitFor();
  await page.getByLabel('Business Name').fill(name);
  await page.getByLabel('Email address').fill(uniqueEmail(name.replace(/\W/g, '').toLowerCase()));
  await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
  await page.getByLabel('Confirm Password', { exact: true }).fill('correct horse battery');
  await page.getByRole('checkbox', { name: /I agree to the Terms of Service/ }).check();
}

describe('billing with the fake adapter', () => {
  it('a new owner: builder draft -> trial sign-up -> plan -> a declined card, then 4242 -> the survey published', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchErrors(page);
    await page.goto(`${baseUrl}/survey-builder`);
    await fillBuilder(page, 'Trial from the builder');
    await page.getByRole('button', { name: 'Save Survey & Review' }).click();
    await expect.poll(() => page.getByText('Your survey is saved in this browser.').isVisible()).toBe(true);
    await page.goto(`${baseUrl}/survey-preview`);
    await page.getByRole('link', { name: 'Publish Survey' }).click();
    await page.waitForURL(/\/trial-signup$/);
    expect(await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).getAttribute('href')).toBe('/auth?returnTo=%2Fsubscription-plans');
    expect(await page.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(await page.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fillTrialSignup(page, 'Trial Bakery');
    await page.getByRole('button', { name: 'Continue to Plans' }).click();

    await page.waitForURL(/\/subscription-plans\?/);
    await page.getByRole('heading', { name: 'Choose Your Plan' }).waitFor();
    expect(await page.getByText('Most Popular').isVisible()).toBe(true);
    expect(await page.getByTestId('price-growth').textContent()).toBe('$41');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await choosePlanAndPay(page, 'Growth', '4000 0000 0000 0002');
    await page.getByText('Your card was declined.').waitFor();
    expect(await page.getByText('Setup Failed').isVisible()).toBe(true);
    expect(await page.getByTestId('plan-summary').textContent()).toContain('$490 per year');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await payOnCheckout(page);

    await page.waitForURL(/\/subscription-check\?surveyId=/);
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Free trial');
    expect(await page.getByText('Trial from the builder').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Publish Survey' }).click();
    await page.waitForURL(/\/survey-published\//);
    // Square is not connected: published, not live, and the toast says so (issue 27 item 7).
    await expect.poll(() => page.getByText('Published, not live yet').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an existing owner subscribes, opens the details, cancels, and the survey becomes Unavailable', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUp(page, 'Cancel Bistro');
    await connectSquare(page, 'Main Street Cafe');
    const { publicUrl } = await publishSurvey(page, 'Cancel me');
    await page.goto(`${baseUrl}/survey-management`);
    await expect.poll(() => page.getByText('Available', { exact: true }).first().isVisible()).toBe(true);

    await page.goto(`${baseUrl}/profile`);
    await page.getByRole('link', { name: 'Subscription details' }).click();
    await page.waitForURL(/\/subscription-details$/);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Free trial');
    expect(await page.getByTestId('compare-growth').textContent()).toContain('$41');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Cancel Subscription' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel your subscription?' });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Canceled');
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Subscription Canceled');

    await page.goto(`${baseUrl}/survey-management`);
    await expect.poll(() => page.getByText('Unavailable', { exact: true }).first().isVisible()).toBe(true);
    const customer = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const visitor = await customer.newPage();
    await visitor.goto(publicUrl);
    await expect.poll(() => visitor.getByRole('heading', { name: 'Survey Not Found' }).isVisible()).toBe(true);
    await customer.close();
    await context.close();
  });

  it('without JavaScript: trial sign-up, the plans toggle, checkout and cancel all work as form posts', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/subscription-plans`);
    expect(await page.getByTestId('price-starter').textContent()).toBe('$16');
    await fitsWidth(page, 360);
    await page.getByRole('link', { name: 'Monthly' }).click();
    await page.waitForURL(/billing=monthly/);
    expect(await page.getByTestId('price-starter').textContent()).toBe('$19');
    await page.getByRole('button', { name: /Starter, monthly/ }).click();
    await page.waitForURL(/\/trial-signup\?planId=starter&billing=monthly/);
    expect(await page.getByTestId('chosen-plan').textContent()).toContain('Starter plan, $19 per month, with 7 days free');
    await fillTrialSignup(page, 'No Script Deli');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await payOnCheckout(page);
    await page.waitForURL(`${baseUrl}/`);
    await page.goto(`${baseUrl}/subscription-details`);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Free trial');
    await fitsWidth(page, 360);
    await page.getByRole('link', { name: 'Cancel Subscription' }).click();
    await page.getByRole('button', { name: 'Yes, Cancel Subscription' }).click();
    await page.waitForURL(/\/subscription-details$/);
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Canceled');
    await context.close();
  });
});
