import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as listConfigs } from '#app/routes/api+/survey.configs.ts';
import { action as putConfig, loader as getConfig } from '#app/routes/api+/survey.config.$id.ts';
import { action as toggleConfig } from '#app/routes/api+/survey.config.$id.toggle.ts';
import { loader as latestConfig } from '#app/routes/api+/survey.config.ts';
import { action as createConfig, loader as builderConfig } from '#app/routes/api+/survey.builder-config.ts';
import { loader as publishStatusLoader } from '#app/routes/api+/survey.publish-status.ts';
import { action as publishApi } from '#app/routes/api+/survey.publish.ts';
import { action as builderAction, loader as builderLoader } from '#app/routes/_surveys+/survey-builder.tsx';
import { loader as previewLoader } from '#app/routes/_surveys+/survey-preview.tsx';
import { loader as checkLoader } from '#app/routes/_billing+/subscription-check.tsx';
import { action as manageAction, loader as manageLoader } from '#app/routes/_surveys+/survey-management.tsx';
import { loader as publishedLoader } from '#app/routes/_surveys+/survey-published.$id.tsx';
import { loader as latestPublishedLoader } from '#app/routes/_surveys+/survey-published._index.tsx';
import { loader as flyerLoader } from '#app/routes/_surveys+/survey-materials.$id.flyer.ts';
import { loader as qrLoader } from '#app/routes/_surveys+/survey-materials.$id.qr.ts';
import { action as authAction } from '#app/routes/_auth+/auth.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { builderFields, createSurvey, signedInOwner, surveyBody } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { startTrialForTest } from '../setup/billing.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const ctx = () => app.context();

