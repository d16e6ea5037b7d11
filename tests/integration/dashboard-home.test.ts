import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as homeLoader } from '#app/routes/_marketing+/_index.tsx';
import { loader as dashboardLoader } from '#app/routes/_owner+/dashboard.tsx';
import type { DashboardData } from '#app/utils/dashboard.server.ts';
import { issueReward } from '../../modules/rewards/issue.ts';
import { rewardDeps } from '../../server/composition.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { getRequest, run, type CookieJar } from '../setup/http.ts';
import { query, rewardingBusiness } from '../setup/rewards.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 27, "a home, not a brochure" (ADR 083): the signed-in dashboard shows the owner's business.

let app: TestApp;
let pages: PageServer;
let base: string;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
  pages = await servePages(app.root);
  base = pages.base;
}, 120_000);
afterAll(async () => {
  await pages?.close();
  await app?.close();
});

/** The dashboard's loader data, through the route's loader with a real Request. */
async function home(jar: CookieJar): Promise<DashboardData> {
  const res = await run(() => dashboardLoader({ request: getRequest('/dashboard', jar), context: app.context(), params: {} }));
  expect(res.status).toBe(200);
  return (res.body as { dashboard: DashboardData }).dashboard;
}

let ipCounter = 0;
/** The visible text of a page as the owner's browser gets it (no JavaScript runs). */
async function pageText(path: string, jar?: CookieJar): Promise<{ html: string; text: string }> {
  ipCounter += 1;
  const headers: Record<string, string> = { 'X-Forwarded-For': `10.83.${(ipCounter >> 8) & 255}.${ipCounter & 255}` };
  if (jar) headers.Cookie = jar.header();
  const res = await fetch(base + path, { headers, redirect: 'manual' });
  expect(res.status).toBe(200);
  const html = await res.text();
  const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
  const text = main
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
  return { html: main, text };
}

const DAY = 86_400_000;

/** Moves a response (and its card, if any) `days` into the past. */
async function age(responseId: string, days: number) {
  const when = new Date(Date.now() - days * DAY);
  await query(app, 'update survey_responses set submitted_at = ? where id = ?', [when, responseId]);
  await query(app, 'update gift_card_issuances set issued_at = ? where survey_response_id = ?', [when, responseId]);
}

/** Holds a response's reward for the owner's review, as the trust module does when something looks unusual. */
async function hold(responseId: string, businessId: string) {
  await query(app, `insert into reward_holds (survey_response_id, business_id, status, reasons) values (?, ?, 'held', ?)`, [
    responseId,
    businessId,
    JSON.stringify([{ code: 'disposable_email', detail: 'test' }]),
  ]);
}

describe('a brand-new owner', () => {
  it('sees one clear first step and no marketing cards', async () => {
    const owner = await signedInOwner(app, 'First Light Cafe');
    const d = await home(owner.jar);
    expect(d).toMatchObject({ displayName: 'First Light Cafe', surveyCount: 0, surveys: [], heldRewards: 0, week: { responses: 0, rewardsIssued: 0, rewardValue: 0 } });

    const { html, text } = await pageText('/', owner.jar);
    expect(text).toContain('Welcome, First Light Cafe');
    expect(text).toContain('Your first step');
    expect(text).toContain('Build your first survey');
    // One primary call to action on the page, and it builds the survey.
    const primaries = [...html.matchAll(/<a [^>]*class="[^"]*bg-brand-600[^"]*"[^>]*>/g)].map((m) => m[0]);
    expect(primaries).toHaveLength(1);
    expect(primaries[0]).toContain('href="/survey-builder"');
    expect(text).toContain('14-Day Free Trial');
    // No brochure for a signed-in owner, no figures of a week that has nothing in it.
    expect(text).not.toMatch(/10\+|300%/);
    expect(text).not.toContain('This week');
  });

  it('visitors (signed out) get the marketing cards instead', async () => {
    const res = await run(() => homeLoader({ request: getRequest('/'), context: app.context(), params: {} }));
    expect(res.body).toMatchObject({ dashboard: null });
    const { text } = await pageText('/');
    expect(text).toContain('10+');
    expect(text).toContain('300%');
    expect(text).not.toContain('Your first step');
  });
});

