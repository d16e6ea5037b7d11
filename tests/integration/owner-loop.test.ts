import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { loader as previewLoader } from '#app/routes/_surveys+/survey-preview.tsx';
import { loader as dashboardLoader } from '#app/routes/_owner+/dashboard.tsx';
import { action as cancelApi } from '#app/routes/api+/stripe.cancel-subscription.ts';
import { DECLINED_CARD, startTrialForTest } from '../setup/billing.ts';
import { action as startCheckout } from '#app/routes/api+/create-subscription-existing.ts';
import { action as rewardsAction, loader as rewardsLoader } from '#app/routes/_owner+/rewards.tsx';
import { action as manageAction, loader as manageLoader } from '#app/routes/_surveys+/survey-management.tsx';
import { builderFields, connectSquareForTest, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { getTemplate, templateQuestionList } from '../../modules/surveys/index.ts';
import { query, rewardingBusiness, SILVER_ANSWERS } from '../setup/rewards.ts';
import { loader as analyticsLoader } from '#app/routes/_analytics+/survey-analytics.$surveyId.tsx';
import { loader as exportLoader } from '#app/routes/_analytics+/survey-analytics.export.$kind.ts';
import { formRequest, getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { servePages, type PageServer } from '../setup/pages.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 27: the owner's side without dead ends or contradicting states.

let app: TestApp;
const ctx = () => app.context();
// The pages as a browser gets them: the Express pipeline in front of Vite's SSR build of app/ (as in hardening.test.ts).
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

let ipCounter = 0;
/** A page's HTML as the owner's browser gets it (its own address, so per-IP limits stay out of the way). */
async function page(path: string, jar?: CookieJar, init: { method?: string; body?: string } = {}) {
  ipCounter += 1;
  const headers: Record<string, string> = { 'X-Forwarded-For': `10.27.${(ipCounter >> 8) & 255}.${ipCounter & 255}` };
  if (jar) headers.Cookie = jar.header();
  if (init.body) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body: init.body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text() };
}
/** The text a reader sees: tags dropped, entities of the usual kind decoded, whitespace folded. */
const visibleText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');

describe('item 1: preview before any trial or plan', () => {
  let owner: { jar: CookieJar; id: string };
  let surveyId: string;
  beforeAll(async () => {
    owner = await signedInOwner(app, 'No Plan Yet Cafe');
    surveyId = (await createSurvey(app, owner.jar)).id;
  });

  const openPreview = (jar?: CookieJar, query = '?bypass_square=true') =>
    run(() => publicPage.loader({ request: getRequest(`/survey/public/${owner.id}/${surveyId}${query}`, jar), context: ctx(), params: { businessId: owner.id, surveyId } }));

  it('the preview link of /survey-preview opens the survey for its owner, who has no plan', async () => {
    const page = await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${surveyId}`, owner.jar), context: ctx(), params: {} }));
    expect(page.status).toBe(200);
    // The short link (ADR 082) with bypass_square=true; it redirects to the public path, query kept.
    const previewUrl = (page.body as { previewUrl: string }).previewUrl;
    expect(previewUrl).toMatch(/^http:\/\/localhost:3000\/s\/[a-z2-9]{9}\?bypass_square=true$/);
    const res = await openPreview(owner.jar, new URL(previewUrl).search);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ view: { mode: 'preview', title: 'Spring feedback' } });
  });

  it('a preview submission is scored and stores nothing', async () => {
    const res = await run(() =>
      submitApi({
        request: jsonRequest(`/api/survey/submit/${owner.id}/${surveyId}`, { responses: { overall_rating: 5 }, customerEmail: 'a@b.co', bypassSquare: true }, owner.jar),
        context: ctx(),
        params: { businessId: owner.id, surveyId },
      }),
    );
    expect(res.status).toBe(200);
    const rows = await app.root.db.orm.em.getConnection().execute('select count(*)::int as n from survey_responses where survey_config_id = ?', [surveyId]);
    expect(rows[0]?.n).toBe(0);
  });

  it('customers and other owners still get Survey Not Found', async () => {
    expect((await openPreview()).status).toBe(404);
    expect((await openPreview(owner.jar, '')).status).toBe(404);
    const stranger = await signedInOwner(app, 'Stranger Diner');
    expect((await openPreview(stranger.jar)).status).toBe(404);
  });
});

describe('item 3: after a cancelled trial the dashboard offers no trial', () => {
  const dashboard = async (jar: CookieJar) => {
    const res = await run(() => dashboardLoader({ request: getRequest('/dashboard', jar), context: ctx(), params: {} }));
    expect(res.status).toBe(200);
    return (res.body as { dashboard: { trialAvailable: boolean; billing: { hasActiveTrial: boolean } } }).dashboard;
  };

  it('offers the trial to a new owner, and plans (not a trial) once a trial was cancelled', async () => {
    const owner = await signedInOwner(app, 'Cancelled Trial Bistro');
    expect(await dashboard(owner.jar)).toMatchObject({ trialAvailable: true, billing: { hasActiveTrial: false } });
    expect(visibleText((await page('/dashboard', owner.jar)).html)).toContain('14-Day Free Trial');
    await startTrialForTest(app, owner);
    expect(await dashboard(owner.jar)).toMatchObject({ billing: { hasActiveTrial: true } });
    const cancelled = await run(() => cancelApi({ request: jsonRequest('/api/stripe/cancel-subscription', {}, owner.jar), context: ctx(), params: {} }));
    expect(cancelled.status).toBe(200);
    expect(await dashboard(owner.jar)).toMatchObject({ trialAvailable: false, billing: { hasActiveTrial: false } });
    const text = visibleText((await page('/dashboard', owner.jar)).html);
    expect(text).not.toContain('14-Day Free Trial');
    expect(text).not.toMatch(/start (a |your )?(free )?trial/i);
    expect(text).toContain('Choose a plan to publish');
    expect(text).toContain('You used your free trial within the last 6 months');
  });
});

describe("item 7: 'Survey Published!' only when customers can open it", () => {
  /** Publishes through the page's form (no JavaScript) and opens the page it redirects to, with its toast. */
  async function publishByForm(owner: { jar: CookieJar }, surveyId: string) {
    const posted = await page('/subscription-check', owner.jar, { method: 'POST', body: new URLSearchParams({ surveyId }).toString() });
    expect(posted.status).toBe(302);
    expect(posted.headers.get('Location')).toBe(`/survey-published/${surveyId}`);
    owner.jar.take(new Response(null, { headers: posted.headers }));
    const shown = await page(`/survey-published/${surveyId}`, owner.jar);
    expect(shown.status).toBe(200);
    return shown.html;
  }

  it('without Square: says what is missing, links to connecting Square, and offers no live link, QR code or flyer', async () => {
    const owner = await signedInOwner(app, 'Not Live Yet Cafe');
    const { id: surveyId, shortCode } = await createSurvey(app, owner.jar);
    await startTrialForTest(app, owner);
    const html = await publishByForm(owner, surveyId);
    const text = visibleText(html);
    expect(text).not.toContain('Survey Published!');
    expect(text).toContain('Published, not live yet');
    expect(text).toContain('Connect Square so rewards can be delivered.');
    expect(html).toMatch(/<a[^>]*href="\/api\/square\/auth"[^>]*>Connect Square<\/a>/);
    expect(text).not.toContain('View Live Survey');
    expect(html).not.toContain('/survey-materials/');
    expect(html).not.toContain('<svg'.concat(' ')); // no QR code drawn
    // The only link to the survey is the owner's own preview (its short link, ADR 082), which opens.
    expect(html).toContain(`/s/${shortCode}?bypass_square=true`);
    expect(html).not.toMatch(new RegExp(`/s/${shortCode}"`));
    expect(html).not.toContain('/survey/public/');

    // Once Square is connected the same page shares the live link, the QR code and the flyer.
    await connectSquareForTest(app, owner.id);
    const live = await page(`/survey-published/${surveyId}`, owner.jar);
    expect(visibleText(live.html)).toContain('View Live Survey');
    expect(live.html).toContain(`/survey-materials/${surveyId}/flyer`);
    expect(live.html).toContain(`/survey-materials/${surveyId}/qr`);
    expect(visibleText(live.html)).not.toContain('Surveys Currently Unavailable');
  });

  it("with Square connected: 'Survey Published!'", async () => {
    const owner = await signedInOwner(app, 'Live Cafe');
    const surveyId = (await createSurvey(app, owner.jar)).id;
    await startTrialForTest(app, owner);
    await connectSquareForTest(app, owner.id);
    const text = visibleText(await publishByForm(owner, surveyId));
    expect(text).toContain('Survey Published!');
    expect(text).not.toContain('not live yet');
  });
});

describe('item 13: Release, Reject and Archive ask first; rejected rewards stay in sight', () => {
  const holdStatus = async (responseId: string) => (await query<{ status: string }>(app, 'select status from reward_holds where survey_response_id = ?', [responseId]))[0]?.status;
  const rewardsData = async (jar: CookieJar, path = '/rewards') =>
    (await run(() => rewardsLoader({ request: getRequest(path, jar), context: ctx(), params: {} }))).body as {
      held: Array<{ surveyResponseId: string }>;
      rejected: Array<{ surveyResponseId: string; status: string; decidedAt: string | null }>;
      confirm: { decision: string; reward: { surveyResponseId: string } } | null;
    };

  it('Reject: the button is a link to a confirm step; a post without it changes nothing; confirmed, the reward stays listed as Rejected', async () => {
    const shop = await rewardingBusiness(app, 'Careful Cafe');
    const responseId = await shop.submit('someone@mailinator.com'); // a disposable domain: held (ADR 050)
    expect(await holdStatus(responseId)).toBe('held');
    const jar = shop.owner.jar;

    // Without JavaScript: the list links to the confirm step, which holds the one form that decides.
    const list = await page('/rewards', jar);
    expect(list.html).toContain(`href="/rewards?confirm=reject&amp;responseId=${responseId}"`);
    expect(list.html).not.toMatch(/<button[^>]*value="reject"/);
    const step = await page(`/rewards?confirm=reject&responseId=${responseId}`, jar);
    expect(step.html).toContain('role="alertdialog"');
    expect(visibleText(step.html)).toContain('Reject this reward?');
    expect(step.html).toMatch(/<input type="hidden" name="confirmed" value="yes"\/>/);
    expect((await rewardsData(jar, `/rewards?confirm=release&responseId=${responseId}`)).confirm).toMatchObject({ decision: 'release', reward: { surveyResponseId: responseId } });

    // A post that skipped the step is sent to it, and nothing is decided.
    const unasked = await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'reject', responseId }, jar), context: ctx(), params: {} }));
    expect(unasked.status).toBe(302);
    expect(unasked.headers.get('Location')).toBe(`/rewards?confirm=reject&responseId=${responseId}`);
    expect(await holdStatus(responseId)).toBe('held');

    // Confirmed: rejected, and still on the page with its status.
    const done = await page(`/rewards?confirm=reject&responseId=${responseId}`, jar, { method: 'POST', body: new URLSearchParams({ intent: 'reject', responseId, confirmed: 'yes' }).toString() });
    expect(done.status).toBe(302);
    expect(await holdStatus(responseId)).toBe('rejected');
    const after = await rewardsData(jar);
    expect(after.held.map((h) => h.surveyResponseId)).not.toContain(responseId);
    expect(after.rejected).toEqual([expect.objectContaining({ surveyResponseId: responseId, status: 'rejected', decidedAt: expect.any(String) })]);
    const text = visibleText((await page('/rewards', jar)).html);
    expect(text).toContain('Rejected rewards');
    expect(text).toMatch(/someone@mailinator\.com.*Rejected/);
    // The confirm step of a decided reward shows nothing to confirm.
    expect((await rewardsData(jar, `/rewards?confirm=release&responseId=${responseId}`)).confirm).toBeNull();
  });

  it("another owner can neither open the confirm step of, nor see, a business's rejected reward", async () => {
    const shop = await rewardingBusiness(app, 'Private Cafe');
    const responseId = await shop.submit('hidden@mailinator.com');
    const other = await signedInOwner(app, 'Nosy Cafe');
    expect((await rewardsData(other.jar, `/rewards?confirm=reject&responseId=${responseId}`)).confirm).toBeNull();
    await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'reject', responseId, confirmed: 'yes' }, shop.owner.jar), context: ctx(), params: {} }));
    expect((await rewardsData(other.jar)).rejected).toEqual([]);
  });

  it('Archive: a link to a confirm step; a post without it changes nothing; confirmed, archived', async () => {
    const owner = await signedInOwner(app, 'Archive Carefully');
    const { id } = await createSurvey(app, owner.jar, { title: 'Winter menu' });
    const archivedAt = async () => (await query<{ archived_at: Date | null }>(app, 'select archived_at from survey_configs where id = ?', [id]))[0]?.archived_at;
    const list = await page('/survey-management', owner.jar);
    expect(list.html).toContain(`href="/survey-management?confirm=archive&amp;surveyId=${id}"`);
    expect(list.html).not.toMatch(/<button[^>]*value="archive"/);
    const step = await page(`/survey-management?confirm=archive&surveyId=${id}`, owner.jar);
    expect(visibleText(step.html)).toContain('Archive Winter menu?');
    expect(step.html).toContain('role="alertdialog"');

    const unasked = await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'archive', surveyId: id }, owner.jar), context: ctx(), params: {} }));
    expect(unasked.status).toBe(302);
    expect(unasked.headers.get('Location')).toBe(`/survey-management?confirm=archive&surveyId=${id}`);
    expect(await archivedAt()).toBeNull();
    const bad = await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'archive', surveyId: 'nope' }, owner.jar), context: ctx(), params: {} }));
    expect(bad.status).toBe(404);

    // Another owner gets no confirm step for it, and cannot archive it.
    const other = await signedInOwner(app, 'Other Archiver');
    const foreign = (await run(() => manageLoader({ request: getRequest(`/survey-management?confirm=archive&surveyId=${id}`, other.jar), context: ctx(), params: {} }))).body as { confirmArchive: unknown };
    expect(foreign.confirmArchive).toBeNull();
    expect((await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'archive', surveyId: id, confirmed: 'yes' }, other.jar), context: ctx(), params: {} }))).status).toBe(404);
    expect(await archivedAt()).toBeNull();

    const done = await page(`/survey-management?confirm=archive&surveyId=${id}`, owner.jar, { method: 'POST', body: new URLSearchParams({ intent: 'archive', surveyId: id, confirmed: 'yes' }).toString() });
    expect(done.status).toBe(302);
    expect(await archivedAt()).not.toBeNull();
  });
});

