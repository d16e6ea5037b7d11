import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import * as businessPage from '#app/routes/_customer+/survey.$businessId.tsx';
import * as dynamicPage from '#app/routes/_customer+/survey.dynamic.$businessId.tsx';
import * as previewPage from '#app/routes/_customer+/survey.preview.tsx';
import { loader as dynamicApi } from '#app/routes/api+/survey.dynamic.$businessId.ts';
import { loader as demoApi } from '#app/routes/api+/survey.dynamic.preview.ts';
import { action as dynamicSubmit } from '#app/routes/api+/survey.dynamic.submit.$businessId.ts';
import { action as customPreview } from '#app/routes/api+/survey.preview.custom.ts';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import type { SurveyPageData } from '#app/customer/state.ts';
import { liveScore } from '../../modules/responses/customer-checks.ts';
import { getTemplate } from '../../modules/surveys/template.ts';
import { UPLOAD_MESSAGES } from '../../modules/uploads/limits.ts';
import { connectSquareForTest, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { CookieJar, BASE, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { startTrialForTest } from '../setup/billing.ts';

let app: TestApp;
let businessId: string;
let surveyId: string;
let ownerJar: CookieJar;
let ipCounter = 0;
const context = () => {
  ipCounter += 1;
  return app.context(`10.88.${Math.floor(ipCounter / 200)}.${ipCounter % 200}`);
};
const template = getTemplate('restaurant_cafe_bakery')!;
const pagePath = () => `/survey/public/${businessId}/${surveyId}`;
const params = () => ({ businessId, surveyId });

const load = async (path: string, mod: { loader: (a: never) => unknown }, p: Record<string, string>, jar?: CookieJar) =>
  run(() => mod.loader({ request: getRequest(path, jar), context: context(), params: p } as never));
const post = async (fields: Array<[string, string]>, path = pagePath(), jar?: CookieJar) =>
  run(() => publicPage.action({ request: formRequest(path, fields, jar), context: context(), params: params() }));
const postMultipart = async (form: FormData, path = pagePath()) =>
  run(() => publicPage.action({ request: new Request(BASE + path, { method: 'POST', body: form }), context: context(), params: params() }));
const page = (res: { body: unknown }) => res.body as SurveyPageData;
const responseCount = async () => Number((await app.root.db.orm.em.getConnection().execute('select count(*)::int as n from survey_responses'))[0]?.n);

const png = (color: string) => sharp({ create: { width: 320, height: 200, channels: 3, background: color } }).png().toBuffer();

beforeAll(async () => {
  app = await createTestApp();
  const owner = await signedInOwner(app, 'Crumb & Co Bakery');
  ownerJar = owner.jar;
  businessId = owner.id;
  surveyId = (await createSurvey(app, owner.jar)).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareForTest(app, businessId);
});
afterAll(async () => {
  await app?.close();
});

describe('the customer page: GET', () => {
  it('renders a live survey with its business name, reward values and first section', async () => {
    const res = await load(pagePath(), publicPage, params());
    expect(res.status).toBe(200);
    const { view, step } = page(res);
    expect(view).toMatchObject({ mode: 'live', businessName: 'Crumb & Co Bakery', title: 'Spring feedback', businessId, surveyId, bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 });
    expect(step.section).toBe(0);
  });

  it("finds the business's current survey from /survey/{businessId} and /survey/dynamic/{businessId}", async () => {
    const plain = page(await load(`/survey/${businessId}`, businessPage, { businessId }));
    expect(plain.view?.surveyId).toBe(surveyId);
    const dynamic = page(await load(`/survey/dynamic/${businessId}`, dynamicPage, { businessId }));
    expect(dynamic.view).toMatchObject({ surveyId, dynamic: true });
  });

  it("says 'Survey Not Found' (404) for an unknown business or survey", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const a = await load(`/survey/public/${unknown}/${surveyId}`, publicPage, { businessId: unknown, surveyId });
    expect(a.status).toBe(404);
    expect(page(a).view).toBeNull();
    const b = await load(`/survey/public/${businessId}/not-a-uuid`, publicPage, { businessId, surveyId: 'not-a-uuid' });
    expect(b.status).toBe(404);
  });

  it('shows the demo survey at /survey/preview?demo=true, and leaves the draft preview to the browser', async () => {
    const demo = page(await load('/survey/preview?demo=true', previewPage, {}));
    expect(demo.view).toMatchObject({ mode: 'demo', businessName: 'Demo Cafe', bronzeRewardValue: 200, silverRewardValue: 500, goldRewardValue: 1000 });
    const custom = page(await load('/survey/preview?custom=true', previewPage, {}));
    expect(custom).toMatchObject({ view: null, custom: true });
  });

  it('bypass_square=true is the signed-in owner’s preview: banner mode, nothing saved; a customer gets the live page', async () => {
    const live = page(await load(`${pagePath()}?bypass_square=true`, publicPage, params()));
    expect(live.view).toMatchObject({ mode: 'live', bypassSquare: false });
    const res = page(await load(`${pagePath()}?bypass_square=true`, publicPage, params(), ownerJar));
    expect(res.view).toMatchObject({ mode: 'preview', bypassSquare: true });
    const before = await responseCount();
    const done = page(await post([['overall_rating', '5'], ['customerEmail', 'preview@example.com'], ['_section', '2'], ['_intent', 'submit']], `${pagePath()}?bypass_square=true`, ownerJar));
    expect(done.step.done).toMatchObject({ points: 2, tier: null });
    expect(done.step.toast?.title).toBe('Preview Survey Completed!');
    expect(await responseCount()).toBe(before);
  });
});

describe('the customer page without JavaScript: each section is a form post', () => {
  it('refuses Continue without an overall rating, with the spec message inline', async () => {
    const res = await post([['_section', '0'], ['_intent', 'next'], ['recommend', 'yes']]);
    expect(res.status).toBe(400);
    const { step } = page(res);
    expect(step.section).toBe(0);
    expect(step.errors.overall_rating).toBe('Please rate your overall experience to continue.');
    expect(step.toast).toMatchObject({ title: 'Required Field Missing' });
    expect(step.answers.recommend).toBe('yes');
  });

  it('moves forward and back, carrying every answer', async () => {
    const next = page(await post([['_section', '0'], ['_intent', 'next'], ['overall_rating', '4'], ['visit_frequency', 'Weekly'], ['customer_email', 'ana@example.com']]));
    expect(next.step.section).toBe(1);
    expect(next.step.answers).toMatchObject({ overall_rating: 4, visit_frequency: 'Weekly', customer_email: 'ana@example.com' });
    const back = page(await post([...Object.entries(next.step.answers).map(([k, v]) => [k, String(v)] as [string, string]), ['_section', '1'], ['_intent', 'back']]));
    expect(back.step.section).toBe(0);
    expect(back.step.answers).toEqual(next.step.answers);
  });

  it('ignores unknown fields and out-of-range ratings', async () => {
    const res = page(await post([['_section', '0'], ['_intent', 'stay'], ['overall_rating', '9'], ['is_admin', 'true'], ['service_rating', '3']]));
    expect(res.step.answers).toEqual({ service_rating: 3 });
  });

  it('submits rating 2 with improvement text: stored, scored by the server, Thank You', async () => {
    const before = await responseCount();
    const improvement = 'Warmer pastries in the morning and a second barista at nine would help.';
    const res = await post([
      ['overall_rating', '2'],
      ['recommend', 'no'],
      ['five_star_improvement', improvement],
      ['customerEmail', 'Ben@Example.com'],
      ['customerName', 'Ben'],
      ['_section', '2'],
      ['_intent', 'submit'],
    ]);
    expect(res.status).toBe(200);
    const { step } = page(res);
    // overall rating 2 + recommend 1 + improvement 5 = 8: Silver.
    expect(step.done).toMatchObject({ points: 8, tier: 'Silver', rewardValue: 300, email: 'ben@example.com', demoGiftCard: null });
    expect(step.toast?.title).toBe('Survey Submitted!');
    expect(await responseCount()).toBe(before + 1);
    const [row] = await app.root.db.orm.em.getConnection().execute(`select total_points, reward_tier, customer_email, customer_name from survey_responses where customer_email = 'ben@example.com'`);
    expect(row).toMatchObject({ total_points: 8, reward_tier: 'Silver', customer_email: 'ben@example.com', customer_name: 'Ben' });
  });

  it('refuses short improvement text, points without an email, and a second submission in the window', async () => {
    const short = page(await post([['overall_rating', '2'], ['five_star_improvement', 'Too short.'], ['customerEmail', 'c@example.com'], ['_section', '2'], ['_intent', 'submit']]));
    expect(short.step.errors.five_star_improvement).toBe('Please provide at least 40 characters');
    expect(short.step.done).toBeNull();

    const noEmail = await post([['overall_rating', '5'], ['_section', '0'], ['_intent', 'early']]);
    expect(noEmail.status).toBe(400);
    expect(page(noEmail).step.toast).toMatchObject({ title: 'Email Required for Reward', description: 'Please provide your email address to receive your gift card reward.' });
    expect(page(noEmail).step.section).toBe(2);

    const again = page(await post([['overall_rating', '5'], ['customerEmail', 'ben@example.com'], ['_section', '2'], ['_intent', 'submit']]));
    expect(again.step.toast?.title).toBe('Cannot Submit Survey');
    expect(again.step.done).toBeNull();
  });

  it('uploads a review screenshot with the form, verifies it, and counts its 8 points', async () => {
    const form = new FormData();
    for (const [k, v] of ([
      ['overall_rating', '5'],
      ['review_google_reviewer_name', 'Dana Smith'],
      ['review_google_review_link', 'https://g.page/r/crumb/review'],
      ['customerEmail', 'dana@example.com'],
      ['_section', '2'],
      ['_intent', 'stay'],
    ] as Array<[string, string]>)) form.set(k, v);
    form.set('file:review_google_screenshot', new File([await png('#fafafa')], 'review.png', { type: 'image/png' }));
    const verified = page(await postMultipart(form));
    expect(verified.step.states.google).toEqual({ status: 'verified' });
    const id = verified.step.answers.review_google_screenshot;
    expect(typeof id).toBe('string');

    const submitted = page(
      await post([...Object.entries(verified.step.answers).map(([k, v]) => [k, String(v)] as [string, string]), ['_section', '2'], ['_intent', 'submit']]),
    );
    // rating 2 + review 8 = 10: Silver.
    expect(submitted.step.done).toMatchObject({ points: 10, tier: 'Silver' });
  });

  it('shows the verifier\'s reason when a screenshot is rejected, and keeps the other answers', async () => {
    const form = new FormData();
    for (const [k, v] of ([
      ['overall_rating', '5'],
      ['review_google_reviewer_name', 'reject'],
      ['review_google_review_link', 'https://g.page/r/crumb/review'],
      ['_section', '2'],
      ['_intent', 'stay'],
    ] as Array<[string, string]>)) form.set(k, v);
    form.set('file:review_google_screenshot', new File([Buffer.concat([await png('#eeeeee'), Buffer.from('FAKE-REJECT')])], 'review.png', { type: 'image/png' }));
    const res = await postMultipart(form);
    const { step } = page(res);
    expect(step.states.google?.status).toBe('failed');
    expect(step.errors.review_google_screenshot).toBeTruthy();
    expect(step.answers.review_google_screenshot).toBeUndefined();
    expect(step.answers.review_google_reviewer_name).toBe('reject');
    expect(step.toast?.title).toBe('Screenshot Verification Failed');
  });

  it('submitting with a screenshot over 10 MB (every field filled) says the screenshot is too large, not that fields are missing', async () => {
    const before = await responseCount();
    const form = new FormData();
    for (const [k, v] of ([
      ['overall_rating', '5'],
      ['five_star_improvement', 'Cooler coffee and a few more seats would make it a five star visit.'],
      ['review_google_reviewer_name', 'Jose Alvarez'],
      ['review_google_review_link', 'https://maps.app.goo.gl/x7Qm2aVbC9dEf'],
      ['customerEmail', 'jose@example.com'],
      ['_section', '2'],
      ['_intent', 'submit'],
    ] as Array<[string, string]>)) form.set(k, v);
    form.set('file:review_google_screenshot', new File([Buffer.alloc(11 * 1024 * 1024, 0x89)], 'big.png', { type: 'image/png' }));
    const res = await postMultipart(form);
    const { step } = page(res);
    expect(res.status).toBe(400);
    expect(step.toast).toMatchObject({ type: 'error', description: UPLOAD_MESSAGES.tooLarge });
    expect(step.toast?.title).not.toBe('Incomplete Review Submission');
    expect(step.errors.review_google).toBeUndefined();
    expect(step.states.google).toEqual({ status: 'failed', error: UPLOAD_MESSAGES.tooLarge });
    expect(step.done).toBeNull();
    expect(await responseCount()).toBe(before);
  });

  it("keeps a refused screenshot's reason carried by the page (_failed:{block}) across another block's Remove, until its own Remove", async () => {
    const base: Array<[string, string]> = [
      ['overall_rating', '5'],
      ['review_google_reviewer_name', 'Ana Pereira'],
      ['review_google_review_link', 'https://maps.app.goo.gl/x7Qm2aVbC9dEf'],
      ['social_instagram_handle', 'ana.pereira'],
      ['_section', '2'],
      ['_failed:google', 'We could not find "Crumb & Co Bakery" in the screenshot.'],
      ['_failed:instagram_follow', `We couldn't see that you follow @crumbandco. ${'x'.repeat(600)}`],
    ];
    const removedReview = page(await post([...base, ['_remove', 'review_google_screenshot']])).step;
    expect(removedReview.states.google).toEqual({ status: 'idle' });
    expect(removedReview.states.instagram_follow?.status).toBe('failed');
    expect(removedReview.states.instagram_follow?.error).toMatch(/^We couldn't see that you follow @crumbandco\. x+$/);
    expect(removedReview.states.instagram_follow?.error).toHaveLength(500);

    const removedFollow = page(await post([...base.filter(([k]) => k !== '_failed:google'), ['_remove', 'social_instagram_screenshot']])).step;
    expect(removedFollow.states.instagram_follow).toEqual({ status: 'idle' });
  });

  it('refuses a PDF posing as a PNG with a clear message', async () => {
    const form = new FormData();
    for (const [k, v] of ([
      ['overall_rating', '5'],
      ['review_google_reviewer_name', 'Fay'],
      ['review_google_review_link', 'https://g.page/r/crumb/review'],
      ['_section', '2'],
      ['_intent', 'stay'],
    ] as Array<[string, string]>)) form.set(k, v);
    form.set('file:review_google_screenshot', new File([Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')], 'review.png', { type: 'image/png' }));
    const { step } = page(await postMultipart(form));
    expect(step.errors.review_google_screenshot).toMatch(/image|PNG|JPEG|WebP/i);
    expect(step.answers.review_google_screenshot).toBeUndefined();
  });
});

describe('the JSON side of the page', () => {
  it('scores like the browser: the server stores what liveScore shows', async () => {
    const sets: Array<Record<string, string | number>> = [
      { overall_rating: 5 },
      { overall_rating: 3, recommend: 'yes', favorite_item: 'The almond croissant, always warm' },
      { overall_rating: 1, service_rating: 2, atmosphere_rating: 3, value_rating: 4, improvement_suggestions: 'Open a little earlier on weekdays please.' },
      { overall_rating: 4, visit_frequency: 'Monthly', favorite_item: 'short' },
    ];
    for (const [i, answers] of sets.entries()) {
      const expected = liveScore(template, { selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['instagram'], bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 }, answers, {});
      const res = await run(() =>
        submitApi({ request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, { responses: answers, customerEmail: `score${i}@example.com` }), context: context(), params: params() }),
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ totalPoints: expected.points, rewardTier: expected.tier, rewardValue: expected.rewardValueCents });
    }
  });

  it('GET /api/survey/dynamic/{businessId} and /api/survey/dynamic/preview give the public view', async () => {
    const dynamic = await run(() => dynamicApi({ request: getRequest(`/api/survey/dynamic/${businessId}`), context: context(), params: { businessId } }));
    expect(dynamic.status).toBe(200);
    expect(dynamic.body).toMatchObject({ config: { id: surveyId, title: 'Spring feedback' }, business: { displayName: 'Crumb & Co Bakery' }, isPreview: false });
    expect((dynamic.body as { template: { id: string } }).template.id).toBe('restaurant_cafe_bakery');
    const demo = await run(() => demoApi());
    expect(demo.body).toMatchObject({ business: { displayName: 'Demo Cafe' }, isPreview: true });
  });

  it('POST /api/survey/dynamic/submit/{businessId} submits to the current survey', async () => {
    const res = await run(() =>
      dynamicSubmit({ request: jsonRequest(`/api/survey/dynamic/submit/${businessId}`, { responses: { overall_rating: 5, recommend: 'yes' }, customerEmail: 'dyn@example.com' }), context: context(), params: { businessId } }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ totalPoints: 3 });
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await run(() => dynamicSubmit({ request: jsonRequest(`/api/survey/dynamic/submit/${unknown}`, { responses: {} }), context: context(), params: { businessId: unknown } }));
    expect(missing.status).toBe(404);
  });

  it('POST /api/survey/preview/custom turns a builder draft into a preview view, and refuses a bad one', async () => {
    const draft = { title: 'Draft survey', rewardMode: 'preset_3', selectedReviewPlatforms: ['yelp'], reviewUrls: { yelp: 'yelp.com/biz/crumb' }, selectedSocialPlatforms: [], socialHandles: {}, surveyFrequencyDays: 90, redemptionWebsite: 'crumbandco.com' };
    const ok = await run(() => customPreview({ request: jsonRequest('/api/survey/preview/custom', { surveyConfig: draft }), context: context(), params: {} }));
    expect(ok.body).toMatchObject({ isPreview: true });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ isPreview: true, view: { mode: 'preview', title: 'Draft survey', goldRewardValue: 1500, selectedReviewPlatforms: ['yelp'] } });
    const bad = await run(() => customPreview({ request: jsonRequest('/api/survey/preview/custom', { surveyConfig: { ...draft, selectedReviewPlatforms: [] } }), context: context(), params: {} }));
    expect(bad.status).toBe(400);
    const malformed = await run(() => customPreview({ request: jsonRequest('/api/survey/preview/custom', '{"surveyConfig":'), context: context(), params: {} }));
    expect(malformed.status).toBe(400);
  });
});
