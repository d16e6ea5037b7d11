import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as submit } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { CustomerSubmission, SurveyResponse } from '../../modules/responses/entities.ts';
import { connectSquareWithoutLocation, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { startTrialForTest } from '../setup/billing.ts';

let app: TestApp;
let businessId: string;
let surveyId: string;

beforeAll(async () => {
  app = await createTestApp({}, { jobs: true });
  const owner = await signedInOwner(app, 'Submit Cafe');
  businessId = owner.id;
  surveyId = (await createSurvey(app, owner.jar)).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, businessId);
});
afterAll(async () => {
  await app?.close();
});

let ip = 0;
const post = (body: unknown) => {
  ip += 1;
  return run(() =>
    submit({ request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, body), context: app.context(`10.77.${Math.floor(ip / 200)}.${ip % 200}`), params: { businessId, surveyId } }),
  );
};

// Part 1 and 2 in full: 2+1+1+1+2+1+1+3 = 12 points, Silver (8-16).
const fullAnswers = {
  overall_rating: 5,
  recommend: 'yes',
  visit_frequency: 'Weekly',
  service_rating: 4,
  favorite_item: 'The almond croissant, always warm',
  atmosphere_rating: 5,
  value_rating: 4,
  improvement_suggestions: 'More seating near the window would be lovely',
};

const jobsFor = async (responseId: string) =>
  (await app.root.db.orm.em.fork().getConnection().execute(`select id from pgboss.job where name = 'reward-issue' and data->>'responseId' = ?`, [responseId])).length;

