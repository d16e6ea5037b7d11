import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as apiAll } from '#app/routes/api+/survey.responses.ts';
import { loader as apiOne } from '#app/routes/api+/survey.responses.$surveyId.ts';
import { loader as apiCards } from '#app/routes/api+/gift-card-issuances.ts';
import { loader as pageAll } from '#app/routes/_analytics+/survey-analytics._index.tsx';
import { loader as pageOne } from '#app/routes/_analytics+/survey-analytics.$surveyId.tsx';
import { loader as detailLoader } from '#app/routes/_analytics+/survey-analytics.responses.$responseId.tsx';
import { action as progressAction } from '#app/routes/api+/survey.progress.$businessId.$surveyId.ts';
import { action as surveyPageAction, loader as surveyPageLoader } from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import { loader as shotLoader } from '#app/routes/_analytics+/survey-analytics.screenshots.$verificationId.ts';
import { loader as exportLoader } from '#app/routes/_analytics+/survey-analytics.export.$kind.ts';
import type { AnalyticsPageData } from '#app/utils/analytics.server.ts';
import type { ResponseDetail } from '../../modules/analytics/index.ts';
import { EXIT } from '../../cli/program.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { createSurvey, signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { query, rewardingBusiness } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

/**
 * Issue 12: the analytics pages and the responses API through their loaders, with real Requests and
 * cookies, over a hand-made data set whose figures are computed by hand below: ratings at the
 * sentiment boundaries (4, 3, below 3), responses without a tier, two surveys of one owner, a
 * response on the last second of a date range and one on the first second after it, and another
 * owner whose data must never show.
 */

let app: TestApp;
let a: { jar: CookieJar; id: string };
let b: { jar: CookieJar; id: string };
let s1: string;
let s2: string;
let sb: string;
const ids: Record<string, string> = {};
let shotId: string;

type Seed = { key: string; survey: () => string; business: () => string; at: string; points: number; tier: string | null; value: number | null; name: string | null; email: string | null; answers: Record<string, string | number> };

const seeds: Seed[] = [
  // Survey 1 of owner A.
  { key: 'r1', survey: () => s1, business: () => a.id, at: '2026-03-02T10:00:00Z', points: 20, tier: 'Gold', value: 800, name: 'Ana Silva', email: 'ana@example.com', answers: { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 4, favorite_item: 'The almond croissant, always warm' } },
  { key: 'r2', survey: () => s1, business: () => a.id, at: '2026-03-04T09:30:00Z', points: 12, tier: 'Silver', value: 300, name: 'Ben Okafor', email: 'ben@example.com', answers: { overall_rating: 4, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 3 } },
  { key: 'r3', survey: () => s1, business: () => a.id, at: '2026-03-10T12:00:00Z', points: 6, tier: 'Bronze', value: 100, name: null, email: 'cleo@example.com', answers: { overall_rating: 3, recommend: 'no', visit_frequency: 'Monthly', service_rating: 2 } },
  { key: 'r4', survey: () => s1, business: () => a.id, at: '2026-03-31T23:59:59Z', points: 2, tier: null, value: null, name: 'Dan', email: null, answers: { overall_rating: 2, visit_frequency: 'First time' } },
  { key: 'r5', survey: () => s1, business: () => a.id, at: '2026-04-01T00:00:00Z', points: 0, tier: null, value: null, name: null, email: null, answers: { overall_rating: '1' } },
  // Survey 2 of owner A: a customer whose name starts with '='.
  { key: 'r6', survey: () => s2, business: () => a.id, at: '2026-03-05T08:00:00Z', points: 25, tier: 'Gold', value: 800, name: '=HYPERLINK("x")', email: 'eve@example.com', answers: { overall_rating: 5 } },
  // Owner B: the same customer email as r1, never visible to A (and the reverse).
  { key: 'rb', survey: () => sb, business: () => b.id, at: '2026-03-03T08:00:00Z', points: 20, tier: 'Gold', value: 500, name: 'Ana Silva', email: 'ana@example.com', answers: { overall_rating: 5 } },
];

async function insertResponse(s: Seed) {
  const [row] = await query<{ id: string }>(
    app,
    `insert into survey_responses (business_id, survey_config_id, customer_email, customer_name, responses, total_points, reward_tier, reward_value, submitted_at)
     values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) returning id`,
    [s.business(), s.survey(), s.email, s.name, JSON.stringify(s.answers), s.points, s.tier, s.value, s.at],
  );
  return row!.id;
}