describe('an owner with a draft, a live survey, two weeks of responses and a held reward', () => {
  let shop: Awaited<ReturnType<typeof rewardingBusiness>>;
  let draftId: string;
  let other: Awaited<ReturnType<typeof rewardingBusiness>>;

  beforeAll(async () => {
    shop = await rewardingBusiness(app, 'Crumb Home Bakery', { square: true });
    await query(app, `update survey_configs set title = 'Counter survey' where id = ?`, [shop.surveyId]);
    draftId = (await createSurvey(app, shop.owner.jar, { title: 'Autumn menu draft' })).id;
    const deps = rewardDeps(app.root);
    // This week: one issued ($3.00 Silver), one held, one on its way.
    const issued = await shop.submit('ana@example.com', 'Ana');
    expect((await issueReward(deps, issued)).status).toBe('issued');
    const held = await shop.submit('ben@example.com', 'Ben');
    await hold(held, shop.businessId);
    await shop.submit('cai@example.com', 'Cai');
    // Last week: a response with its card, 8 days ago (before this Monday whatever today is).
    const old = await shop.submit('dee@example.com', 'Dee');
    expect((await issueReward(deps, old)).status).toBe('issued');
    await age(old, 8);

    // A second owner with everything the first one has: none of it may show up on the first's home.
    other = await rewardingBusiness(app, 'Rival Rolls', { square: true });
    await query(app, `update survey_configs set title = 'Rival secret survey' where id = ?`, [other.surveyId]);
    for (const email of ['x1@example.com', 'x2@example.com', 'x3@example.com', 'x4@example.com', 'x5@example.com']) {
      const id = await other.submit(email, 'Xavier');
      expect((await issueReward(deps, id)).status).toBe('issued');
    }
    await hold(await other.submit('x6@example.com', 'Xena'), other.businessId);
    await hold(await other.submit('x7@example.com', 'Xeno'), other.businessId);
  }, 60_000);

  it('counts only this week: responses, rewards issued and their value; held rewards waiting', async () => {
    const d = await home(shop.owner.jar);
    expect(d.week).toMatchObject({ responses: 3, rewardsIssued: 1, rewardValue: 300 });
    expect(d.heldRewards).toBe(1);
    expect(d.surveyCount).toBe(2);
    // The plan's usage, counted in the home's one statement, says what the billing service says.
    const ctx = app.context();
    const business = await ctx.accounts.byId(shop.businessId);
    expect(d.usage).not.toBeNull();
    expect(d.usage).toEqual(await ctx.billing.usage(business!));
  });

  it('says each survey’s status in words and the one thing to do next', async () => {
    const d = await home(shop.owner.jar);
    const byTitle = Object.fromEntries(d.surveys.map((s) => [s.title, s]));
    expect(Object.keys(byTitle).sort()).toEqual(['Autumn menu draft', 'Counter survey']);
    expect(byTitle['Counter survey']!.status).toEqual({
      key: 'live',
      label: 'Live',
      detail: '3 responses this week',
      next: { label: 'See responses', href: `/survey-analytics/${shop.surveyId}` },
    });
    expect(byTitle['Autumn menu draft']!.status).toMatchObject({ key: 'draft', label: 'Draft', next: { href: `/survey-builder?surveyId=${draftId}` } });

    const { html, text } = await pageText('/', shop.owner.jar);
    expect(text).toContain('Counter survey Live 3 responses this week');
    expect(text).toContain('Autumn menu draft Draft Finish the questions, then publish it.');
    expect(text).toContain('$3.00');
    expect(html).toContain('href="/rewards#held-heading"');
    expect(text).not.toContain('Your first step');
    expect(text).not.toMatch(/10\+|300%/);
    // The plan's usage and the trial's days left.
    expect(text).toMatch(/Starter plan Free trial · 1[34] days left/);
    expect(text).toContain('rewards used');
  });

  it('never shows another owner’s surveys, responses or rewards', async () => {
    const mine = await home(shop.owner.jar);
    expect(JSON.stringify(mine)).not.toContain(other.surveyId);
    expect(JSON.stringify(mine)).not.toContain('Rival');
    const { text } = await pageText('/', shop.owner.jar);
    expect(text).not.toContain('Rival');

    const theirs = await home(other.owner.jar);
    expect(theirs.week).toMatchObject({ responses: 7, rewardsIssued: 5, rewardValue: 1500 });
    expect(theirs.heldRewards).toBe(2);
    expect(theirs.surveys.map((s) => s.title)).toEqual(['Rival secret survey']);
    expect(JSON.stringify(theirs)).not.toContain(shop.surveyId);
    expect(JSON.stringify(theirs)).not.toContain(draftId);
  });

  it('archived surveys are listed last, under Archived; paused ones say so', async () => {
    const paused = await createSurvey(app, shop.owner.jar, { title: 'Paused pastry poll' });
    await publishForTest(app, shop.owner.jar, paused.id);
    await query(app, 'update survey_configs set is_active = false where id = ?', [paused.id]);
    const archived = await createSurvey(app, shop.owner.jar, { title: 'Old summer survey' });
    await query(app, 'update survey_configs set archived_at = now() where id = ?', [archived.id]);
    const d = await home(shop.owner.jar);
    expect(d.surveys.at(-1)).toMatchObject({ title: 'Old summer survey', status: { key: 'archived', label: 'Archived' } });
    expect(d.surveys.find((s) => s.title === 'Paused pastry poll')!.status).toMatchObject({ key: 'paused', label: 'Paused' });
    expect(d.surveyCount).toBe(3);
    const { text } = await pageText('/', shop.owner.jar);
    expect(text).toContain('Archived (1)');
  });
});

