import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { seriousAxeViolations, watchErrors } from './checks.ts';
import { connectSquare, publishSurvey, signUp } from './owner.ts';

/**
 * Issue 14 (fraud, ADR 050) end to end on the production server of global-setup: a customer who
 * gives a disposable email address is told their reward is being checked; the owner finds it held on
 * /rewards and releases it (with JavaScript); the card is issued and emailed once. A second held
 * reward is rejected with JavaScript off: the forms work as plain posts.
 */

const baseUrl = inject('baseUrl');
const outboxDir = inject('outboxDir');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The reward emails to `to` in the outbox folder. */
async function rewardEmailsTo(to: string): Promise<ParsedMail[]> {
  const files = (await readdir(outboxDir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
  const found: ParsedMail[] = [];
  for (const file of files) {
    const raw = await readFile(path.join(outboxDir, file), 'utf8');
    if (!raw.includes(to)) continue;
    const mail = await simpleParser(raw);
    if (/gift card from/.test(mail.subject ?? '')) found.push(mail);
  }
  return found;
}

async function choose(page: Page, name: string, value: string) {
  await page.locator('label', { has: page.locator(`input[name="${name}"][value="${value}"]`) }).click();
}

/** A customer answers parts 1 and 2 on a phone and submits with `email`; returns the Thank You text. */
async function answerOnPhone(surveyUrl: string, email: string, improvement: string) {
  const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
  const customer = await phone.newPage();
  const problems = watchErrors(customer);
  await customer.goto(surveyUrl);
  await choose(customer, 'overall_rating', '5');
  await choose(customer, 'recommend', 'yes');
  await choose(customer, 'visit_frequency', 'Weekly');
  await customer.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await customer.getByText('Section 2 of 3').waitFor();
  await choose(customer, 'service_rating', '5');
  await customer.getByLabel('What was your favorite item, and why?').fill('The cardamom bun, warm from the oven');
  await choose(customer, 'atmosphere_rating', '4');
  await choose(customer, 'value_rating', '4');
  await customer.getByLabel('What could we do better?').fill(improvement);
  await customer.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await customer.getByText('Section 3 of 3').waitFor();
  await customer.getByLabel('Email address').fill(email);
  await customer.getByLabel('Your name').fill('Sam Example');
  await customer.getByRole('button', { name: 'Submit for $3' }).click();
  await customer.getByRole('heading', { name: 'Thank You!' }).waitFor({ timeout: 15_000 });
  const checking = customer.getByTestId('reward-checking');
  await checking.waitFor();
  const text = (await checking.textContent()) ?? '';
  const page = (await customer.locator('main').textContent()) ?? '';
  expect(problems).toEqual([]);
  await phone.close();
  return { text, page };
}

describe('held rewards on /rewards', () => {
  it('a held reward is released by the owner and issued once; another is rejected without JavaScript', async () => {
    const owner = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await owner.newPage();
    const ownerProblems = watchErrors(page);
    await signUp(page, 'Corner Crumb Cafe', 'holds');
    await page.getByRole('link', { name: 'Build your first survey' }).click(); // a new owner's one first step (ADR 083)
    await page.waitForURL(/\/survey-builder$/);
    const { publicUrl } = await publishSurvey(page, 'Tell us about your visit');
    await connectSquare(page, 'Main Street Cafe');

    const stamp = Date.now();
    const heldEmail = `sam-${stamp}@mailinator.com`;
    const customer = await answerOnPhone(publicUrl, heldEmail, `Table ${stamp} wished for more seats by the window, please`);
    // The customer is told the reward is coming by email, never why it is checked.
    expect(customer.text).toContain('is being checked and will arrive by email');
    expect(customer.page).not.toMatch(/disposable|fraud|suspicious/i);

    await page.goto(`${baseUrl}/rewards`);
    const main = page.getByRole('main');
    const held = main.getByTestId('held-reward').filter({ hasText: heldEmail });
    await held.waitFor();
    expect(await held.textContent()).toContain('disposable email service');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // Nothing issued while held.
    expect(await rewardEmailsTo(heldEmail)).toEqual([]);

    // Asked first (issue 27 item 13).
    await held.getByRole('link', { name: /^Release/ }).click();
    await page.getByRole('alertdialog', { name: 'Release this reward?' }).getByRole('button', { name: 'Yes, Release' }).click();
    await main.getByTestId('held-reward').filter({ hasText: heldEmail }).waitFor({ state: 'detached' });
    await page.getByTestId('toast').filter({ hasText: 'Reward released' }).waitFor();
    // The card is issued and emailed, once.
    await expect.poll(async () => (await rewardEmailsTo(heldEmail)).length, { timeout: 20_000, interval: 250 }).toBe(1);
    const issued = main.getByTestId('issuance').filter({ hasText: heldEmail });
    await expect
      .poll(
        async () => {
          await page.reload();
          return main.getByTestId('issuance').filter({ hasText: heldEmail }).count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    expect(await issued.textContent()).toContain('$3.00');
    expect(ownerProblems).toEqual([]);

    // Another held reward, rejected with JavaScript off: a plain form post.
    const rejectEmail = `kim-${stamp}@mailinator.com`;
    await answerOnPhone(publicUrl, rejectEmail, `Guest ${stamp} liked the music but wanted softer lighting at dinner`);
    const cookies = await owner.cookies();
    const noJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    await noJs.addCookies(cookies);
    const plain = await noJs.newPage();
    await plain.goto(`${baseUrl}/rewards`);
    const toReject = plain.getByRole('main').getByTestId('held-reward').filter({ hasText: rejectEmail });
    await toReject.waitFor();
    await toReject.getByRole('link', { name: /^Reject/ }).click();
    await plain.waitForURL(/\/rewards\?confirm=reject&responseId=/);
    await plain.getByRole('alertdialog', { name: 'Reject this reward?' }).getByRole('button', { name: 'Yes, Reject' }).click();
    await plain.waitForURL(`${baseUrl}/rewards`);
    await plain.getByText('Reward rejected').first().waitFor();
    expect(await plain.getByRole('main').getByTestId('held-reward').filter({ hasText: rejectEmail }).count()).toBe(0);
    // Still in sight, with its status.
    expect(await plain.getByRole('main').getByTestId('rejected-reward').filter({ hasText: rejectEmail }).textContent()).toContain('Rejected');
    await noJs.close();
    await new Promise((r) => setTimeout(r, 2000));
    expect(await rewardEmailsTo(rejectEmail)).toEqual([]);
    expect(await rewardEmailsTo(heldEmail)).toHaveLength(1);
    await owner.close();
  }, 180_000);
});