/** RFC 4180 CSV, enough for the export (quoted fields, doubled quotes, CRLF), without the BOM. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('item 4: a rejected reward reads Rejected; the CSV says where rewards stand, what was verified, and only the platforms used', () => {
  it('All Responses and the CSV', async () => {
    const shop = await rewardingBusiness(app, 'Honest Numbers Cafe'); // Google reviews, Instagram
    const plain = await shop.submit('glad@example.com', 'Gus');
    const rejected = await shop.submit('odd@mailinator.com', 'Rex');
    await run(() => rewardsAction({ request: formRequest('/rewards', { intent: 'reject', responseId: rejected, confirmed: 'yes' }, shop.owner.jar), context: ctx(), params: {} }));
    // Gus's verified Google review screenshot, used by his response (the response row itself has no review columns).
    await query(
      app,
      `insert into screenshot_verifications (business_id, survey_config_id, kind, platform, upload_key, image_hash, reviewer_name, review_link, star_rating, is_valid, survey_response_id)
       values (?, ?, 'review', 'google', 'k-gus', 'sha256:gus', 'Gus P.', 'https://g.page/r/x/review/1', 5, true, ?)`,
      [shop.businessId, shop.surveyId, plain],
    );
    await query(app, 'update survey_responses set review_platform = null, review_star_rating = null, reviewer_name = null where id = ?', [plain]);

    const analytics = await run(() => analyticsLoader({ request: getRequest(`/survey-analytics/${shop.surveyId}`, shop.owner.jar), context: ctx(), params: { surveyId: shop.surveyId } }));
    const rows = (analytics.body as { responses: { rows: Array<{ id: string; rewardStatus: string; rewardValue: number | null }> } }).responses.rows;
    expect(rows.find((r) => r.id === rejected)).toMatchObject({ rewardStatus: 'rejected', rewardValue: 300 });
    expect(rows.find((r) => r.id === plain)?.rewardStatus).toBe('pending'); // queued, no card yet (no worker runs here)
    const text = visibleText((await page(`/survey-analytics/${shop.surveyId}`, shop.owner.jar)).html);
    expect(text).toMatch(/Rex.*\$3\.00 Rejected/);

    const res = await run(() => exportLoader({ request: getRequest(`/survey-analytics/export/responses?survey=${shop.surveyId}`, shop.owner.jar), context: ctx(), params: { kind: 'responses' } }));
    expect(res.status).toBe(200);
    const [header, ...body] = parseCsv(String(res.body));
    const col = (name: string) => header!.indexOf(name);
    expect(col('Reward status')).toBeGreaterThan(-1);
    const rex = body.find((r) => r[col('Email')] === 'odd@mailinator.com')!;
    const gus = body.find((r) => r[col('Email')] === 'glad@example.com')!;
    expect([rex[col('Reward ($)')], rex[col('Reward status')]]).toEqual(['3.00', 'Rejected']);
    expect([gus[col('Review platform')], gus[col('Review stars')], gus[col('Reviewer name')], gus[col('Verified proofs')]]).toEqual(['Google', '5', 'Gus P.', 'Google review']);
    // Only the platforms this survey uses: Google and Instagram blocks, none of Yelp, Facebook, TikTok, X, TripAdvisor...
    expect(header).toContain('Google review: reviewer name');
    expect(header!.filter((h) => /^(Yelp|Facebook|TikTok|X|TripAdvisor|Tripadvisor)\b/.test(h))).toEqual([]);
    expect(header!.some((h) => /^Instagram\b/.test(h))).toBe(true);
  });
});

describe("item 5: the builder's Survey Stats and its warnings are one decision", () => {
  /** The Survey Stats' tier lines as shown: 'Gold (18+ points) Needs a fix'. */
  const tierLines = (html: string) => {
    const list = /data-testid="reachable-tiers"[^>]*>([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    return [...list.matchAll(/<li[\s\S]*?<\/li>/g)].map((m) => visibleText(m[0]).trim());
  };

  it('Gold that needs no sharing is "Needs a fix" beside the warning, never "Reachable"; fixed, both agree', async () => {
    const owner = await signedInOwner(app, 'Consistent Cafe');
    // A 2-point question everyone can answer: 19 points without sharing, Gold at 18 (as in review-policy.test.ts).
    const milk = { id: 'q_milk0001', section: 'part2', origin: 'owner', type: 'yes_no', text: 'Would you like oat milk?', required: false, points: 2 };
    const questions = JSON.stringify([...templateQuestionList(getTemplate('restaurant_cafe_bakery')!), milk]);
    const post = (gold: string) =>
      page('/survey-builder', owner.jar, { method: 'POST', body: new URLSearchParams(builderFields({ customQuestions: questions, tierBronze: '5', tierSilver: '8', tierGold: gold })).toString() });

    const refused = await post('18');
    expect(refused.status).toBe(400);
    expect(visibleText(refused.html)).toContain('Gold must need sharing');
    const lines = tierLines(refused.html);
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('Gold'))).toBe('Gold (18+ points) Needs a fix');
    expect(lines.find((l) => l.startsWith('Bronze'))).toBe('Bronze (5+ points) Reachable');
    expect(refused.html).toContain('data-testid="tiers-need-fix"');

    // Gold out of reach: the stats say so, and so does the warning.
    const tooHigh = await post('900');
    expect(tooHigh.status).toBe(400);
    expect(visibleText(tooHigh.html)).toContain('Gold needs 900 points');
    expect(tierLines(tooHigh.html).find((l) => l.startsWith('Gold'))).toBe('Gold (900+ points) Out of reach');

    const saved = await post('22');
    expect(saved.status).toBe(302);
    const edit = await page(new URL(saved.headers.get('Location')!, base).pathname.replace('survey-preview', 'survey-builder') + new URL(saved.headers.get('Location')!, base).search, owner.jar);
    expect(visibleText(edit.html)).not.toContain('Gold must need sharing');
    expect(tierLines(edit.html).find((l) => l.startsWith('Gold'))).toBe('Gold (22+ points) Reachable');
  });
});

