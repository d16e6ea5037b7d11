import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as eligibility } from '#app/routes/api+/survey.check-email-eligibility.$businessId.ts';
import { loader as publicSurvey } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { action as toggleConfig } from '#app/routes/api+/survey.config.$id.toggle.ts';
import { CustomerSubmission } from '../../modules/responses/entities.ts';
import { createSurvey, signedInOwner } from '../setup/factories.ts';
import { CookieJar, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { startTrialForTest } from '../setup/billing.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const ask = (businessId: string, body: unknown, jar?: CookieJar) =>
  run(() => eligibility({ request: jsonRequest(`/api/survey/check-email-eligibility/${businessId}`, body, jar), context: app.context(), params: { businessId } }));

describe('POST /api/survey/check-email-eligibility/{businessId}', () => {
  it('applies the survey’s window per business and email', async () => {
    const owner = await signedInOwner(app);
    const { id: surveyId } = await createSurvey(app, owner.jar, { surveyFrequencyDays: 90 });
    // No trial yet: customers do not find it; the owner's own preview does (issue 27 item 1).
    expect((await ask(owner.id, { email: 'ana@example.com', surveyId })).status).toBe(404);
    expect((await ask(owner.id, { email: 'ana@example.com', surveyId, bypassSquare: true }, owner.jar)).status).toBe(200);
    await startTrialForTest(app, { jar: owner.jar });
    // Square is not connected: only a preview (bypass_square) reaches it.
    expect((await ask(owner.id, { email: 'ana@example.com', surveyId })).status).toBe(404);
    expect((await ask(owner.id, { email: 'ana@example.com', surveyId, bypassSquare: true }, owner.jar)).body).toEqual({ eligible: true, message: null, daysRemaining: 0 });

    const em = app.root.db.orm.em.fork();
    em.create(CustomerSubmission, { businessId: owner.id, customerEmail: 'ana@example.com', lastSubmissionAt: new Date(Date.now() - 10 * 86_400_000) });
    await em.flush();
    const again = await ask(owner.id, { email: '  ANA@example.com ', surveyId, bypassSquare: true }, owner.jar);
    expect(again.body).toEqual({
      eligible: false,
      message: 'This email has already been used for a reward here. You can take the survey again in 80 days.',
      daysRemaining: 80,
    });
    // Another email is unaffected.
    expect((await ask(owner.id, { email: 'ben@example.com', surveyId, bypassSquare: true }, owner.jar)).body).toMatchObject({ eligible: true });

    await run(() => toggleConfig({ request: jsonRequest(`/api/survey/config/${surveyId}/toggle`, { isActive: false }, owner.jar, 'PUT'), context: app.context(), params: { id: surveyId } }));
    expect((await ask(owner.id, { email: 'ben@example.com', surveyId, bypassSquare: true }, owner.jar)).status).toBe(404);
  });

  it('answers bad input with a clear 4xx', async () => {
    const owner = await signedInOwner(app);
    const { id: surveyId } = await createSurvey(app, owner.jar);
    const other = await signedInOwner(app);
    expect((await ask(owner.id, { email: 'not-an-email', surveyId })).body).toMatchObject({ fieldErrors: { email: ['Invalid email address'] } });
    expect((await ask(owner.id, { email: 'a@b.co' })).status).toBe(400);
    expect((await ask('not-a-uuid', { email: 'a@b.co', surveyId })).status).toBe(404);
    // A survey id under the wrong business.
    expect((await ask(other.id, { email: 'a@b.co', surveyId, bypassSquare: true }, owner.jar)).status).toBe(404);
    const malformed = await run(() => eligibility({ request: jsonRequest(`/api/survey/check-email-eligibility/${owner.id}`, '{"email":'), context: app.context(), params: { businessId: owner.id } }));
    expect(malformed.status).toBe(400);
  });
});

describe('GET /api/survey/public/{businessId}/{surveyId}', () => {
  it('gives the customer view of an available survey and nothing of an unavailable one', async () => {
    const owner = await signedInOwner(app, 'Public Cafe');
    const { id: surveyId } = await createSurvey(app, owner.jar);
    const get = (query = '') => run(() => publicSurvey({ request: getRequest(`/api/survey/public/${owner.id}/${surveyId}${query}`, owner.jar), context: app.context(), params: { businessId: owner.id, surveyId } }));
    // No trial yet: the owner's preview opens it (issue 27 item 1), customers still get Survey Not Found.
    expect(await get('?bypass_square=true')).toMatchObject({ status: 200, body: { isPreview: true } });
    expect(await get()).toMatchObject({ status: 404, body: { message: 'Survey Not Found' } });
    await startTrialForTest(app, { jar: owner.jar });
    const view = await get('?bypass_square=true');
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      config: { id: surveyId, title: 'Spring feedback', goldRewardValue: 800, selectedReviewPlatforms: ['google'], reviewUrls: { google: 'https://g.page/r/crumb/review' } },
      template: { id: 'restaurant_cafe_bakery' },
      business: { displayName: 'Public Cafe' },
      isPreview: true,
    });
    expect(JSON.stringify(view.body)).not.toMatch(/hashedPassword|squareAccessToken|"email":|@example\.com/);
    expect((await get()).status).toBe(404);
  });
});