async function insertCard(responseId: string, business: string, card: { number: string; value: number; tier: string; square: boolean; balance: number | null; at: string }) {
  await query(
    app,
    `insert into gift_card_issuances (business_id, survey_response_id, customer_email, customer_name, gift_card_number, gift_card_id, reward_value, reward_tier, is_square_gift_card, issued_at, card_balance_cents, emailed_at)
     values (?, ?, 'x@example.com', null, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [business, responseId, card.number, card.square ? `gftc:${card.number}` : null, card.value, card.tier, card.square, card.at, card.balance, card.at],
  );
}

beforeAll(async () => {
  app = await createTestApp();
  a = await signedInOwner(app, 'Crumb & Co Bakery');
  b = await signedInOwner(app, 'Other Cafe');
  s1 = (await createSurvey(app, a.jar, { title: 'Spring feedback' })).id;
  s2 = (await createSurvey(app, a.jar, { title: 'Summer menu' })).id;
  sb = (await createSurvey(app, b.jar, { title: 'Other survey' })).id;
  for (const s of seeds) ids[s.key] = await insertResponse(s);
  // 12 more responses to survey 2 (pagination): no email, no tier, rating 4, in March 2026.
  await query(
    app,
    `insert into survey_responses (business_id, survey_config_id, customer_name, responses, total_points, submitted_at)
     select ?, ?, 'Walk-in ' || g, '{"overall_rating": 4}'::jsonb, 3, timestamptz '2026-03-20T10:00:00Z' + g * interval '1 minute' from generate_series(1, 12) g`,
    [a.id, s2],
  );
  await insertCard(ids.r1!, a.id, { number: '7783320000000001', value: 800, tier: 'Gold', square: true, balance: 300, at: '2026-03-02T10:01:00Z' });
  await insertCard(ids.r2!, a.id, { number: '7783320000000002', value: 300, tier: 'Silver', square: true, balance: null, at: '2026-03-04T09:31:00Z' });
  await insertCard(ids.r3!, a.id, { number: 'TEST000000000003', value: 100, tier: 'Bronze', square: false, balance: null, at: '2026-03-10T12:01:00Z' });
  await insertCard(ids.rb!, b.id, { number: '7783320000000009', value: 500, tier: 'Gold', square: true, balance: 0, at: '2026-03-03T08:01:00Z' });
  // r1's Google review screenshot: the image in the blob store, the verification used by r1.
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).webp().toBuffer();
  const { key } = await app.root.blobStore.put(png, 'image/webp');
  const [shot] = await query<{ id: string }>(
    app,
    `insert into screenshot_verifications (business_id, survey_config_id, kind, platform, upload_key, image_hash, reviewer_name, review_link, star_rating, is_valid, survey_response_id)
     values (?, ?, 'review', 'google', ?, 'sha256:abc', 'Ana S.', 'https://g.page/r/crumb/review/1', 5, true, ?) returning id`,
    [a.id, s1, key, ids.r1],
  );
  shotId = shot!.id;
  await query(app, `update survey_responses set responses = responses || ?::jsonb, review_platform = 'google', review_star_rating = 5, reviewer_name = 'Ana S.' where id = ?`, [
    JSON.stringify({ review_google_screenshot: shotId, review_google_reviewer_name: 'Ana S.', review_google_review_link: 'https://g.page/r/crumb/review/1' }),
    ids.r1,
  ]);
});
afterAll(async () => {
  await app?.close();
});

async function page(path: string, jar: CookieJar | null = a.jar) {
  const url = new URL(path, 'http://localhost:3000');
  const match = /^\/survey-analytics\/([^/]+)$/.exec(url.pathname);
  const request = getRequest(path, jar ?? undefined);
  const res = await run(() => (match ? pageOne({ request, context: app.context(), params: { surveyId: match[1] } }) : pageAll({ request, context: app.context(), params: {} })));
  return { status: res.status, headers: res.headers, data: res.body as AnalyticsPageData };
}

describe('/survey-analytics/{surveyId}: the figures', () => {
  it('stat cards: total, average points, Gold count; the title and badges come from the survey', async () => {
    const { status, data } = await page(`/survey-analytics/${s1}`);
    expect(status).toBe(200);
    expect(data.survey).toEqual({ id: s1, title: 'Spring feedback', isActive: true });
    expect(data.picker).toBeNull();
    // (20 + 12 + 6 + 2 + 0) / 5 = 8
    expect(data.stats).toMatchObject({ totalResponses: 5, averagePoints: 8, goldCount: 1 });
  });

  it('All Responses: newest first with customer, points, tier, reward; the first 10, then real pages', async () => {
    const one = (await page(`/survey-analytics/${s1}`)).data.responses!;
    expect(one.rows.map((r) => r.id)).toEqual([ids.r5, ids.r4, ids.r3, ids.r2, ids.r1]);
    expect(one.rows[4]).toMatchObject({ customerName: 'Ana Silva', customerEmail: 'ana@example.com', totalPoints: 20, rewardTier: 'Gold', rewardValue: 800, overallRating: 5, reviewPlatform: 'google', reviewStarRating: 5 });
    expect(one.rows[0]).toMatchObject({ rewardTier: null, rewardValue: null, overallRating: 1 });

    const first = (await page(`/survey-analytics/${s2}`)).data.responses!;
    expect(first).toMatchObject({ total: 13, page: 1, pageCount: 2, pageSize: 10 });
    expect(first.rows).toHaveLength(10);
    const second = (await page(`/survey-analytics/${s2}?page=2`)).data.responses!;
    expect(second.rows).toHaveLength(3);
    expect(second.rows.at(-1)!.id).toBe(ids.r6);
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(13);
    // A page past the end shows the last page.
    expect((await page(`/survey-analytics/${s2}?page=99`)).data.responses!.page).toBe(2);
  });

  it('search by email or name, case-insensitive, with LIKE characters taken literally', async () => {
    expect((await page(`/survey-analytics/${s1}?q=ANA`)).data.responses!.rows.map((r) => r.id)).toEqual([ids.r1]);
    expect((await page(`/survey-analytics/${s1}?q=cleo%40`)).data.responses!.rows.map((r) => r.id)).toEqual([ids.r3]);
    expect((await page(`/survey-analytics/${s1}?q=okafor`)).data.responses!.rows.map((r) => r.id)).toEqual([ids.r2]);
    expect((await page(`/survey-analytics/${s1}?q=%25`)).data.responses!.total).toBe(0);
    expect((await page(`/survey-analytics/${s1}?q=_`)).data.responses!.total).toBe(0);
  });

  it('Reward Distribution: count and percent per tier, responses without a tier apart', async () => {
    const { data } = await page(`/survey-analytics/${s1}?tab=distribution`);
    expect(data.distribution).toEqual({
      total: 5,
      tiers: [
        { tier: 'Bronze', count: 1, percent: 20 },
        { tier: 'Silver', count: 1, percent: 20 },
        { tier: 'Gold', count: 1, percent: 20 },
        { tier: 'No tier', count: 2, percent: 40 },
      ],
    });
    expect(data.responses).toBeNull();
  });

  it('Question Analysis: count, average, sentiment at the boundaries (4+, 3, below 3), top 5 and 5 recent answers, labelled', async () => {
    const { data } = await page(`/survey-analytics/${s1}?tab=questions`);
    const q = (key: string) => data.questions!.questions.find((x) => x.key === key)!;
    // Ratings 5, 4, 3, 2 and '1' (a string): mean 3, positive 5 and 4, neutral 3, negative 2 and 1.
    expect(q('overall_rating')).toMatchObject({ label: 'Overall rating', count: 5, averageRating: 3, sentiment: { positive: 2, neutral: 1, negative: 2 } });
    // Service 4, 3, 2: mean 3.
    expect(q('service_rating')).toMatchObject({ label: 'Service rating', count: 3, averageRating: 3, sentiment: { positive: 1, neutral: 1, negative: 1 } });
    expect(q('visit_frequency').top).toEqual([
      { answer: 'Weekly', count: 2 },
      { answer: 'First time', count: 1 },
      { answer: 'Monthly', count: 1 },
    ]);
    expect(q('visit_frequency')).toMatchObject({ averageRating: null, sentiment: null });
    expect(q('recommend').recent.map((r) => r.answer)).toEqual(['no', 'yes', 'yes']);
    expect(q('overall_rating').recent.map((r) => r.answer)).toEqual(['1', '2', '3', '4', '5']);
    expect(q('favorite_item')).toMatchObject({ label: 'Favorite item', count: 1, top: [{ answer: 'The almond croissant, always warm', count: 1 }] });
    // No contact details or screenshot ids among the questions.
    expect(data.questions!.questions.map((x) => x.key)).not.toContain('customer_email');
    expect(data.questions!.questions.map((x) => x.key)).not.toContain('review_google_screenshot');
  });

  it('ratings over time: weekly (Monday, UTC) mean overall rating, empty weeks kept', async () => {
    const { data } = await page(`/survey-analytics/${s1}?tab=questions`);
    expect(data.questions!.weeks).toEqual([
      { week: '2026-03-02', responses: 2, averageRating: 4.5 },
      { week: '2026-03-09', responses: 1, averageRating: 3 },
      { week: '2026-03-16', responses: 0, averageRating: null },
      { week: '2026-03-23', responses: 0, averageRating: null },
      { week: '2026-03-30', responses: 2, averageRating: 1.5 },
    ]);
  });

  it('Issued Gift Cards: totals, Square vs Test, redeemed from the balance Square reported, and the table', async () => {
    const { data } = await page(`/survey-analytics/${s1}?tab=giftcards`);
    expect(data.giftCards!.totals).toEqual({
      cards: 3,
      cents: 1200,
      squareCards: 2,
      squareCents: 1100,
      testCards: 1,
      testCents: 100,
      // r1's card: 800 issued, 300 left.
      redeemedCards: 1,
      redeemedCents: 500,
      trackedCards: 1,
    });
    expect(data.giftCards!.rows.map((r) => r.giftCardNumber)).toEqual(['TEST000000000003', '7783320000000002', '7783320000000001']);
    expect(data.giftCards!.rows[2]).toMatchObject({ isSquareGiftCard: true, cardBalanceCents: 300, rewardValue: 800, emailStatus: 'sent' });
  });
});

describe('the date range', () => {
  it('both ends inclusive, in UTC: the last second of the end day counts, the next second does not', async () => {
    const { status, data } = await page(`/survey-analytics/${s1}?from=2026-03-01&to=2026-03-31`);
    expect(status).toBe(200);
    // r1..r4: (20 + 12 + 6 + 2) / 4 = 10
    expect(data.stats).toMatchObject({ totalResponses: 4, averagePoints: 10, goldCount: 1 });
    expect(data.responses!.rows.map((r) => r.id)).toEqual([ids.r4, ids.r3, ids.r2, ids.r1]);
    const april = await page(`/survey-analytics/${s1}?from=2026-04-01&to=2026-04-01&tab=distribution`);
    expect(april.data.distribution!.tiers.find((t) => t.tier === 'No tier')).toEqual({ tier: 'No tier', count: 1, percent: 100 });
    const cards = await page(`/survey-analytics/${s1}?tab=giftcards&from=2026-03-03`);
    expect(cards.data.giftCards!.totals).toMatchObject({ cards: 2, cents: 400 });
    const weeks = await page(`/survey-analytics/${s1}?tab=questions&from=2026-03-09&to=2026-03-15`);
    expect(weeks.data.questions!.weeks).toEqual([{ week: '2026-03-09', responses: 1, averageRating: 3 }]);
  });

  it.each([
    ['from=2026-02-30', 'The start date must be a real date'],
    ['to=yesterday', 'The end date must be a real date'],
    ['from=2026-03-10&to=2026-03-01', 'The end date must be on or after the start date.'],
    ['from=1999-12-31', 'between 2000 and 2100'],
    ['page=0', 'The page must be a whole number of at least 1.'],
    ['page=abc', 'The page must be a whole number of at least 1.'],
    ['tab=secret', 'Unknown tab'],
    [`q=${'x'.repeat(101)}`, 'Search for at most 100 characters.'],
  ])('?%s is a 400 with a clear message, and no figures', async (search, message) => {
    const { status, data } = await page(`/survey-analytics/${s1}?${search}`);
    expect(status).toBe(400);
    expect(data.error!.message).toContain(message);
    expect(data.stats).toBeNull();
    expect(data.responses).toBeNull();
  });
});

describe('/survey-analytics: all surveys and the picker', () => {
  it('All Surveys aggregates the owner’s surveys; the picker lists them when there is more than one', async () => {
    const { data } = await page('/survey-analytics');
    expect(data.survey).toBeNull();
    expect(data.picker!.map((s) => s.title).sort()).toEqual(['Spring feedback', 'Summer menu']);
    // 5 + 1 + 12 responses; Gold r1 and r6.
    expect(data.stats).toMatchObject({ totalResponses: 18, goldCount: 2 });
  });

  it('?survey= picks one survey, and the choice stays in the page’s links', async () => {
    const { data } = await page(`/survey-analytics?survey=${s2}&tab=distribution`);
    expect(data.survey!.title).toBe('Summer menu');
    expect(data.pickerValue).toBe(s2);
    expect(data.distribution!.total).toBe(13);
    expect((await page('/survey-analytics?survey=all')).data.stats!.totalResponses).toBe(18);
  });

  it('an owner with one survey gets no picker', async () => {
    const { data } = await page('/survey-analytics', b.jar);
    expect(data.picker).toBeNull();
    expect(data.stats).toMatchObject({ totalResponses: 1, goldCount: 1 });
  });

  it('an owner with no survey gets the empty state data (no surveys)', async () => {
    const c = await signedInOwner(app, 'Brand New Cafe');
    const { status, data } = await page('/survey-analytics', c.jar);
    expect(status).toBe(200);
    expect(data.surveyCount).toBe(0);
    expect(data.stats).toMatchObject({ totalResponses: 0, averagePoints: null });
  });
});

describe('a response in detail', () => {
  it('every answer labelled from the label map in survey order, the screenshot with its verdict, the reward', async () => {
    const res = await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${ids.r1}`, a.jar), context: app.context(), params: { responseId: ids.r1 } }));
    expect(res.status).toBe(200);
    const r = (res.body as { response: ResponseDetail }).response;
    expect(r.answers.map((x) => [x.label, x.value])).toEqual([
      ['Overall rating', '5'],
      ['Would recommend us', 'yes'],
      ['Visit frequency', 'Weekly'],
      ['Service rating', '4'],
      ['Favorite item', 'The almond croissant, always warm'],
      ['Google review: screenshot of your review', shotId],
      ['Google review: reviewer name', 'Ana S.'],
      ['Google review: link to your review', 'https://g.page/r/crumb/review/1'],
    ]);
    expect(r.answers.find((x) => x.key === 'review_google_screenshot')!.screenshotId).toBe(shotId);
    expect(r.screenshots).toEqual([expect.objectContaining({ id: shotId, kind: 'review', platform: 'google', isValid: true, reviewerName: 'Ana S.', starRating: 5 })]);
    expect(r.card).toMatchObject({ giftCardNumber: '7783320000000001', rewardValue: 800, isSquareGiftCard: true, cardBalanceCents: 300, emailStatus: 'sent' });
  });

  it('the screenshot is served to its owner only', async () => {
    const mine = await run(() => shotLoader({ request: getRequest(`/survey-analytics/screenshots/${shotId}`, a.jar), context: app.context(), params: { verificationId: shotId } }));
    expect(mine.status).toBe(200);
    expect(mine.headers.get('Content-Type')).toBe('image/webp');
    expect(mine.headers.get('Cache-Control')).toBe('private, no-store');
    const theirs = await run(() => shotLoader({ request: getRequest(`/survey-analytics/screenshots/${shotId}`, b.jar), context: app.context(), params: { verificationId: shotId } }));
    expect(theirs.status).toBe(404);
    const signedOut = await run(() => shotLoader({ request: getRequest(`/survey-analytics/screenshots/${shotId}`), context: app.context(), params: { verificationId: shotId } }));
    expect(signedOut.status).toBe(302);
  });

  it('a response without a reward says so', async () => {
    const res = await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${ids.r4}`, a.jar), context: app.context(), params: { responseId: ids.r4 } }));
    expect((res.body as { response: ResponseDetail }).response).toMatchObject({ card: null, pendingReward: null, rewardTier: null });
  });
});

describe('owner isolation on every route', () => {
  it('another owner’s survey id is a 404 on the page, in the picker and on the API, and shows no data', async () => {
    for (const tab of ['responses', 'distribution', 'questions', 'giftcards']) {
      const res = await page(`/survey-analytics/${s1}?tab=${tab}`, b.jar);
      expect(res.status, tab).toBe(404);
      expect(JSON.stringify(res.data)).not.toContain('ana@example.com');
    }
    expect((await page(`/survey-analytics?survey=${s1}`, b.jar)).status).toBe(404);
    const api = await run(() => apiOne({ request: getRequest(`/api/survey/responses/${s1}`, b.jar), context: app.context(), params: { surveyId: s1 } }));
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ message: "Survey not found or you don't have access to it." });
  });

  it('another owner’s response and screenshot are 404s', async () => {
    const res = await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${ids.r1}`, b.jar), context: app.context(), params: { responseId: ids.r1 } }));
    expect(res.status).toBe(404);
    const own = await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${ids.rb}`, a.jar), context: app.context(), params: { responseId: ids.rb } }));
    expect(own.status).toBe(404);
  });

  it('B’s all-surveys view, search and lists hold only B’s data', async () => {
    const { data } = await page('/survey-analytics?q=ana', b.jar);
    expect(data.responses!.rows.map((r) => r.id)).toEqual([ids.rb]);
    const cards = await page('/survey-analytics?tab=giftcards', b.jar);
    expect(cards.data.giftCards!.totals).toMatchObject({ cards: 1, cents: 500, redeemedCents: 500 });
    const api = await run(() => apiAll({ request: getRequest('/api/survey/responses', b.jar), context: app.context(), params: {} }));
    expect((api.body as Array<{ id: string }>).map((r) => r.id)).toEqual([ids.rb]);
  });

  it('unknown and malformed ids are 404s; signed out, pages go to sign-in and the API answers 401', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await page(`/survey-analytics/${id}`)).status).toBe(404);
      const detail = await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${id}`, a.jar), context: app.context(), params: { responseId: id } }));
      expect(detail.status).toBe(404);
    }
    const out = await page(`/survey-analytics/${s1}`, null);
    expect(out.status).toBe(302);
    expect(out.headers.get('Location')).toBe(`/auth?returnTo=${encodeURIComponent(`/survey-analytics/${s1}`)}`);
    expect((await page('/survey-analytics', null)).status).toBe(302);
    const api = await run(() => apiAll({ request: getRequest('/api/survey/responses'), context: app.context(), params: {} }));
    expect(api.status).toBe(401);
  });
});