describe('POST /api/survey/submit/{businessId}/{surveyId}', () => {
  it('scores on the server, stores the response and the window row, and queues one reward job', async () => {
    const res = await post({ responses: fullAnswers, customerEmail: 'Ana@Example.com', customerName: 'Ana', bypassSquare: true, frontendCalculatedPoints: 99, frontendCalculatedTier: 'Gold' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, totalPoints: 12, rewardTier: 'Silver', rewardValue: 300 });
    const responseId = (res.body as { responseId: string }).responseId;
    const em = app.root.db.orm.em.fork();
    const stored = await em.findOneOrFail(SurveyResponse, { id: responseId });
    expect(stored).toMatchObject({ customerEmail: 'ana@example.com', totalPoints: 12, rewardTier: 'Silver', rewardValue: 300, surveyConfigId: surveyId });
    expect(await em.count(CustomerSubmission, { businessId, customerEmail: 'ana@example.com' })).toBe(1);
    expect(await jobsFor(responseId)).toBe(1);
  });

  it('refuses the same email inside the window with the eligibility message, and stores nothing', async () => {
    const before = await app.root.db.orm.em.fork().count(SurveyResponse, {});
    const res = await post({ responses: fullAnswers, customerEmail: 'ana@example.com', bypassSquare: true });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ title: 'Cannot Submit Survey', daysRemaining: 90 });
    expect(await app.root.db.orm.em.fork().count(SurveyResponse, {})).toBe(before);
  });

  it('takes the same email again once its window has passed, counting its submissions', async () => {
    const em = app.root.db.orm.em.fork();
    // Ana's last submission was 91 days ago (the survey's window is 90 days).
    await em.nativeUpdate(CustomerSubmission, { businessId, customerEmail: 'ana@example.com' }, { lastSubmissionAt: new Date(Date.now() - 91 * 86_400_000) });
    const res = await post({ responses: fullAnswers, customerEmail: 'ana@example.com', bypassSquare: true });
    expect(res.status).toBe(201);
    const row = await app.root.db.orm.em.fork().findOneOrFail(CustomerSubmission, { businessId, customerEmail: 'ana@example.com' });
    expect(row.submissionCount).toBe(2);
    expect(Date.now() - row.lastSubmissionAt.getTime()).toBeLessThan(60_000);
  });

  it('accepts exactly one of two concurrent submissions for one email', async () => {
    const body = { responses: fullAnswers, customerEmail: 'race@example.com', bypassSquare: true };
    const results = await Promise.all([post(body), post(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await app.root.db.orm.em.fork().count(SurveyResponse, { customerEmail: 'race@example.com' })).toBe(1);
  });

  it('answers a retry with the same submission key as the first attempt was answered, storing and rewarding once (ADR 081)', async () => {
    const body = { responses: fullAnswers, customerEmail: 'retry@example.com', customerName: 'Rita', submissionKey: 'k_retry-0123456789abcdef' };
    const first = await post(body);
    expect(first.status).toBe(201);
    // The answer was lost on the way back; the page sends the same body again.
    const again = await post(body);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toEqual(first.body);
    const em = app.root.db.orm.em.fork();
    expect(await em.count(SurveyResponse, { customerEmail: 'retry@example.com' })).toBe(1);
    expect(await jobsFor((first.body as { responseId: string }).responseId)).toBe(1);
    // Without the key the same email is a second submission inside the window: refused as before.
    expect((await post({ ...body, submissionKey: undefined })).status).toBe(409);
    // The key with another email is not a retry.
    const other = await post({ ...body, customerEmail: 'someone.else@example.com' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ message: 'This survey was already submitted from this page. Please reload the page to start again.' });
    expect(await em.count(SurveyResponse, { customerEmail: 'someone.else@example.com' })).toBe(0);
  });

  it('answers five concurrent submissions with one key alike, with one response stored', async () => {
    const key = 'burst-0123456789abcdef';
    const results = await Promise.all(Array.from({ length: 5 }, () => post({ responses: fullAnswers, customerEmail: 'burst@example.com', submissionKey: key })));
    expect(results.map((r) => r.status), JSON.stringify(results[0]!.body)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(results.map((r) => (r.body as { responseId: string }).responseId));
    expect(ids.size).toBe(1);
    const stored = await app.root.db.orm.em.fork().find(SurveyResponse, { submissionKey: key });
    expect(stored.map((r) => r.id)).toEqual([...ids]);
    expect(await jobsFor([...ids][0]!)).toBe(1);
  });

  it.each(['short', 'has spaces in it 0123456789', 'x'.repeat(65), 42])('refuses the submission key %o with 400', async (submissionKey) => {
    const res = await post({ responses: fullAnswers, customerEmail: 'badkey@example.com', submissionKey });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/submissionKey must be 16 to 64 letters, digits, - or _|expected string/);
  });

  it.each([
    [{ responses: { recommend: 'yes' } }, 400, 'Please rate your overall experience to continue.'],
    [{ responses: fullAnswers }, 400, 'Please provide your email address to receive your gift card reward.'],
    [{ responses: { ...fullAnswers, not_a_question: 'x' }, customerEmail: 'x@example.com' }, 400, 'Unknown question: not_a_question'],
    [{ responses: { ...fullAnswers, overall_rating: 9 }, customerEmail: 'x@example.com' }, 400, 'Choose a rating from 1 to 5.'],
    [{ responses: { ...fullAnswers, overall_rating: 2, five_star_improvement: 'Too short' }, customerEmail: 'x@example.com' }, 400, 'Please provide at least 40 characters'],
    [{ responses: { ...fullAnswers, review_google_reviewer_name: 'Ana' }, customerEmail: 'x@example.com' }, 400, 'Please complete all fields for your Google review'],
    [
      { responses: { ...fullAnswers, review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x', review_google_screenshot: 'upload-key' }, customerEmail: 'x@example.com' },
      400,
      'Your Google screenshot needs to be verified before submission.',
    ],
    [{ responses: fullAnswers, customerEmail: 'not-an-email' }, 400, 'Please enter a valid email address'],
    [{ responses: 'everything' }, 400, 'responses must be an object of answers'],
  ])('refuses %o with %i: %s', async (body, status, message) => {
    const before = await app.root.db.orm.em.fork().count(SurveyResponse, {});
    const res = await post({ bypassSquare: true, ...body });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toContain(message);
    expect(await app.root.db.orm.em.fork().count(SurveyResponse, {})).toBe(before);
  });

  it('stores a response below Bronze and queues nothing', async () => {
    // The rating alone earns 2 points, so an email is still needed for them.
    expect((await post({ responses: { overall_rating: 3 }, bypassSquare: true })).status).toBe(400);
    const anon = await post({ responses: { overall_rating: 3, customer_email: '' }, bypassSquare: true, customerEmail: 'anon@example.com' });
    expect(anon.status).toBe(201);
    expect(anon.body).toMatchObject({ totalPoints: 2, rewardTier: null, rewardValue: 0 });
    expect(await jobsFor((anon.body as { responseId: string }).responseId)).toBe(0);
  });

  it('answers 404 for a survey customers cannot reach, and 400 for malformed JSON', async () => {
    const other = await signedInOwner(app, 'Unconnected Cafe');
    const otherSurvey = (await createSurvey(app, other.jar)).id;
    const res = await run(() =>
      submit({
        request: jsonRequest(`/api/survey/submit/${other.id}/${otherSurvey}`, { responses: fullAnswers, customerEmail: 'y@example.com', bypassSquare: true }),
        context: app.context('10.88.0.1'),
        params: { businessId: other.id, surveyId: otherSurvey },
      }),
    );
    expect(res.status).toBe(404); // Square not connected and no bypass.
    const bad = await run(() => submit({ request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, '{"responses":'), context: app.context('10.88.0.2'), params: { businessId, surveyId } }));
    expect(bad.status).toBe(400);
  });
});
