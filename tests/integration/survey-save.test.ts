/**
 * Issue 28 item 1, ADR 089: one survey save (`surveys.save`) holds every save rule (tier fairness,
 * ADR 041; hosted vision availability, ADR 066). Each door (the builder page, new and edit; the JSON
 * API, POST and PUT; the draft handed over at sign-up) calls it and only words the refusal its way,
 * so the same survey is refused by each with the same message, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as createApi } from '#app/routes/api+/survey.builder-config.ts';
import { action as updateApi } from '#app/routes/api+/survey.config.$id.ts';
import { action as authAction } from '#app/routes/_auth+/auth.tsx';
import { action as builderAction } from '#app/routes/_surveys+/survey-builder.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { HOSTED_VISION_UNAVAILABLE } from '../../modules/surveys/index.ts';
import { builderFields, createSurvey, signedInOwner, surveyBody } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

/** Gold at 17 can be reached without sharing by every customer (the template's questions give 17). */
const UNFAIR = 'Gold must need sharing: every customer can reach 17 points without a review, follow or post, and Gold starts at 17. Raise Gold above 17 points.';

let app: TestApp;
let ip = 0;
const ctx = () => {
  ip += 1;
  return app.context(`10.171.${Math.floor(ip / 200) % 250}.${ip % 200}`);
};
beforeAll(async () => {
  // No SCREENSHOT_VISION_API_KEY: this server has no hosted vision verifier.
  app = await createTestApp();
}, 120_000);
afterAll(async () => {
  await app?.close();
});

const surveysOf = async (businessId: string) =>
  (await app.root.db.orm.em.fork().getConnection().execute('select title, tier_thresholds, hosted_vision from survey_configs where business_id = ? order by created_at', [businessId])) as Array<{
    title: string;
    tier_thresholds: Record<string, number> | null;
    hosted_vision: boolean;
  }>;

type FormReply = { result: { error?: Record<string, string[] | null> }; toast?: { title: string; description: string } };

/** What a sign-up carrying a builder draft answers: where it goes, the toast there, the new owner's id. */
async function signUpWithDraft(name: string, draft: Record<string, unknown>) {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.com`;
  const res = await run(() =>
    authAction({
      request: formRequest('/auth', { intent: 'signup', displayName: name, email, password: 'sesame-street-42', confirmPassword: 'sesame-street-42', terms: 'on', surveyBuilderConfig: JSON.stringify(draft) }),
      context: ctx(),
      params: {},
    }),
  );
  const location = res.headers.get('Location');
  const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
  const { toast } = await readToast(getRequest(location ?? '/', jar), app.context());
  const businessId = String((await app.root.db.orm.em.fork().getConnection().execute('select id from businesses where email = ?', [email]))[0]!.id);
  return { location, toast, businessId };
}

describe('every door refuses an unfair survey with the same words (ADR 041 inside surveys.save)', () => {
  it('the builder page, new and edit', async () => {
    const owner = await signedInOwner(app, 'Door Builder Cafe');
    const created = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ tierBronze: '5', tierSilver: '8', tierGold: '17' }), owner.jar), context: ctx(), params: {} }));
    expect(created.status).toBe(400);
    const reply = created.body as FormReply;
    expect(reply.toast).toMatchObject({ title: 'Save Failed', description: UNFAIR });
    expect(reply.result.error?.tierGold).toEqual([UNFAIR]);
    expect(await surveysOf(owner.id)).toEqual([]);

    const { id } = await createSurvey(app, owner.jar, { title: 'Fair one' });
    const edited = await run(() =>
      builderAction({ request: formRequest(`/survey-builder?surveyId=${id}`, builderFields({ title: 'Renamed', tierBronze: '5', tierSilver: '8', tierGold: '17' }), owner.jar), context: ctx(), params: {} }),
    );
    expect(edited.status).toBe(400);
    expect((edited.body as FormReply).toast).toMatchObject({ description: UNFAIR });
    expect(await surveysOf(owner.id)).toEqual([{ title: 'Fair one', tier_thresholds: null, hosted_vision: false }]);
  });

  it('the JSON API, POST and PUT', async () => {
    const owner = await signedInOwner(app, 'Door Api Cafe');
    const created = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody({ tierThresholds: { Gold: 17 } }), owner.jar), context: ctx(), params: {} }));
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ message: UNFAIR, fieldErrors: { tierThresholds: [UNFAIR] } });
    expect(await surveysOf(owner.id)).toEqual([]);

    const { id } = await createSurvey(app, owner.jar, { title: 'Fair one' });
    const put = await run(() => updateApi({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ title: 'Renamed', tierThresholds: { Gold: 17 } }), owner.jar, 'PUT'), context: ctx(), params: { id } }));
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ message: UNFAIR, fieldErrors: { tierThresholds: [UNFAIR] } });
    expect(await surveysOf(owner.id)).toEqual([{ title: 'Fair one', tier_thresholds: null, hosted_vision: false }]);
  });

  it('the draft handed over at sign-up: not saved, the builder opens it with the same words', async () => {
    const handed = await signUpWithDraft('Door Draft Cafe', { ...surveyBody({ tierThresholds: { Gold: 17 } }), surveyTemplateId: 'restaurant_cafe_bakery' });
    expect(handed.location).toBe('/survey-builder?draft=1');
    expect(handed.toast).toMatchObject({ title: 'Survey not saved yet', type: 'error', description: `${UNFAIR} Your survey is open in the builder: change this, then save.` });
    expect(await surveysOf(handed.businessId)).toEqual([]);
  });
});

describe('hosted vision where this server has none (ADR 066 inside surveys.save)', () => {
  it('a handed-over draft that asks for it is not saved either, as the builder and the API refuse it', async () => {
    // Before ADR 089 the hand-over checked fairness only and stored hostedVision: true on a server without it.
    const handed = await signUpWithDraft('Vision Draft Cafe', { ...surveyBody({ hostedVision: true }), surveyTemplateId: 'restaurant_cafe_bakery' });
    expect(handed.location).toBe('/survey-builder?draft=1');
    expect(handed.toast).toMatchObject({ title: 'Survey not saved yet', description: expect.stringContaining(HOSTED_VISION_UNAVAILABLE) });
    expect(await surveysOf(handed.businessId)).toEqual([]);

    const owner = await signedInOwner(app, 'Vision Api Cafe');
    const api = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody({ hostedVision: true }), owner.jar), context: ctx(), params: {} }));
    expect(api.body).toEqual({ message: HOSTED_VISION_UNAVAILABLE, fieldErrors: { hostedVision: [HOSTED_VISION_UNAVAILABLE] } });
    const form = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ hostedVision: 'on' }), owner.jar), context: ctx(), params: {} }));
    expect((form.body as FormReply).toast).toMatchObject({ description: HOSTED_VISION_UNAVAILABLE });
    expect((form.body as FormReply).result.error?.hostedVision).toEqual([HOSTED_VISION_UNAVAILABLE]);
    expect(await surveysOf(owner.id)).toEqual([]);
  });
});