describe('GET /api/survey/responses[/{surveyId}]', () => {
  it('the spec’s client shape in cents, newest first, paginated by a cursor in the Link header', async () => {
    const seen: Array<Record<string, unknown>> = [];
    let next: string | null = `/api/survey/responses/${s1}?limit=2`;
    let pages = 0;
    while (next) {
      const res = await run(() => apiOne({ request: getRequest(next!, a.jar), context: app.context(), params: { surveyId: s1 } }));
      expect(res.status).toBe(200);
      seen.push(...(res.body as Array<Record<string, unknown>>));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('Link') ?? '')?.[1] ?? null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen.map((r) => r.id)).toEqual([ids.r5, ids.r4, ids.r3, ids.r2, ids.r1]);
    expect(seen.at(-1)).toEqual({
      id: ids.r1,
      customerName: 'Ana Silva',
      customerEmail: 'ana@example.com',
      totalPoints: 20,
      rewardTier: 'Gold',
      rewardValue: 800,
      submittedAt: '2026-03-02T10:00:00.000Z',
      responses: expect.objectContaining({ overall_rating: 5, visit_frequency: 'Weekly' }),
      reviewPlatform: 'google',
      reviewStarRating: 5,
      reviewerName: 'Ana S.',
      reviewText: null,
    });
  });

  it('all surveys of the owner by default; a bad cursor or limit is a 400 with a message', async () => {
    const all = await run(() => apiAll({ request: getRequest('/api/survey/responses?limit=500', a.jar), context: app.context(), params: {} }));
    expect((all.body as unknown[]).length).toBe(18);
    expect(all.headers.get('Link')).toBeNull();
    for (const bad of ['cursor=abc', 'cursor=%00', 'limit=0', 'limit=501', 'limit=x']) {
      const res = await run(() => apiAll({ request: getRequest(`/api/survey/responses?${bad}`, a.jar), context: app.context(), params: {} }));
      expect(res.status, bad).toBe(400);
      expect((res.body as { message: string }).message).toMatch(/cursor|limit/);
    }
  });
});