describe('survey JSON API', () => {
  it('creates, reads, lists, updates and toggles with the spec field names and cents', async () => {
    const { jar, id: businessId } = await signedInOwner(app);
    const created = await run(() => createConfig({ request: jsonRequest('/api/survey/builder-config', surveyBody({ rewardMode: 'custom', bronzeRewardValue: 150, silverRewardValue: 400, goldRewardValue: 1200 }), jar), context: ctx(), params: {} }));
    expect(created.status).toBe(201);
    const survey = created.body as Record<string, unknown>;
    expect(survey).toMatchObject({ businessId, title: 'Spring feedback', isActive: true, isPublished: false, rewardMode: 'custom', bronzeRewardValue: 150, silverRewardValue: 400, goldRewardValue: 1200, surveyFrequencyDays: 90, selectedReviewPlatforms: ['google'], reviewUrls: { google: 'https://g.page/r/crumb/review' } });

    const id = survey.id as string;
    expect((await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }))).body).toMatchObject({ id });
    expect((await run(() => listConfigs({ request: getRequest('/api/survey/configs', jar), context: ctx(), params: {} }))).body).toHaveLength(1);
    expect((await run(() => latestConfig({ request: getRequest('/api/survey/config', jar), context: ctx(), params: {} }))).body).toEqual({ id, rewardMode: 'custom', bronzeRewardValue: 150, silverRewardValue: 400, goldRewardValue: 1200 });
    expect((await run(() => builderConfig({ request: getRequest('/api/survey/builder-config', jar), context: ctx(), params: {} }))).body).toMatchObject({ id });

    const put = await run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ title: 'Summer feedback', rewardMode: 'preset_3' }), jar, 'PUT'), context: ctx(), params: { id } }));
    expect(put.body).toMatchObject({ title: 'Summer feedback', bronzeRewardValue: 100, silverRewardValue: 500, goldRewardValue: 1500 });

    const off = await run(() => toggleConfig({ request: jsonRequest(`/api/survey/config/${id}/toggle`, { isActive: false }, jar, 'PUT'), context: ctx(), params: { id } }));
    expect(off.body).toMatchObject({ isActive: false });
  });

  it('rejects bad input with the spec messages and leaves the stored survey unchanged', async () => {
    const { jar } = await signedInOwner(app);
    const { id } = await createSurvey(app, jar);
    const bad = await run(() =>
      putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ title: '', rewardMode: 'custom', bronzeRewardValue: 50, silverRewardValue: 200, goldRewardValue: 300, selectedReviewPlatforms: [] }), jar, 'PUT'), context: ctx(), params: { id } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      fieldErrors: {
        title: ['Title is required'],
        bronzeRewardValue: ['Bronze must be at least $1, Silver at least $2, and Gold at least $3'],
        selectedReviewPlatforms: ['Select at least one review platform'],
      },
    });
    const after = await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }));
    expect(after.body).toMatchObject({ title: 'Spring feedback', bronzeRewardValue: 100, selectedReviewPlatforms: ['google'] });
    const toggleBad = await run(() => toggleConfig({ request: jsonRequest(`/api/survey/config/${id}/toggle`, { isActive: 'no' }, jar, 'PUT'), context: ctx(), params: { id } }));
    expect(toggleBad.status).toBe(400);
    const malformed = await run(() => createConfig({ request: jsonRequest('/api/survey/builder-config', '{"title":', jar), context: ctx(), params: {} }));
    expect(malformed.status).toBe(400);
  });

  it('answers 401 signed out and 404 for unknown or malformed ids', async () => {
    expect((await run(() => listConfigs({ request: getRequest('/api/survey/configs'), context: ctx(), params: {} }))).status).toBe(401);
    const { jar } = await signedInOwner(app);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      expect((await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }))).status).toBe(404);
    }
    expect((await run(() => latestConfig({ request: getRequest('/api/survey/config', jar), context: ctx(), params: {} }))).body).toEqual({ message: 'No survey found. Please create a survey first.' });
  });

  it('publish-status says trial, then publish once the free trial runs; publish marks the survey live', async () => {
    const { jar } = await signedInOwner(app);
    const { id } = await createSurvey(app, jar);
    const before = await run(() => publishStatusLoader({ request: getRequest('/api/survey/publish-status', jar), context: ctx(), params: {} }));
    expect(before.body).toMatchObject({ action: 'trial', subscriptionStatus: 'none', canUseFreeTrial: true, trialEndsAt: null });
    const refused = await run(() => publishApi({ request: jsonRequest('/api/survey/publish', { surveyId: id }, jar), context: ctx(), params: {} }));
    expect(refused.status).toBe(402);

    const trial = await startTrialForTest(app, { jar });
    expect(trial.completed.status).toBe(200);
    const after = await run(() => publishStatusLoader({ request: getRequest('/api/survey/publish-status', jar), context: ctx(), params: {} }));
    expect(after.body).toMatchObject({ action: 'publish', subscriptionStatus: 'trialing', canUseFreeTrial: false });

    const published = await run(() => publishApi({ request: jsonRequest('/api/survey/publish', { surveyId: id }, jar), context: ctx(), params: {} }));
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ surveyConfig: { id, isPublished: true, isActive: true } });
  });

  it('refuses to publish without a social platform (Social Platform Required)', async () => {
    const { jar } = await signedInOwner(app);
    await startTrialForTest(app, { jar });
    const { id } = await createSurvey(app, jar, { selectedSocialPlatforms: [], socialHandles: {} });
    const res = await run(() => publishApi({ request: jsonRequest('/api/survey/publish', { surveyId: id }, jar), context: ctx(), params: {} }));
    expect(res.status).toBe(422);
    const preview = await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${id}`, jar), context: ctx(), params: {} }));
    expect(preview.status).toBe(302);
    expect(preview.headers.get('Location')).toBe(`/survey-builder?surveyId=${id}`);
  });
});

describe('owner isolation: another owner\'s survey is a 404 everywhere', () => {
  it('for every route and endpoint', async () => {
    const alice = await signedInOwner(app, 'Alice Cafe');
    const bob = await signedInOwner(app, 'Bob Bakery');
    const { id } = await createSurvey(app, alice.jar);
    const jar = bob.jar;
    const statuses = {
      getConfig: (await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }))).status,
      putConfig: (await run(() => putConfig({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ title: 'Hijacked' }), jar, 'PUT'), context: ctx(), params: { id } }))).status,
      toggle: (await run(() => toggleConfig({ request: jsonRequest(`/api/survey/config/${id}/toggle`, { isActive: false }, jar, 'PUT'), context: ctx(), params: { id } }))).status,
      publish: (await run(() => publishApi({ request: jsonRequest('/api/survey/publish', { surveyId: id }, jar), context: ctx(), params: {} }))).status,
      builder: (await run(() => builderLoader({ request: getRequest(`/survey-builder?surveyId=${id}`, jar), context: ctx(), params: {} }))).status,
      builderSave: (await run(() => builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields({ title: 'Hijacked' }), jar), context: ctx(), params: {} }))).status,
      preview: (await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${id}`, jar), context: ctx(), params: {} }))).status,
      manageToggle: (await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'toggle', surveyId: id, isActive: 'false' }, jar), context: ctx(), params: {} }))).status,
      published: (await run(() => publishedLoader({ request: getRequest(`/survey-published/${id}`, jar), context: ctx(), params: { id } }))).status,
      flyer: (await run(() => flyerLoader({ request: getRequest(`/survey-materials/${id}/flyer`, jar), context: ctx(), params: { id } }))).status,
      qr: (await run(() => qrLoader({ request: getRequest(`/survey-materials/${id}/qr`, jar), context: ctx(), params: { id } }))).status,
    };
    expect(statuses).toEqual({ getConfig: 404, putConfig: 404, toggle: 404, publish: 404, builder: 404, builderSave: 404, preview: 404, manageToggle: 404, published: 404, flyer: 404, qr: 404 });
    const bobList = await run(() => listConfigs({ request: getRequest('/api/survey/configs', jar), context: ctx(), params: {} }));
    expect(bobList.body).toEqual([]);
    const bobManage = await run(() => manageLoader({ request: getRequest('/survey-management', jar), context: ctx(), params: {} }));
    expect((bobManage.body as { surveys: unknown[] }).surveys).toEqual([]);
    const check = await run(() => checkLoader({ request: getRequest(`/subscription-check?surveyId=${id}`, jar), context: ctx(), params: {} }));
    expect(check.body).toMatchObject({ survey: null });
    // Alice's survey is untouched.
    const mine = await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, alice.jar), context: ctx(), params: { id } }));
    expect(mine.body).toMatchObject({ title: 'Spring feedback', isActive: true, isPublished: false });
  });
});

