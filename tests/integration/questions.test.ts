import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as createConfig } from '#app/routes/api+/survey.builder-config.ts';
import { action as putConfig, loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { action as submitAction } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { loader as pageOne } from '#app/routes/_analytics+/survey-analytics.$surveyId.tsx';
import { loader as detailLoader } from '#app/routes/_analytics+/survey-analytics.responses.$responseId.tsx';
import { loader as exportLoader } from '#app/routes/_analytics+/survey-analytics.export.$kind.ts';
import { loader as publicLoader } from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import type { AnalyticsPageData } from '#app/utils/analytics.server.ts';
import type { ResponseDetail } from '../../modules/analytics/index.ts';
import { templateQuestionList, restaurantCafeBakery } from '../../modules/surveys/index.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { connectSquareWithoutLocation, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { query, SILVER_ANSWERS } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

/**
 * Issue 16 through the public entry points: the owner's questions saved through the JSON API (and
 * refused with a message, nothing stored), answered by customers through the submit endpoint,
 * checked and scored by the server, and read back in analytics with the text each response was
 * asked, also after the owner edits the live survey.
 */

let app: TestApp;
let owner: { jar: CookieJar; id: string };
let other: { jar: CookieJar; id: string };
let surveyId: string;

const base = templateQuestionList(restaurantCafeBakery);
const milk = { id: 'q_milk0001', section: 'part2', origin: 'owner', type: 'multiple_choice', text: 'Which milk do you take?', required: true, points: 2, options: ['Oat', 'Dairy', 'Soy'] };
const withMilk = (over: Record<string, unknown> = {}) => [...base.map((q) => (q.id === 'atmosphere_rating' ? { ...q, removed: true } : q)), { ...milk, ...over }];

const create = (jar: CookieJar, body: Record<string, unknown>) =>
  run(() => createConfig({ request: jsonRequest('/api/survey/builder-config', surveyBody(body), jar), context: app.context(), params: {} }));
const put = (jar: CookieJar, id: string, body: Record<string, unknown>) =>
  run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody(body), jar, 'PUT'), context: app.context(), params: { id } }));
let ip = 0;
const submit = (responses: Record<string, unknown>, customerEmail: string) => {
  ip += 1;
  return run(() =>
    submitAction({
      request: jsonRequest(`/api/survey/submit/${owner.id}/${surveyId}`, { responses, customerEmail }),
      context: app.context(`10.77.0.${ip}`),
      params: { businessId: owner.id, surveyId },
    }),
  );
};
const surveyCount = async (businessId: string) => Number((await query<{ n: number }>(app, 'select count(*)::int as n from survey_configs where business_id = ?', [businessId]))[0]!.n);

beforeAll(async () => {
  app = await createTestApp();
  owner = await signedInOwner(app, 'Oat & Co');
  other = await signedInOwner(app, 'Other Cafe');
  // The milk question adds points that need no sharing: Gold goes up so that it still needs sharing (ADR 041).
  const res = await create(owner.jar, { customQuestions: withMilk(), tierThresholds: { Gold: 20 } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  surveyId = (res.body as { id: string }).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, owner.id);
});
afterAll(async () => {
  await app?.close();
});

describe('saving the owner questions', () => {
  it('stores the list, and the customer page shows the owner question and not the removed one', async () => {
    const stored = await run(() => getConfig({ request: getRequest(`/api/survey/config/${surveyId}`, owner.jar), context: app.context(), params: { id: surveyId } }));
    const list = (stored.body as { customQuestions: Array<{ id: string; removed?: boolean }> }).customQuestions;
    expect(list.at(-1)).toMatchObject({ id: 'q_milk0001', text: 'Which milk do you take?' });
    expect(list.find((q) => q.id === 'atmosphere_rating')?.removed).toBe(true);
    const page = await run(() => publicLoader({ request: getRequest(`/survey/public/${owner.id}/${surveyId}`), context: app.context(), params: { businessId: owner.id, surveyId } }));
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).toContain('q_milk0001');
  });

  it.each<[string, unknown[], RegExp]>([
    ['an unknown type', [...base, { ...milk, type: 'image_upload' }], /Unknown question type: image_upload/],
    ['an id of a template question', [...base, { ...milk, id: 'five_star_improvement' }], /five_star_improvement is already an answer key/],
    ['a composite answer key', [...base, { ...milk, id: 'review_google_review_link' }], /review_google_review_link is already an answer key/],
    ['duplicate options', [...base, { ...milk, options: ['Oat', 'OAT'] }], /Options must all be different/],
    ['points out of range', [...base, { ...milk, points: 9 }], /Points must be a whole number from 0 to 5/],
    ['empty text', [...base, { ...milk, text: ' ' }], /Question text is required/],
    ['too many questions', [...base, ...Array.from({ length: 22 }, (_, i) => ({ ...milk, id: `q_many${String(i).padStart(4, '0')}` }))], /at most 30 questions/],
    ['Gold out of reach', base.map((q) => (['overall_rating', 'customer_email'].includes(q.id) ? q : { ...q, removed: true })), /Gold needs 18 points but this survey gives at most/],
  ])('refuses %s with a message and stores nothing', async (_name, customQuestions, message) => {
    const before = await surveyCount(owner.id);
    const res = await create(owner.jar, { customQuestions, selectedSocialPlatforms: [], socialHandles: {} });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(message);
    expect(await surveyCount(owner.id)).toBe(before);
    const edit = await put(owner.jar, surveyId, { customQuestions, selectedSocialPlatforms: [], socialHandles: {} });
    expect(edit.status).toBe(400);
    const [row] = await query<{ custom_questions: unknown[] }>(app, 'select custom_questions from survey_configs where id = ?', [surveyId]);
    expect(JSON.stringify(row!.custom_questions)).toContain('Which milk do you take?');
  });

  it("another owner's survey: 404, nothing changed", async () => {
    const res = await put(other.jar, surveyId, { customQuestions: withMilk({ text: 'Hijacked?' }) });
    expect(res.status).toBe(404);
    const [row] = await query<{ custom_questions: unknown[] }>(app, 'select custom_questions from survey_configs where id = ?', [surveyId]);
    expect(JSON.stringify(row!.custom_questions)).not.toContain('Hijacked');
  });
});