describe('survey_answer_counts (ADR 027)', () => {
  it('the trigger counts exactly the analysed questions, and follows updates and deletes', async () => {
    const { analysedQuestions } = await import('../../modules/analytics/index.ts');
    const keys = analysedQuestions().map((q) => q.key);
    const answers = Object.fromEntries(keys.map((k, i) => [k, i % 2 ? `  Answer ${k} ` : i + 1]));
    const id = await insertResponse({ key: 'trigger', survey: () => sb, business: () => b.id, at: '2025-01-15T12:00:00Z', points: 0, tier: null, value: null, name: null, email: 'x@example.com', answers: { ...answers, customer_email: 'x@example.com', review_google_reviewer_name: 'X' } });
    const rows = () => query<{ key: string; answer: string; display: string; rating: number | null; count: number }>(app, `select key, answer, display, rating, count from survey_answer_counts where survey_config_id = ? and day = '2025-01-15' and count > 0 order by key`, [sb]);
    expect((await rows()).map((r) => r.key)).toEqual([...keys].sort());
    expect((await rows()).find((r) => r.key === 'recommend')).toEqual({ key: 'recommend', answer: 'answer recommend', display: 'Answer recommend', rating: null, count: 1 });
    expect((await rows()).find((r) => r.key === 'overall_rating')).toMatchObject({ answer: '1', rating: 1, count: 1 });
    await query(app, `update survey_responses set responses = jsonb_build_object('overall_rating', 4) where id = ?`, [id]);
    expect((await rows()).map((r) => [r.key, r.answer, r.count])).toEqual([['overall_rating', '4', 1]]);
    await query(app, `delete from survey_responses where id = ?`, [id]);
    expect(await rows()).toEqual([]);
  });
});