describe('a published survey that customers cannot open yet', () => {
  it('says "Published, not live yet" with the fix: connect Square', async () => {
    const owner = await signedInOwner(app, 'Not Yet Live Deli');
    const { id } = await createSurvey(app, owner.jar, { title: 'Deli survey' });
    await startTrialForTest(app, owner);
    await publishForTest(app, owner.jar, id);
    const d = await home(owner.jar);
    expect(d.surveys[0]!.status).toEqual({
      key: 'not_live',
      label: 'Published, not live yet',
      detail: 'Connect Square so rewards can be delivered.',
      next: { label: 'Connect Square', href: '/api/square/auth' },
    });
    const { text } = await pageText('/', owner.jar);
    expect(text).toContain('Deli survey Published, not live yet Connect Square so rewards can be delivered.');
  });
});

describe('the owner, read with the session in one statement', () => {
  it('an expired or deleted session is signed out; a live one reads its own business', async () => {
    const owner = await signedInOwner(app, 'Session Check Cafe');
    expect((await home(owner.jar)).displayName).toBe('Session Check Cafe');
    await query(app, `update sessions set expire = now() - interval '1 second' where sess->>'businessId' = ?`, [owner.id]);
    const expired = await run(() => dashboardLoader({ request: getRequest('/dashboard', owner.jar), context: app.context(), params: {} }));
    expect(expired.body).toMatchObject({ dashboard: null });
    const again = await signedInOwner(app, 'Session Check Two');
    await query(app, `delete from sessions where sess->>'businessId' = ?`, [again.id]);
    const deleted = await run(() => dashboardLoader({ request: getRequest('/dashboard', again.jar), context: app.context(), params: {} }));
    expect(deleted.body).toMatchObject({ dashboard: null });
  });
});
