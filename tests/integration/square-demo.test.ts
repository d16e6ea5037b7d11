import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as publicSurveyApi } from '#app/routes/api+/survey.public.$businessId.$surveyId.ts';
import { loader as squareAuth } from '#app/routes/api+/square.auth.ts';
import { loader as squareCallback } from '#app/routes/api+/square.callback.ts';
import { loader as squareStatus } from '#app/routes/api+/square.status.ts';
import { action as consentAction, loader as consentPage } from '#app/routes/_owner+/square-connect_.demo.tsx';
import { action as selectionAction, loader as selectionPage } from '#app/routes/_owner+/square-location-selection.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { CONFLICTING_CHOICE } from '#app/utils/square.server.ts';
import { POS_TOKEN_REFRESH_CRON, registerPosTokenRefresh } from '../../modules/pos/refresh.ts';
import { POS_MESSAGES } from '../../modules/pos/service.ts';
import { decryptToken } from '../../modules/pos/token-crypto.ts';
import { createSurvey, publishForTest, signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { startTrialForTest } from '../setup/billing.ts';

let app: TestApp;
beforeAll(async () => {
  // POS=demo is the default: no Square keys anywhere.
  app = await createTestApp({}, { jobs: true });
});
afterAll(async () => {
  await app?.close();
});

type Result = Awaited<ReturnType<typeof run>>;
const ctx = () => app.context();
const toastOf = async (res: Result) =>
  (await readToast(getRequest('/', new CookieJar().take(new Response(null, { headers: res.headers }))), ctx())).toast;
const row = async (id: string) =>
  (
    await app.root.db.orm.em
      .getConnection()
      .execute(`select square_access_token, square_refresh_token, square_merchant_id, square_location_id, square_location_name, square_token_expires_at from businesses where id = ?`, [id])
  )[0] as Record<string, string | null>;

/** Connect through the demo consent page: /api/square/auth, the page, Allow (or Deny), the callback. */
async function demoConnect(jar: CookieJar, intent: 'allow' | 'deny' = 'allow') {
  const start = await run(() => squareAuth({ request: getRequest('/api/square/auth', jar), context: ctx(), params: {} }));
  const location = start.headers.get('Location')!;
  expect(location).toMatch(/^\/square-connect\/demo\?state=[A-Za-z0-9_-]{43}$/);
  const page = await run(() => consentPage({ request: getRequest(location, jar), context: ctx(), params: {} }));
  const { state } = page.body as { state: string };
  const consent = await run(() => consentAction({ request: formRequest('/square-connect/demo', { state, intent }, jar), context: ctx(), params: {} }));
  expect(consent.status).toBe(302);
  const back = consent.headers.get('Location')!;
  expect(back.startsWith('/api/square/callback?')).toBe(true);
  const res = await run(() => squareCallback({ request: getRequest(back, jar), context: ctx(), params: {} }));
  return { res, back, state };
}

describe('Square connection with the demo point of sale (no keys)', () => {
  it('connects through the local consent page, lists the two demo locations and chooses one without JavaScript', async () => {
    const owner = await signedInOwner(app);
    const { res } = await demoConnect(owner.jar);
    expect(res.headers.get('Location')).toBe('/square-location-selection');
    expect(await toastOf(res)).toMatchObject({ title: 'Square Integration Detected', type: 'success' });
    const stored = await row(owner.id);
    expect(stored.square_merchant_id).toBe('DEMO-MERCHANT');
    expect(stored.square_access_token).not.toMatch(/demo-access/);
    expect(decryptToken(stored.square_access_token!, app.root.config.TOKEN_ENCRYPTION_KEY, owner.id)).toMatch(/^demo-access-[0-9a-f]{48}$/);

    const page = await run(() => selectionPage({ request: getRequest('/square-location-selection', owner.jar), context: ctx(), params: {} }));
    expect(page.body).toMatchObject({
      locations: [
        { id: 'DEMO-MAIN-STREET', name: 'Main Street Cafe', status: 'ACTIVE', business_name: 'Demo Coffee Co.' },
        { id: 'DEMO-RIVERSIDE', name: 'Riverside Kiosk', status: 'ACTIVE' },
      ],
      currentLocationId: null,
      error: null,
    });

    // Nothing chosen: the radio is empty and the dropdown sends its placeholder.
    const nothing = await run(() => selectionAction({ request: formRequest('/square-location-selection', [['locationId', '']], owner.jar), context: ctx(), params: {} }));
    expect(nothing.status).toBe(400);
    expect(nothing.body).toMatchObject({ error: POS_MESSAGES.chooseLocation, toast: { title: 'Failed to Set Location' } });

    // A radio card chosen (the dropdown left at its placeholder).
    const chosen = await run(() =>
      selectionAction({ request: formRequest('/square-location-selection', [['locationId', 'DEMO-RIVERSIDE'], ['locationId', '']], owner.jar), context: ctx(), params: {} }),
    );
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get('Location')).toBe('/');
    expect(await toastOf(chosen)).toMatchObject({ title: 'Location Set Successfully', description: 'Gift cards are now issued from Riverside Kiosk.' });
    expect(await row(owner.id)).toMatchObject({ square_location_id: 'DEMO-RIVERSIDE', square_location_name: 'Riverside Kiosk' });

    // Both controls start at the current location; the dropdown moved: its value wins.
    const moved = await run(() =>
      selectionAction({
        request: formRequest('/square-location-selection', [['locationId', 'DEMO-RIVERSIDE'], ['locationId', 'DEMO-MAIN-STREET']], owner.jar),
        context: ctx(),
        params: {},
      }),
    );
    expect(moved.status).toBe(302);
    expect((await row(owner.id)).square_location_id).toBe('DEMO-MAIN-STREET');

    // Two different new choices, or an id that is not the merchant's: refused, nothing changes.
    for (const [values, message] of [
      [['DEMO-RIVERSIDE', 'SOMEWHERE-ELSE'], CONFLICTING_CHOICE],
      [['SOMEWHERE-ELSE'], POS_MESSAGES.locationNotFound],
    ] as const) {
      const bad = await run(() =>
        selectionAction({ request: formRequest('/square-location-selection', values.map((v) => ['locationId', v] as [string, string]), owner.jar), context: ctx(), params: {} }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: message });
      expect((await row(owner.id)).square_location_id).toBe('DEMO-MAIN-STREET');
    }
    const status = await run(() => squareStatus({ request: getRequest('/api/square/status', owner.jar), context: ctx(), params: {} }));
    expect(status.body).toEqual({ isConnected: true });
  });

  it('Deny comes back as a declined connection; a demo code works once', async () => {
    const owner = await signedInOwner(app);
    const denied = await demoConnect(owner.jar, 'deny');
    expect(await toastOf(denied.res)).toEqual({ title: 'Square connection failed', description: POS_MESSAGES.denied, type: 'error' });
    expect((await row(owner.id)).square_access_token).toBeNull();

    const ok = await demoConnect(owner.jar);
    const saved = await row(owner.id);
    const code = new URL(ok.back, 'http://x').searchParams.get('code')!;
    const again = await run(() => squareAuth({ request: getRequest('/api/square/auth', owner.jar), context: ctx(), params: {} }));
    const state = new URL(again.headers.get('Location')!, 'http://x').searchParams.get('state')!;
    const replay = await run(() => squareCallback({ request: getRequest(`/api/square/callback?${new URLSearchParams({ code, state })}`, owner.jar), context: ctx(), params: {} }));
    expect(await toastOf(replay)).toMatchObject({ title: 'Square connection failed', description: POS_MESSAGES.codeRejected });
    expect(await row(owner.id)).toEqual(saved);
  });

  it("makes the owner's published survey Available to customers once Square is connected", async () => {
    const owner = await signedInOwner(app);
    const { id: surveyId } = await createSurvey(app, owner.jar);
    await startTrialForTest(app, { jar: owner.jar });
    await publishForTest(app, owner.jar, surveyId);
    const fetchSurvey = () =>
      run(() => publicSurveyApi({ request: getRequest(`/api/survey/public/${owner.id}/${surveyId}`), context: ctx(), params: { businessId: owner.id, surveyId } }));
    expect((await fetchSurvey()).status).toBe(404);
    await demoConnect(owner.jar);
    const live = await fetchSurvey();
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ config: { title: 'Spring feedback' } });
  });

  it('runs pos-token-refresh from the queue on its daily schedule', async () => {
    const jobs = app.root.jobs!;
    await registerPosTokenRefresh(jobs, { em: app.root.db.orm.em, connector: app.root.pos, keyBase64: app.root.config.TOKEN_ENCRYPTION_KEY, logger: app.root.logger });
    const conn = app.root.db.orm.em.getConnection();
    const schedules = await conn.execute(`select name, cron, timezone from pgboss.schedule where name = 'pos-token-refresh'`);
    expect(schedules).toEqual([{ name: 'pos-token-refresh', cron: POS_TOKEN_REFRESH_CRON, timezone: 'UTC' }]);

    const owner = await signedInOwner(app);
    await demoConnect(owner.jar);
    await conn.execute(`update businesses set square_token_expires_at = now() + interval '2 days' where id = ?`, [owner.id]);
    const before = await row(owner.id);
    await jobs.send('pos-token-refresh', {});
    const deadline = Date.now() + 20_000;
    let after = before;
    while (Date.now() < deadline) {
      after = await row(owner.id);
      if (after.square_access_token !== before.square_access_token) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(after.square_access_token).not.toBe(before.square_access_token);
    expect(new Date(after.square_token_expires_at!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(decryptToken(after.square_refresh_token!, app.root.config.TOKEN_ENCRYPTION_KEY, owner.id)).toBe(
      decryptToken(before.square_refresh_token!, app.root.config.TOKEN_ENCRYPTION_KEY, owner.id),
    );
  });
});