describe('builder, management and published pages', () => {
  it('the builder form creates a survey (no JavaScript needed) and goes to the preview', async () => {
    const { jar } = await signedInOwner(app);
    const res = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ rewardMode: 'custom', customBronze: '2', customSilver: '4', customGold: '10' }), jar), context: ctx(), params: {} }));
    expect(res.status).toBe(302);
    const id = /surveyId=([\w-]+)/.exec(res.headers.get('Location')!)![1]!;
    const survey = await run(() => getConfig({ request: getRequest(`/api/survey/config/${id}`, jar), context: ctx(), params: { id } }));
    expect(survey.body).toMatchObject({ bronzeRewardValue: 200, silverRewardValue: 400, goldRewardValue: 1000, redemptionWebsite: 'https://crumbandco.com' });
  });

  it('saving an existing survey goes to its published page; the preview has no login guard', async () => {
    const { jar } = await signedInOwner(app);
    const { id } = await createSurvey(app, jar);
    const res = await run(() => builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields({ title: 'Renamed' }), jar), context: ctx(), params: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/survey-published/${id}`);
    // A visitor (or an owner whose session ended) is offered to sign in, not sent away, and sees nothing of the survey.
    const visitor = await run(() => previewLoader({ request: getRequest(`/survey-preview?surveyId=${id}`), context: ctx(), params: {} }));
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual({ survey: null, availability: null, previewUrl: null, signInTo: `/auth?returnTo=${encodeURIComponent(`/survey-preview?surveyId=${id}`)}` });
  });

  it('the builder shows inline errors; a question step without JavaScript keeps the form and stores nothing', async () => {
    const { jar } = await signedInOwner(app);
    const bad = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ title: '', surveyFrequencyDays: '30' }), jar), context: ctx(), params: {} }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Title is required');
    expect(JSON.stringify(bad.body)).toContain('Must be 90, 180, or 365 days');
    const remove = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ intent: 'question:remove:recommend' }), jar), context: ctx(), params: {} }));
    expect(remove.status).toBe(200);
    const removed = remove.body as { editor: { list: Array<{ id: string; removed?: boolean }> }; result: { initialValue: Record<string, unknown> } };
    expect(removed.editor.list.find((q) => q.id === 'recommend')?.removed).toBe(true);
    expect(removed.result.initialValue.title).toBe('Spring feedback');
    const locked = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ intent: 'question:remove:overall_rating' }), jar), context: ctx(), params: {} }));
    expect(locked.status).toBe(400);
    expect(JSON.stringify(locked.body)).toContain('cannot be removed');
    expect((await run(() => listConfigs({ request: getRequest('/api/survey/configs', jar), context: ctx(), params: {} }))).body).toEqual([]);
  });

  it('a logged-out save keeps nothing on the server and asks to sign up', async () => {
    const res = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields()), context: ctx(), params: {} }));
    expect(res.status).toBe(401);
    expect(JSON.stringify(res.body)).toContain('Sign up or sign in to save your survey.');
  });

  it('hands a browser draft over at sign-up and goes to the publish check', async () => {
    const draft = JSON.stringify({ ...surveyBody({ title: 'Draft from the browser' }), surveyTemplateId: 'restaurant_cafe_bakery', bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 });
    const res = await run(() =>
      authAction({
        request: formRequest('/auth', { intent: 'signup', displayName: 'Drafty Cafe', email: `drafty-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', terms: 'on', surveyBuilderConfig: draft }),
        context: app.context('10.50.0.1'),
        params: {},
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toMatch(/^\/subscription-check\?surveyId=[\w-]+&handover=1$/);
    const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
    const list = await run(() => listConfigs({ request: getRequest('/api/survey/configs', jar), context: ctx(), params: {} }));
    expect(list.body).toMatchObject([{ title: 'Draft from the browser' }]);
  });

  it('with a returnTo, the draft is still saved and the page is told to forget it', async () => {
    const draft = JSON.stringify({ ...surveyBody({ title: 'Draft with returnTo' }), surveyTemplateId: 'restaurant_cafe_bakery' });
    const res = await run(() =>
      authAction({
        request: formRequest('/auth', { intent: 'signup', displayName: 'Return Cafe', email: `return-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', terms: 'on', surveyBuilderConfig: draft, returnTo: '/profile?tab=plan' }),
        context: app.context('10.50.0.2'),
        params: {},
      }),
    );
    expect(res.headers.get('Location')).toBe('/profile?tab=plan&handover=1');
  });

  it('ignores a broken or invalid draft and signs in as usual', async () => {
    for (const draft of ['{not json', JSON.stringify({ title: '' })]) {
      const res = await run(() =>
        authAction({
          request: formRequest('/auth', { intent: 'signup', displayName: 'Broken Draft', email: `broken-${Date.now()}-${draft.length}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', terms: 'on', surveyBuilderConfig: draft }),
          context: app.context('10.50.0.3'),
          params: {},
        }),
      );
      expect(res.headers.get('Location')).toBe('/');
    }
  });

  it('an unfair draft (Gold earned without sharing) is not saved: the owner is sent to the builder, which opens the browser’s copy, with the reason', async () => {
    const draft = JSON.stringify({ ...surveyBody({ title: 'Unfair draft', tierThresholds: { Gold: 10 } }), surveyTemplateId: 'restaurant_cafe_bakery' });
    const res = await run(() =>
      authAction({
        request: formRequest('/auth', { intent: 'signup', displayName: 'Unfair Draft', email: `unfair-${Date.now()}@example.com`, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', terms: 'on', surveyBuilderConfig: draft }),
        context: app.context('10.50.0.4'),
        params: {},
      }),
    );
    // No handover: the browser keeps its copy, and the builder opens it with the reason.
    expect(res.headers.get('Location')).toBe('/survey-builder?draft=1');
    const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
    const { toast } = await readToast(getRequest('/survey-builder?draft=1', jar), app.context());
    expect(toast).toMatchObject({ title: 'Survey not saved yet', type: 'error', description: expect.stringContaining('Gold must need sharing') });
    // The builder opens the browser's draft for this signed-in owner.
    const builder = await run(() => builderLoader({ request: getRequest('/survey-builder?draft=1', jar), context: ctx(), params: {} }));
    expect(builder.body).toMatchObject({ loggedIn: true, restoreDraft: true });
    const list = await run(() => listConfigs({ request: getRequest('/api/survey/configs', jar), context: ctx(), params: {} }));
    expect(list.body).toEqual([]);
  });

  it('management totals, the availability badge and the switch', async () => {
    const { jar } = await signedInOwner(app);
    const a = await createSurvey(app, jar, { rewardMode: 'preset_1' });
    const b = await createSurvey(app, jar, { rewardMode: 'preset_3' });
    // Never published: Draft, and no warning about availability (issue 15's one vocabulary).
    const drafts = await run(() => manageLoader({ request: getRequest('/survey-management', jar), context: ctx(), params: {} }));
    expect((drafts.body as { surveys: Array<{ availability: string }>; warning: unknown }).surveys.map((s) => s.availability)).toEqual(['Draft', 'Draft']);
    expect((drafts.body as { warning: unknown }).warning).toBeNull();
    // Published earlier (the plan has since ended), not switched off: Unavailable, saying why.
    await app.root.db.orm.em.getConnection().execute(`update survey_configs set published_at = now() where id in (?, ?)`, [a.id, b.id]);
    const page = await run(() => manageLoader({ request: getRequest('/survey-management', jar), context: ctx(), params: {} }));
    const body = page.body as { totals: Record<string, number>; surveys: Array<{ id: string; availability: string }>; warning: string[] | null };
    expect(body.totals).toEqual({ total: 2, available: 0, avgGold: 1000, thisMonth: 2 });
    // Active but no plan and no Square: Unavailable, with the red warning.
    expect(body.surveys.map((s) => s.availability)).toEqual(['Unavailable', 'Unavailable']);
    expect(body.warning).toEqual(['Start a free trial or subscribe to publish surveys.', 'Connect Square so rewards can be delivered.']);
    const off = await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'toggle', surveyId: a.id, isActive: 'false' }, jar), context: ctx(), params: {} }));
    expect(off.body).toMatchObject({ ok: true, toast: { title: 'Survey Updated', type: 'success' } });
    const again = await run(() => manageLoader({ request: getRequest('/survey-management', jar), context: ctx(), params: {} }));
    expect((again.body as typeof body).surveys.find((s) => s.id === a.id)?.availability).toBe('Inactive');
    const bad = await run(() => manageAction({ request: formRequest('/survey-management', { intent: 'toggle', surveyId: a.id, isActive: 'maybe' }, jar), context: ctx(), params: {} }));
    expect(bad.status).toBe(400);
  });

  it('the published page and downloads: the short link (ADR 082), QR, flyer named after the survey', async () => {
    const { jar } = await signedInOwner(app);
    const { id, shortCode } = await createSurvey(app, jar, { title: 'Crumb & Co: Spring Survey!' });
    const page = await run(() => publishedLoader({ request: getRequest(`/survey-published/${id}`, jar), context: ctx(), params: { id } }));
    expect(page.body).toMatchObject({ publicUrl: `http://localhost:3000/s/${shortCode}`, isPublished: false });
    expect((page.body as { qrSvg: string }).qrSvg).toMatch(/^<svg /);
    const flyer = await run(() => flyerLoader({ request: getRequest(`/survey-materials/${id}/flyer`, jar), context: ctx(), params: { id } }));
    expect(flyer.status).toBe(200);
    expect(flyer.headers.get('Content-Type')).toBe('image/png');
    expect(flyer.headers.get('Content-Disposition')).toBe('attachment; filename="crumb-and-co-spring-survey-flyer.png"');
    const qr = await run(() => qrLoader({ request: getRequest(`/survey-materials/${id}/qr`, jar), context: ctx(), params: { id } }));
    expect(qr.headers.get('Content-Type')).toBe('image/png');
    const latest = await run(() => latestPublishedLoader({ request: getRequest('/survey-published', jar), context: ctx(), params: {} }));
    expect(latest.body).toMatchObject({ survey: { id } });
    const none = await signedInOwner(app);
    const empty = await run(() => latestPublishedLoader({ request: getRequest('/survey-published', none.jar), context: ctx(), params: {} }));
    expect(empty.body).toEqual({ survey: null });
  });
});