describe('item 6: the redemption website is marked required', () => {
  it('its label says Required and the input is aria-required, as the save requires it', async () => {
    const owner = await signedInOwner(app, 'Marked Fields Cafe');
    const html = (await page('/survey-builder', owner.jar)).html;
    const label = /<label[^>]*for="([^"]+)"[^>]*>(?:(?!<\/label>)[\s\S])*Redemption website(?:(?!<\/label>)[\s\S])*<\/label>/.exec(html);
    expect(label).not.toBeNull();
    expect(visibleText(label![0])).toContain('Required');
    expect(html).toMatch(new RegExp(`<input[^>]*id="${label![1]}"[^>]*aria-required="true"|<input[^>]*aria-required="true"[^>]*id="${label![1]}"`));
    // And the save agrees: without one the form is refused with the field's message.
    const refused = await page('/survey-builder', owner.jar, { method: 'POST', body: new URLSearchParams(builderFields({ redemptionWebsite: '' })).toString() });
    expect(refused.status).toBe(400);
    expect(visibleText(refused.html)).toContain('Redemption website is required');
  });
});

describe("item 9: a repeat email is refused without 'You've earned' beside it", () => {
  it('without JavaScript: the claim box says the email cannot get a reward, next to the window refusal', async () => {
    const shop = await rewardingBusiness(app, 'Once A Quarter Cafe');
    await shop.submit('rita@example.com', 'Rita');
    const customerPage = `/survey/public/${shop.businessId}/${shop.surveyId}`;
    // The page's own multipart form post, as a browser without JavaScript sends it.
    const post = async (email: string, intent: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(SILVER_ANSWERS)) form.append(k, String(v));
      for (const [k, v] of [['customerEmail', email], ['_section', '2'], ['_intent', intent]]) form.append(k!, v!);
      ipCounter += 1;
      const res = await fetch(base + customerPage, { method: 'POST', body: form, headers: { 'X-Forwarded-For': `10.29.0.${ipCounter & 255}` }, redirect: 'manual' });
      return { status: res.status, html: await res.text() };
    };
    const claim = (html: string) => visibleText(/data-testid="claim-text"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').trim();

    // A new customer on the claim section: the reward they earned.
    const fresh = await post('new@example.com', 'stay');
    expect(claim(fresh.html)).toMatch(/^You've earned Silver/);

    const again = await post('rita@example.com', 'submit');
    expect(again.status).toBe(400);
    const text = visibleText(again.html);
    expect(text).toContain('Cannot Submit Survey');
    expect(claim(again.html)).toBe('This email cannot get a reward right now: see the message under the email field.');
    expect(text).not.toContain("You've earned");
    // The refusal is tied to the email field.
    expect(again.html).toMatch(/id="customerEmail"[^>]*aria-describedby="customerEmail-error"|aria-describedby="customerEmail-error"[^>]*id="customerEmail"/);
  });
});

describe('item 10: a declined card keeps what it may; "Choose another plan" keeps the survey', () => {
  it('without JavaScript: the expiry comes back filled (never the number or CVC), and the plans link carries the survey', async () => {
    const owner = await signedInOwner(app, 'Declined Card Cafe');
    const { id: surveyId } = await createSurvey(app, owner.jar);
    const started = await run(() => startCheckout({ request: jsonRequest('/api/create-subscription-existing', { planId: 'growth', isYearly: false, surveyId }, owner.jar), context: ctx(), params: {} }));
    expect(started.status).toBe(201);
    const { setupIntentId, clientSecret } = started.body as { setupIntentId: string; clientSecret: string };

    const checkout = await page(`/stripe-checkout?setupIntentId=${setupIntentId}`, owner.jar);
    expect(checkout.status).toBe(200);
    expect(checkout.html).toContain(`href="/subscription-plans?billing=monthly&amp;surveyId=${surveyId}"`);

    const declined = await page('/api/billing/fake/confirm-setup', owner.jar, {
      method: 'POST',
      body: new URLSearchParams({ setupIntentId, clientSecret, cardNumber: DECLINED_CARD, expiry: '12/34', cvc: '123' }).toString(),
    });
    expect(declined.status).toBe(303);
    const back = declined.headers.get('Location')!;
    expect(back).not.toContain('4000');
    expect(back).not.toContain('cvc');
    const shown = await page(back, owner.jar);
    const text = visibleText(shown.html);
    expect(text).toContain('Setup Failed');
    expect(text).toContain('Your card was declined.');
    expect(shown.html).toMatch(/<input[^>]*id="expiry"[^>]*value="12\/34"/);
    expect(shown.html).not.toContain(DECLINED_CARD.replace(/ /g, ''));
    expect(shown.html).not.toMatch(/<input[^>]*id="cvc"[^>]*value=/);
    expect(shown.html).toContain(`href="/subscription-plans?billing=monthly&amp;surveyId=${surveyId}"`);

    // The plans page it leads to still knows the survey: the next checkout is started for it.
    const plans = await page(`/subscription-plans?billing=monthly&surveyId=${surveyId}`, owner.jar);
    expect(plans.html).toMatch(new RegExp(`<input type="hidden" name="surveyId" value="${surveyId}"`));
  });
});

describe('item 11: plan copy', () => {
  it('each plan states its own daily average, and no plan lists as its own a feature a cheaper plan has', async () => {
    const text = visibleText((await page('/subscription-plans')).html);
    expect(text).not.toContain('5+ daily engagements');
    const daily = [...text.matchAll(/About (\d+) rewards? a day on average/g)].map((m) => Number(m[1]));
    expect(daily).toEqual([1, 3, 33]); // 30, 100 and 1000 rewards a month
    // Survey analytics: in Starter (every plan has it), not sold again as a Growth feature.
    const starter = text.slice(text.indexOf('Starter'), text.indexOf('Growth'));
    const growth = text.slice(text.indexOf('Growth'), text.indexOf('Pro '));
    expect(starter).toContain('Survey analytics');
    expect(growth).not.toContain('Survey analytics');
  });
});

describe('item 14: polish', () => {
  it('sign-up is titled as such, and Google is simply absent when not configured', async () => {
    expect(app.root.config.GOOGLE_CLIENT_ID ?? null).toBeNull();
    const signup = (await page('/auth?mode=signup')).html;
    expect(/<title>([^<]*)<\/title>/.exec(signup)?.[1]).toBe('Create your account — RewardLoop');
    expect(/<title>([^<]*)<\/title>/.exec((await page('/auth')).html)?.[1]).toBe('Sign in — RewardLoop');
    expect(visibleText(signup)).not.toMatch(/Google/);
  });

  it("'+1 pt', and the link mark is drawn, not the '↗' character", async () => {
    const shop = await rewardingBusiness(app, 'One Point Cafe');
    const html = (await page(`/survey/public/${shop.businessId}/${shop.surveyId}`)).html;
    expect(visibleText(html)).toContain('+1 pt ');
    expect(html).not.toMatch(/\+1 pts/);
    expect(html).not.toContain('↗');
  });

  it('a used confirmation link: already confirmed when it is, and no "error" either way', async () => {
    const owner = await signedInOwner(app, 'Confirmed Cafe');
    const token = 'a'.repeat(43);
    const used = await page(`/email-verified/${token}`, owner.jar);
    expect(visibleText(used.html)).toContain('Link no longer valid');
    expect(visibleText(used.html)).not.toMatch(/error/i);
    await query(app, 'update businesses set is_email_verified = true where id = ?', [owner.id]);
    const again = visibleText((await page(`/email-verified/${token}`, owner.jar)).html);
    expect(again).toContain('Your email address is already confirmed.');
    expect(again).not.toMatch(/error|failed/i);
  });

  it("Getting Started's step 4 is ticked once a survey is published", async () => {
    const owner = await signedInOwner(app, 'Step Four Cafe');
    const { id } = await createSurvey(app, owner.jar);
    const done = async () => visibleText((await page('/dashboard', owner.jar)).html).includes('Set up reward campaigns (done)');
    expect(await done()).toBe(false);
    await startTrialForTest(app, owner);
    await publishForTest(app, owner.jar, id);
    expect(await done()).toBe(true);
  });

  it('tier cards: small text without transparency, tier colours at AA on their soft backgrounds', async () => {
    const { readFile } = await import('node:fs/promises');
    const css = await readFile(new URL('../../app/theme.css', import.meta.url), 'utf8');
    const color = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)![1]!;
    const lum = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const ratio = (a: string, b: string) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    for (const tier of ['bronze', 'silver', 'gold']) expect(ratio(color(tier), color(`${tier}-soft`)), tier).toBeGreaterThanOrEqual(4.5);
    const owner = await signedInOwner(app, 'Contrast Cafe');
    const { id } = await createSurvey(app, owner.jar);
    const html = (await page(`/survey-preview?surveyId=${id}`, owner.jar)).html;
    expect(html).toContain('points</p>');
    expect(html).toMatch(/class="text-xs">[^<]*(<!-- -->)?[^<]*points<\/p>/);
    expect(html).not.toMatch(/class="text-xs opacity-\d+"/);
  });
});

