import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Checks the e2e tests make on any page: accessibility, errors in the browser, sideways scrolling. */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.2 AA, UX.md). */
export async function seriousAxeViolations(page: Page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
}

/** Page errors and console errors: any of them fails the test. */
export function watchErrors(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return problems;
}

/** No sideways scrolling of the page (UX.md: 360 px first). */
export async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), page.url()).toBeLessThanOrEqual(width);
}

/**
 * The survey page carries its own stylesheet (ADR 092), built from the island's files only. Returns
 * the class names on the page as it is now that the app's whole stylesheet styles and the page's own
 * does not: each would render unstyled for customers. Throws when the page has no inline stylesheet.
 */
export async function classesMissingFromSurveyStyle(page: Page): Promise<string[]> {
  const full = readFileSync(new URL(`../../build/client${fullStylesheet()}`, import.meta.url), 'utf8');
  return page.evaluate((fullText) => {
    const inline = document.querySelector('head style');
    if (!inline?.textContent || document.querySelector('link[rel="stylesheet"]')) throw new Error('the page does not carry its own stylesheet');
    const selectors = (sheet: CSSStyleSheet) => {
      const out: string[] = [];
      const walk = (rules: CSSRuleList) => {
        for (const rule of Array.from(rules)) {
          if (rule instanceof CSSStyleRule) out.push(rule.selectorText);
          if ('cssRules' in rule && (rule as CSSGroupingRule).cssRules) walk((rule as CSSGroupingRule).cssRules);
        }
      };
      walk(sheet.cssRules);
      return out;
    };
    const fullSheet = new CSSStyleSheet();
    fullSheet.replaceSync(fullText);
    const own = new CSSStyleSheet();
    own.replaceSync(inline.textContent);
    const fullSelectors = selectors(fullSheet);
    const ownSelectors = selectors(own);
    // '.p-4' inside '.p-4:hover' but not inside '.p-40'.
    const names = (list: string[], token: string) => {
      const needle = `.${CSS.escape(token)}`;
      return list.some((s) => {
        for (let i = s.indexOf(needle); i !== -1; i = s.indexOf(needle, i + 1)) if (!/[\w\\-]/.test(s[i + needle.length] ?? '')) return true;
        return false;
      });
    };
    const tokens = new Set(Array.from(document.querySelectorAll('[class]')).flatMap((el) => Array.from(el.classList)));
    return [...tokens].filter((t) => names(fullSelectors, t) && !names(ownSelectors, t)).sort();
  }, full);
}

/** The app's whole stylesheet in the production build, as the sign-in page links it. */
function fullStylesheet(): string {
  const manifest = readFileSync(new URL('../../build/server/index.js', import.meta.url), 'utf8');
  const match = /\/assets\/tailwind-[\w-]+\.css/.exec(manifest);
  if (!match) throw new Error('no /assets/tailwind-*.css in the server build');
  return match[0];
}
