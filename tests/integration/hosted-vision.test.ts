/**
 * The hosted vision verifier as an owner's choice (issue 13 "Beyond", ADR 066): off unless the owner
 * ticks it on a server that has SCREENSHOT_VISION_API_KEY; then that survey's screenshots, and only
 * that survey's, go to the service (mocked with msw at the network edge), and the survey tells the
 * customer so. Elsewhere nothing is sent.
 */
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as createApi } from '#app/routes/api+/survey.builder-config.ts';
import { action as updateApi } from '#app/routes/api+/survey.config.$id.ts';
import { loader as publicApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { action as verifyScreenshot } from '#app/routes/api+/verify-screenshot.ts';
import { action as builderAction } from '#app/routes/_surveys+/survey-builder.tsx';
import { HOSTED_VISION_UNAVAILABLE } from '../../modules/surveys/index.ts';
import { startTrialForTest } from '../setup/billing.ts';
import { builderFields, connectSquareWithoutLocation, publishForTest, signedInOwner, surveyBody } from '../setup/factories.ts';
import { formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { chatCompletion, GOOGLE_REVIEW_LINES } from '../mocks/openai.ts';

const BASE = 'https://vision.test/v1';
const LINK = 'https://maps.app.goo.gl/x7Qm2aVbC9dEf';
const image = readFileSync(path.join(import.meta.dirname, '../fixtures/screenshots/google-review-ana.png'));
const dataUrl = `data:image/png;base64,${image.toString('base64')}`;

const sent: Array<Record<string, unknown>> = [];
const server = setupServer(
  http.post(`${BASE}/chat/completions`, async ({ request }) => {
    sent.push((await request.json()) as Record<string, unknown>);
    return chatCompletion({ lines: GOOGLE_REVIEW_LINES, stars: 5 });
  }),
);

let app: TestApp;
let plain: TestApp;
let ip = 0;
const ctx = (on: TestApp = app) => {
  ip += 1;
  return on.context(`10.160.${Math.floor(ip / 200) % 250}.${ip % 200}`);
};

async function shop(name: string, overrides: Record<string, unknown>) {
  const owner = await signedInOwner(app, name);
  const res = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody(overrides), owner.jar), context: ctx(), params: {} }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const surveyId = (res.body as { id: string }).id;
  await startTrialForTest(app, { jar: owner.jar });
  await publishForTest(app, owner.jar, surveyId);
  await connectSquareWithoutLocation(app, owner.id);
  return { businessId: owner.id, surveyId, jar: owner.jar };
}

const verify = (s: { businessId: string; surveyId: string }) =>
  run(() =>
    verifyScreenshot({
      request: jsonRequest('/api/verify-screenshot', { businessId: s.businessId, surveyId: s.surveyId, platform: 'google', reviewerName: 'Ana Pereira', reviewLink: LINK, screenshot: dataUrl }),
      context: ctx(),
      params: {},
    }),
  );
const publicView = (s: { businessId: string; surveyId: string }) =>
  run(() => publicApi({ request: getRequest(`/api/survey/public/${s.businessId}/${s.surveyId}`), context: ctx(), params: { businessId: s.businessId, surveyId: s.surveyId } }));

beforeAll(async () => {
  server.listen();
  app = await createTestApp({ SCREENSHOT_VERIFIER: 'fake', SCREENSHOT_VISION_API_KEY: 'sk-test-vision', SCREENSHOT_VISION_BASE_URL: BASE, SCREENSHOT_VISION_MODEL: 'vision-model' });
  plain = await createTestApp({ SCREENSHOT_VERIFIER: 'fake' });
}, 120_000);
afterAll(async () => {
  server.close();
  await app?.close();
  await plain?.close();
});

describe('the hosted vision verifier, by the owner’s choice', () => {
  it('reads the screenshots of the survey that chose it, and says so to its customers', async () => {
    const chosen = await shop('Crumb & Co Bakery', { hostedVision: true });
    const res = await verify(chosen);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ isValid: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ model: 'vision-model' });
    expect(JSON.stringify(sent[0])).toContain('data:image/jpeg;base64,');
    expect(await publicView(chosen).then((r) => r.body)).toMatchObject({ config: { hostedVision: true }, view: { hostedVision: true } });
  });

  it('sends nothing for a survey that did not choose it', async () => {
    const before = sent.length;
    const other = await shop('Crumb & Co Bakery', {});
    const res = await verify(other);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(sent).toHaveLength(before);
    expect(await publicView(other).then((r) => r.body)).toMatchObject({ config: { hostedVision: false }, view: { hostedVision: false } });
  });

  it('cannot be turned on where the server has no key: a clear 400, nothing stored (JSON API and the builder form)', async () => {
    const owner = await signedInOwner(plain, 'Keyless Cafe');
    const api = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody({ hostedVision: true }), owner.jar), context: ctx(plain), params: {} }));
    expect(api.status).toBe(400);
    expect(api.body).toMatchObject({ message: HOSTED_VISION_UNAVAILABLE, fieldErrors: { hostedVision: [HOSTED_VISION_UNAVAILABLE] } });
    const form = await run(() => builderAction({ request: formRequest('/survey-builder', builderFields({ hostedVision: 'on' }), owner.jar), context: ctx(plain), params: {} }));
    expect(form.status).toBe(400);
    expect(JSON.stringify(form.body)).toContain(HOSTED_VISION_UNAVAILABLE);
    // Off is always fine, and an update that leaves it out keeps it off.
    const off = await run(() => createApi({ request: jsonRequest('/api/survey/builder-config', surveyBody({ hostedVision: false }), owner.jar), context: ctx(plain), params: {} }));
    expect(off.status).toBe(201);
    const id = (off.body as { id: string }).id;
    const put = await run(() => updateApi({ request: jsonRequest(`/api/survey/config/${id}`, surveyBody({ title: 'Renamed' }), owner.jar, 'PUT'), context: ctx(plain), params: { id } }));
    expect(put.body).toMatchObject({ title: 'Renamed', hostedVision: false });
  });
});