describe('item 8: the required-rating toast does not cover the buttons', () => {
  it('on a phone the toast is at the top of the screen (the buttons are at the bottom); the rating carries the error', async () => {
    const shop = await rewardingBusiness(app, 'Rate Us Cafe');
    const form = new FormData();
    form.append('_section', '0');
    form.append('_intent', 'next');
    const res = await fetch(`${base}/survey/public/${shop.businessId}/${shop.surveyId}`, { method: 'POST', body: form, headers: { 'X-Forwarded-For': '10.30.0.1' } });
    const html = await res.text();
    expect(visibleText(html)).toContain('Please rate your overall experience to continue.');
    const region = /<div data-toast-region[^>]*class="([^"]+)"/.exec(html)?.[1];
    expect(region).toBeDefined();
    expect(region!.split(' ')).toEqual(expect.arrayContaining(['top-2', 'sm:top-auto', 'sm:bottom-4']));
    expect(region!.split(' ')).not.toContain('bottom-4');
    expect(html).toMatch(/<fieldset[^>]*aria-describedby="overall_rating-error"/);
  });
});

describe('item 12: without JavaScript the builder comes back where the owner was', () => {
  it('every add, move, remove and restore button posts to the page with the anchor of its question (or of the editor)', async () => {
    const owner = await signedInOwner(app, 'Anchored Cafe');
    const html = (await page('/survey-builder', owner.jar)).html;
    const buttons = [...html.matchAll(/<button[^>]*name="intent"[^>]*value="(question:[^"]+)"[^>]*>/g)].map((m) => ({ tag: m[0], intent: m[1]! }));
    expect(buttons.length).toBeGreaterThan(10);
    for (const { tag, intent } of buttons) {
      const action = /formAction="([^"]+)"/i.exec(tag)?.[1];
      expect(action, intent).toMatch(/^\/survey-builder#(q-[\w-]+|question-editor)$/);
      const anchor = action!.split('#')[1]!;
      expect(html, `${intent} -> #${anchor}`).toContain(`id="${anchor}"`);
    }
    // A remove without JavaScript: the answer has the question's row (now among the removed) under that anchor.
    const remove = buttons.find((b) => b.intent.includes('remove'))!;
    const anchor = /#(q-[\w-]+)/.exec(remove.tag)![1]!;
    const fields = builderFields({ intent: remove.intent });
    const posted = await page('/survey-builder', owner.jar, { method: 'POST', body: new URLSearchParams(fields).toString() });
    expect(posted.status).toBeLessThan(500);
    expect(posted.html).toMatch(new RegExp(`<li[^>]*id="${anchor}"[^>]*>[\\s\\S]*?Restore`));
  });
});