describe('the funnel (ADR 026)', () => {
  it('page views, starts and sections counted anonymously (beacon and form posts), then submitted, rewarded, redeemed', async () => {
    const shop = await rewardingBusiness(app, 'Funnel Cafe');
    const { businessId, surveyId } = shop;
    const params = { businessId, surveyId };
    const pagePath = `/survey/public/${businessId}/${surveyId}`;
    // Three customers open the page; the owner's preview is not counted.
    for (let i = 0; i < 3; i++) expect((await run(() => surveyPageLoader({ request: getRequest(pagePath), context: app.context(), params }))).status).toBe(200);
    expect((await run(() => surveyPageLoader({ request: getRequest(`${pagePath}?bypass_square=true`, shop.owner.jar), context: app.context(), params }))).status).toBe(200);
    // Two with JavaScript: the beacon.
    const beacon = (body: unknown, ids = params) => run(() => progressAction({ request: jsonRequest(`/api/survey/progress/${ids.businessId}/${ids.surveyId}`, body), context: app.context(), params: ids }));
    for (const body of [{ step: 'start' }, { step: 'start' }, { step: 'section', section: 2 }, { step: 'section', section: 3 }]) expect((await beacon(body)).status).toBe(204);
    for (const bad of [{ step: 'section', section: 4 }, { step: 'view' }, { step: 'section', section: '2' }]) {
      const res = await beacon(bad);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toContain('The body must be');
    }
    expect((await beacon({ step: 'start' }, { businessId, surveyId: s1 })).status).toBe(404);
    expect((await beacon({ step: 'start' }, { businessId: a.id, surveyId: s1 })).status).toBe(404);
    // One without JavaScript: the first post starts and reaches section 2; Back and Continue again count nothing more.
    const post = (fields: Record<string, string>) => run(() => surveyPageAction({ request: formRequest(pagePath, fields), context: app.context(), params }));
    const first = await post({ _intent: 'next', _section: '0', overall_rating: '5' });
    expect((first.body as { step: { section: number; progress: number } }).step).toMatchObject({ section: 1, progress: 2 });
    await post({ _intent: 'back', _section: '1', _progress: '2', overall_rating: '5' });
    await post({ _intent: 'next', _section: '0', _progress: '2', overall_rating: '5' });
    await shop.submit('funnel@example.com', 'Fay');

    const { data } = await page(`/survey-analytics/${surveyId}?tab=funnel`, shop.owner.jar);
    expect(data.funnel!.steps.map((st) => [st.label, st.count])).toEqual([
      ['Page views', 3],
      ['Started', 3],
      ['Reached section 2', 2],
      ['Reached section 3', 1],
      ['Submitted', 1],
      ['Rewarded', 0],
      ['Redeemed', 0],
    ]);
    expect(data.funnel!.countingSince).toBe(new Date().toISOString().slice(0, 10));
    // Nothing of it reaches another owner; a day without counts shows none.
    expect((await page(`/survey-analytics/${surveyId}?tab=funnel`)).status).toBe(404);
    expect((await page('/survey-analytics?tab=funnel')).data.funnel!.steps[0]).toEqual({ key: 'view', label: 'Page views', count: 0 });
    expect((await page(`/survey-analytics/${surveyId}?tab=funnel&to=2026-01-01`, shop.owner.jar)).data.funnel!.steps[0]!.count).toBe(0);
    // Only counts are stored: survey, day, step, count.
    const columns = await query<{ column_name: string }>(app, `select column_name from information_schema.columns where table_name = 'survey_funnel_counts' order by 1`);
    expect(columns.map((c) => c.column_name)).toEqual(['business_id', 'count', 'day', 'step', 'survey_config_id']);
  });
});

