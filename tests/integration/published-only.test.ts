import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publicPage from '#app/routes/_customer+/survey.public.$businessId.$surveyId.tsx';
import * as businessPage from '#app/routes/_customer+/survey.$businessId.tsx';
import { loader as publicApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { loader as dynamicApi } from '#app/routes/api+/survey.dynamic.$businessId.ts';
import { action as submitApi } from '#app/routes/api+/survey.submit.$businessId.$surveyId.ts';
import { action as eligibilityApi } from '#app/routes/api+/survey.check-email-eligibility.$businessId.ts';
import { loader as publishedLoader } from '#app/routes/_surveys+/survey-published.$id.tsx';
import { startTrialForTest } from '../setup/billing.ts';
import { connectSquareForTest, createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { getRequest, jsonRequest, run, type CookieJar } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 14, "published means published", and issue 15's one status vocabulary: a survey that was
// never published answers 'Survey Not Found' on every public route (the owner's preview still works)
// and reads Draft, never Available.

let app: TestApp;
let owner: { jar: CookieJar; id: string };
let surveyId: string;

beforeAll(async () => {
  app = await createTestApp();
  owner = await signedInOwner(app, 'Draft Cafe');
  surveyId = (await createSurvey(app, owner.jar)).id;
  await startTrialForTest(app, { jar: owner.jar });
  await connectSquareForTest(app, owner.id);
});
afterAll(async () => {
  await app?.close();
});

const ctx = () => app.context();

async function publicStatuses(jar?: CookieJar, query = '') {
  const businessId = owner.id;
  return {
    page: (await run(() => publicPage.loader({ request: getRequest(`/survey/public/${businessId}/${surveyId}${query}`, jar), context: ctx(), params: { businessId, surveyId } }))).status,
    current: ((await run(() => businessPage.loader({ request: getRequest(`/survey/${businessId}`, jar), context: ctx(), params: { businessId } }))).body as { view?: { surveyId?: string } | null })?.view?.surveyId ?? null,
    api: (await run(() => publicApi({ request: getRequest(`/api/survey/public/${businessId}/${surveyId}${query}`, jar), context: ctx(), params: { businessId, surveyId } }))).status,
    dynamic: (await run(() => dynamicApi({ request: getRequest(`/api/survey/dynamic/${businessId}`, jar), context: ctx(), params: { businessId } }))).status,
    submit: (await run(() => submitApi({ request: jsonRequest(`/api/survey/submit/${businessId}/${surveyId}`, { responses: { overall_rating: 5 } }, jar), context: ctx(), params: { businessId, surveyId } }))).status,
    eligibility: (await run(() => eligibilityApi({ request: jsonRequest(`/api/survey/check-email-eligibility/${businessId}`, { email: 'a@b.co', surveyId }, jar), context: ctx(), params: { businessId } }))).status,
  };
}

describe('a survey that was never published', () => {
  it('is Survey Not Found on every public route, reads Draft to its owner, and opens in the owner’s preview', async () => {
    expect(await publicStatuses()).toEqual({ page: 404, current: null, api: 404, dynamic: 404, submit: 404, eligibility: 404 });
    const published = await run(() => publishedLoader({ request: getRequest(`/survey-published/${surveyId}`, owner.jar), context: ctx(), params: { id: surveyId } }));
    expect(published.body).toMatchObject({ availability: 'Draft', unavailableFixes: [] });
    // The owner's own preview shows the draft (and saves nothing); a stranger's ?bypass_square=true does not.
    const preview = await run(() => publicApi({ request: getRequest(`/api/survey/public/${owner.id}/${surveyId}?bypass_square=true`, owner.jar), context: ctx(), params: { businessId: owner.id, surveyId } }));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ isPreview: true });
    expect((await publicStatuses(undefined, '?bypass_square=true')).api).toBe(404);
  });

  it('opens everywhere once published, and reads Available', async () => {
    await publishForTest(app, owner.jar, surveyId);
    const after = await publicStatuses();
    expect(after).toMatchObject({ page: 200, current: surveyId, api: 200, dynamic: 200, eligibility: 200 });
    expect(after.submit).toBe(400); // reached: the answers are judged (an email is needed for points), not Survey Not Found
    const published = await run(() => publishedLoader({ request: getRequest(`/survey-published/${surveyId}`, owner.jar), context: ctx(), params: { id: surveyId } }));
    expect(published.body).toMatchObject({ availability: 'Available' });
  });
});
