import type { Page } from 'playwright-core';

/** A customer's steps through the survey page (with or without JavaScript), shared by the e2e tests. */

/** From the first section, rated 5 stars, on to the last one (section 3 of 3: the review and social blocks). */
export async function toLastSection(page: Page) {
  await page.locator('label', { has: page.locator('input[name="overall_rating"][value="5"]') }).click();
  await page.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await page.getByText('Section 2 of 3').waitFor();
  await page.getByRole('button', { name: 'Continue for Higher Reward' }).click();
  await page.getByText('Section 3 of 3').waitFor();
}