describe('reward-cli analytics', () => {
  it('prints the figures of the survey’s page (the same module), as JSON and as text', async () => {
    const env = cliEnv(app);
    const json = await runCli(env, ['analytics', s1, '--from', '2026-03-01', '--to', '2026-03-31', '--json']);
    expect(json, json.err).toMatchObject({ code: EXIT.ok, err: '' });
    const report = JSON.parse(json.out) as Record<string, unknown>;
    const pageOf = async (tab: string) => (await page(`/survey-analytics/${s1}?tab=${tab}&from=2026-03-01&to=2026-03-31`)).data;
    expect(report.stats).toEqual((await pageOf('responses')).stats);
    expect(report.distribution).toEqual((await pageOf('distribution')).distribution);
    expect({ questions: report.questions, weeks: report.weeks }).toEqual((await pageOf('questions')).questions);
    expect(report.giftCards).toEqual((await pageOf('giftcards')).giftCards!.totals);
    expect(report.funnel).toEqual((await pageOf('funnel')).funnel);
    expect(report.survey).toMatchObject({ id: s1, title: 'Spring feedback', businessId: a.id });

    const text = await runCli(env, ['analytics', s1]);
    expect(text.code).toBe(EXIT.ok);
    expect(text.out).toContain('Spring feedback');
    expect(text.out).toMatch(/Total Responses\s+Average Points\s+Gold Tier\s+This Month\n5\s+8\s+1\s+/);
    expect(text.out).toContain('Gift cards: 3 issued, $12.00 (Square 2, $11.00; Test 1, $1.00); redeemed at Square: 1 cards, $5.00');

    expect((await runCli(env, ['analytics', '3f2b9c1e-8d4a-4b7e-9f10-2c3d4e5f6a7b'])).code).toBe(EXIT.failure);
    expect((await runCli(env, ['analytics', 'nope'])).code).toBe(EXIT.usage);
    const badDate = await runCli(env, ['analytics', s1, '--from', '2026-02-30']);
    expect(badDate.code).toBe(EXIT.usage);
    expect(badDate.err).toContain('The start date must be a real date');
  });
});

