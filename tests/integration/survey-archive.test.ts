import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as listConfigs } from '#app/routes/api+/survey.configs.ts';
import { loader as publicSurveyApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { loader as builderLoader } from '#app/routes/_surveys+/survey-builder.tsx';
import { action as manageAction, loader as manageLoader } from '#app/routes/_surveys+/survey-management.tsx';
import { createSurvey, signedInOwner } from '../setup/factories.ts';
import { formRequest, getRequest, run } from '../setup/http.ts';
import { query, rewardingBusiness } from '../setup/rewards.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 15: owners archive a survey (off the lists, its link answers 'Survey Not Found', its
// responses stay) and duplicate one.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The page's posts; Archive as its confirm step posts it (`confirmed=yes`, issue 27 item 13). */
const manage = (jar: Parameters<typeof formRequest>[2], fields: Record<string, string>) =>
  run(() => manageAction({ request: formRequest('/survey-management', { confirmed: 'yes', ...fields }, jar), context: app.context(), params: {} }));
const publicView = (businessId: string, surveyId: string) =>
  run(() => publicSurveyApi({ request: getRequest(`/api/survey/public/${businessId}/${surveyId}`), context: app.context(), params: { businessId, surveyId } }));
type ManagePage = { surveys: Array<{ id: string }>; archived: Array<{ id: string; title: string }> };

describe('archive and restore', () => {
  it('takes a live survey off the lists and off the public link, keeps its responses, and brings it back switched off', async () => {
    const shop = await rewardingBusiness(app, 'Archive Cafe');
    const responseId = await shop.submit('ana@example.com');
    expect((await publicView(shop.businessId, shop.surveyId)).status).toBe(200);

    const archived = await manage(shop.owner.jar, { intent: 'archive', surveyId: shop.surveyId });
    expect(archived.status).toBe(302);
    expect(archived.headers.get('Location')).toBe('/survey-management');
    expect(archived.headers.get('Set-Cookie')).toContain('rl_toast=');

    const page = (await run(() => manageLoader({ request: getRequest('/survey-management', shop.owner.jar), context: app.context(), params: {} }))).body as ManagePage;
    expect(page.surveys.map((s) => s.id)).not.toContain(shop.surveyId);
    expect(page.archived.map((s) => s.id)).toEqual([shop.surveyId]);
    expect((await run(() => listConfigs({ request: getRequest('/api/survey/configs', shop.owner.jar), context: app.context(), params: {} }))).body).toEqual([]);
    expect((await publicView(shop.businessId, shop.surveyId)).status).toBe(404);
    expect(await query(app, 'select id from survey_responses where id = ?', [responseId])).toHaveLength(1);
    // An archived survey cannot be switched back on behind the owner's back.
    expect((await manage(shop.owner.jar, { intent: 'toggle', surveyId: shop.surveyId, isActive: 'true' })).status).toBe(404);

    expect((await manage(shop.owner.jar, { intent: 'restore', surveyId: shop.surveyId })).status).toBe(302);
    const after = (await run(() => manageLoader({ request: getRequest('/survey-management', shop.owner.jar), context: app.context(), params: {} }))).body as ManagePage;
    expect(after.surveys.map((s) => s.id)).toEqual([shop.surveyId]);
    expect(after.archived).toEqual([]);
    expect((await publicView(shop.businessId, shop.surveyId)).status).toBe(404); // restored switched off
    expect((await manage(shop.owner.jar, { intent: 'toggle', surveyId: shop.surveyId, isActive: 'true' })).status).toBe(200);
    expect((await publicView(shop.businessId, shop.surveyId)).status).toBe(200);
  });
});

describe('duplicate', () => {
  it('makes an unpublished copy with the same settings and opens it in the builder', async () => {
    const owner = await signedInOwner(app, 'Copy Cafe');
    const original = await createSurvey(app, owner.jar, { title: 'Spring feedback', rewardMode: 'preset_3' });
    const res = await manage(owner.jar, { intent: 'duplicate', surveyId: original.id });
    expect(res.status).toBe(302);
    const copyId = /surveyId=([\w-]+)/.exec(res.headers.get('Location') ?? '')?.[1];
    expect(copyId).toBeTruthy();
    expect(copyId).not.toBe(original.id);
    const builder = await run(() => builderLoader({ request: getRequest(`/survey-builder?surveyId=${copyId}`, owner.jar), context: app.context(), params: {} }));
    expect(builder.body).toMatchObject({
      survey: { id: copyId, title: 'Copy of Spring feedback', rewardMode: 'preset_3', isPublished: false, isActive: true, selectedReviewPlatforms: ['google'], socialHandles: { instagram: '@crumbandco' } },
    });
  });
});

describe('owner isolation', () => {
  it("another owner's survey cannot be archived, restored or duplicated (404, nothing changes)", async () => {
    const alice = await signedInOwner(app, 'Alice Archive');
    const bob = await signedInOwner(app, 'Bob Archive');
    const { id } = await createSurvey(app, alice.jar);
    for (const intent of ['archive', 'restore', 'duplicate']) {
      expect((await manage(bob.jar, { intent, surveyId: id })).status, intent).toBe(404);
    }
    expect((await manage(bob.jar, { intent: 'archive', surveyId: 'not-a-uuid' })).status).toBe(404);
    expect(await query(app, 'select id from survey_configs where business_id = ?', [bob.id])).toEqual([]);
    expect(await query(app, 'select archived_at from survey_configs where id = ?', [id])).toEqual([{ archived_at: null }]);
  });
});