describe('answers to the owner questions', () => {
  const answers = { ...SILVER_ANSWERS, atmosphere_rating: undefined };
  it.each<[string, Record<string, unknown>, number, RegExp]>([
    ['a required owner question left blank', { ...answers }, 400, /Please answer: Which milk do you take\?/],
    ['an answer outside the options', { ...answers, q_milk0001: 'Almond' }, 400, /Choose one of the options/],
    ['an answer to the removed question', { ...answers, q_milk0001: 'Oat', atmosphere_rating: 5 }, 400, /Unknown question: atmosphere_rating/],
  ])('%s is refused', async (_name, responses, status, message) => {
    const res = await submit(responses, `refused-${ip}@example.com`);
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toMatch(message);
  });

  it('scores the owner question, keeps its text with the response; a later edit never relabels it', async () => {
    const first = await submit({ ...answers, q_milk0001: 'Oat' }, 'first@example.com');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // 12 points of parts 1-2, minus the removed atmosphere (1), plus the milk (2): 13.
    expect(first.body).toMatchObject({ totalPoints: 13 });
    const firstId = (first.body as { responseId: string }).responseId;

    // The owner rewords the live question and its options.
    const edited = await put(owner.jar, surveyId, { customQuestions: withMilk({ text: 'Which milk would you like?', options: ['Oat', 'Dairy', 'Soy', 'None'] }) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const second = await submit({ ...answers, q_milk0001: 'None' }, 'second@example.com');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    const secondId = (second.body as { responseId: string }).responseId;

    const detail = async (id: string) =>
      ((await run(() => detailLoader({ request: getRequest(`/survey-analytics/responses/${id}`, owner.jar), context: app.context(), params: { responseId: id } }))).body as { response: ResponseDetail })
        .response.answers;
    expect((await detail(firstId)).find((a) => a.key === 'q_milk0001')).toMatchObject({ label: 'Which milk do you take?', value: 'Oat' });
    expect((await detail(secondId)).find((a) => a.key === 'q_milk0001')).toMatchObject({ label: 'Which milk would you like?', value: 'None' });

    const analysis = await run(() => pageOne({ request: getRequest(`/survey-analytics/${surveyId}?tab=questions`, owner.jar), context: app.context(), params: { surveyId } }));
    const stat = (analysis.body as AnalyticsPageData).questions!.questions.find((q) => q.key === 'q_milk0001')!;
    expect(stat).toMatchObject({ label: 'Which milk would you like?', count: 2, askedAs: ['Which milk do you take?'] });
    expect(stat.top.map((t) => t.answer).sort()).toEqual(['None', 'Oat']);

    const csv = await run(() => exportLoader({ request: getRequest(`/survey-analytics/export/responses?survey=${surveyId}`, owner.jar), context: app.context(), params: { kind: 'responses' } }));
    const [header, ...rows] = String(csv.body).replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(header).toContain('Which milk would you like?');
    expect(rows).toHaveLength(2);

    // The other owner sees none of it.
    const theirs = await run(() => pageOne({ request: getRequest(`/survey-analytics/${surveyId}?tab=questions`, other.jar), context: app.context(), params: { surveyId } }));
    expect(theirs.status).toBe(404);
  });
});