/** RFC 4180, as a spreadsheet reads it (quoted cells, doubled quotes, CRLF); the BOM dropped. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && src[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('CSV export', () => {
  const download = async (path: string, jar: CookieJar | null = a.jar) => {
    const kind = /\/export\/([^/?]+)/.exec(path)![1]!;
    const res = await run(() => exportLoader({ request: getRequest(path, jar ?? undefined), context: app.context(), params: { kind } }));
    return res;
  };

  it('responses: one row each, one labelled column per question, the filtered rows only, parsed back equal', async () => {
    const res = await download(`/survey-analytics/export/responses?survey=${s1}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="responses-spring-feedback-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(String(res.body));
    expect(header!.slice(0, 13)).toEqual(['Submitted (UTC)', 'Survey', 'Name', 'Email', 'Points', 'Tier', 'Reward ($)', 'Reward status', 'Language', 'Review platform', 'Review stars', 'Reviewer name', 'Verified proofs']);
    expect(header).toContain('Overall rating');
    expect(header).toContain('Google review: reviewer name');
    expect(header).not.toContain('Google review: screenshot of your review');
    expect(rows).toHaveLength(5);
    const col = (name: string) => header!.indexOf(name);
    const ana = rows.at(-1)!;
    expect([ana[col('Submitted (UTC)')], ana[col('Name')], ana[col('Email')], ana[col('Points')], ana[col('Tier')], ana[col('Reward ($)')]]).toEqual(['2026-03-02 10:00:00', 'Ana Silva', 'ana@example.com', '20', 'Gold', '8.00']);
    expect([ana[col('Overall rating')], ana[col('Visit frequency')], ana[col('Favorite item')], ana[col('Google review: reviewer name')]]).toEqual(['5', 'Weekly', 'The almond croissant, always warm', 'Ana S.']);
    expect(rows.map((r) => r[col('Overall rating')])).toEqual(['1', '2', '3', '4', '5']);

    const filtered = parseCsv(String((await download(`/survey-analytics/export/responses?survey=${s1}&from=2026-03-01&to=2026-03-31&q=e`)).body));
    // r4 Dan has no email; r2 Ben and r3 Cleo match "e"; r1 ana@example.com matches too.
    expect(filtered.slice(1).map((r) => r[col('Email')])).toEqual(['cleo@example.com', 'ben@example.com', 'ana@example.com']);
  });

  it('a name starting with = is neutralised: the spreadsheet shows text, not a formula', async () => {
    const [header, ...rows] = parseCsv(String((await download(`/survey-analytics/export/responses?survey=${s2}`)).body));
    const names = rows.map((r) => r[header!.indexOf('Name')]);
    expect(names).toContain(`'=HYPERLINK("x")`);
    expect(names.filter((n) => /^[=+\-@]/.test(n ?? ''))).toEqual([]);
  });

  it('names and answers starting with full-width ＝ ＋ － ＠ are neutralised like their ASCII twins', async () => {
    const names = ['\uFF1DHYPERLINK("x")', '\uFF0B1', '\uFF0D2', '\uFF20SUM(A1)'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      ids.push(await insertResponse({ key: `fw${i}`, survey: () => s2, business: () => a.id, at: '2026-03-06T08:00:00Z', points: 1, tier: null, value: null, name, email: null, answers: { overall_rating: 5, favorite_item: name } }));
    }
    try {
      const [header, ...rows] = parseCsv(String((await download(`/survey-analytics/export/responses?survey=${s2}`)).body));
      const column = (title: string) => rows.map((r) => r[header!.indexOf(title)] ?? '');
      for (const title of ['Name', 'Favorite item']) {
        expect(column(title)).toEqual(expect.arrayContaining(names.map((n) => `'${n}`)));
        expect(column(title).filter((n) => /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(n))).toEqual([]);
      }
    } finally {
      await query(app, `delete from survey_responses where id in (${ids.map(() => '?').join(', ')})`, ids);
    }
  });

  it('streams by keyset in batches: small batches give the same rows', async () => {
    const all = async (batch: number) => {
      let text = '';
      for await (const chunk of app.context().analytics.exportResponses(a.id, { surveyId: null, from: null, to: null }, { search: '', batch })) text += chunk;
      return text;
    };
    const big = await all(2000);
    expect(parseCsv(big)).toHaveLength(19);
    expect(await all(3)).toBe(big);
  });

  it('gift cards; isolation; bad input', async () => {
    const [header, ...rows] = parseCsv(String((await download(`/survey-analytics/export/giftcards?survey=${s1}`)).body));
    expect(header).toEqual(['Issued (UTC)', 'Name', 'Email', 'Gift card number', 'Value ($)', 'Tier', 'Card', 'Balance at Square ($)', 'Email sent']);
    expect(rows.map((r) => [r[3], r[4], r[6], r[7]])).toEqual([
      ['TEST000000000003', '1.00', 'Test', ''],
      ['7783320000000002', '3.00', 'Square', ''],
      ['7783320000000001', '8.00', 'Square', '3.00'],
    ]);
    expect((await download(`/survey-analytics/export/responses?survey=${s1}`, b.jar)).status).toBe(404);
    expect((await download(`/survey-analytics/export/giftcards?survey=${s1}`, b.jar)).status).toBe(404);
    const theirs = String((await download('/survey-analytics/export/responses', b.jar)).body);
    expect(parseCsv(theirs)).toHaveLength(2);
    expect(theirs).not.toContain('Ben Okafor');
    const bad = await download(`/survey-analytics/export/responses?from=2026-13-01`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('The start date must be a real date');
    expect((await download('/survey-analytics/export/secrets')).status).toBe(404);
    expect((await download('/survey-analytics/export/responses', null)).status).toBe(302);
  });
});

describe('GET /api/gift-card-issuances', () => {
  it('the spec’s client shape in cents, newest first, the owner’s only, paginated by the Link cursor', async () => {
    const get = (path: string, jar: CookieJar | null = a.jar) => run(() => apiCards({ request: getRequest(path, jar ?? undefined), context: app.context(), params: {} }));
    const first = await get('/api/gift-card-issuances?limit=2');
    expect(first.status).toBe(200);
    expect((first.body as Array<{ giftCardNumber: string }>).map((c) => c.giftCardNumber)).toEqual(['TEST000000000003', '7783320000000002']);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('Link') ?? '')![1]!;
    const second = await get(next);
    expect(second.body).toEqual([
      {
        id: expect.any(String),
        issuedAt: '2026-03-02T10:01:00.000Z',
        customerName: null,
        customerEmail: 'x@example.com',
        giftCardNumber: '7783320000000001',
        rewardValue: 800,
        rewardTier: 'Gold',
        isSquareGiftCard: true,
      },
    ]);
    expect(second.headers.get('Link')).toBeNull();
    expect(((await get('/api/gift-card-issuances', b.jar)).body as Array<{ giftCardNumber: string }>).map((c) => c.giftCardNumber)).toEqual(['7783320000000009']);
    expect((await get('/api/gift-card-issuances?cursor=bad')).status).toBe(400);
    expect((await get('/api/gift-card-issuances', null)).status).toBe(401);
  });
});
