import { Writable } from 'node:stream';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loader as squareAuth } from '#app/routes/api+/square.auth.ts';
import { loader as squareCallback } from '#app/routes/api+/square.callback.ts';
import { action as squareDisconnect } from '#app/routes/api+/square.disconnect.ts';
import { action as squareLocation } from '#app/routes/api+/square.location.ts';
import { loader as squareLocations } from '#app/routes/api+/square.locations.ts';
import { loader as squareStatus } from '#app/routes/api+/square.status.ts';
import { loader as userLoader } from '#app/routes/api+/auth.user.ts';
import { loader as dashboardLoader } from '#app/routes/_owner+/dashboard.tsx';
import { loader as profileLoader } from '#app/routes/_owner+/profile.tsx';
import { loader as connectPage } from '#app/routes/_owner+/square-connect.tsx';
import { action as demoConsentAction, loader as demoConsentPage } from '#app/routes/_owner+/square-connect_.demo.tsx';
import { action as selectionAction, loader as selectionPage } from '#app/routes/_owner+/square-location-selection.tsx';
import { readToast } from '#app/utils/toast.server.ts';
import { decryptToken } from '../../modules/pos/token-crypto.ts';
import { refreshExpiringTokens } from '../../modules/pos/refresh.ts';
import { POS_MESSAGES } from '../../modules/pos/service.ts';
import { createLogger } from '../../modules/shared/logger.ts';
import { createSquareMock, SQUARE_APP_ID, SQUARE_APP_SECRET, type SquareMock } from '../mocks/square.ts';
import { signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

const SQUARE_ENV = { POS: 'square', SQUARE_APPLICATION_ID: SQUARE_APP_ID, SQUARE_APPLICATION_SECRET: SQUARE_APP_SECRET, SQUARE_ENVIRONMENT: 'sandbox' };

let app: TestApp;
let square: SquareMock;
const logLines: string[] = [];
/** Every answer of every loader and action in this file, as text: checked for tokens at the end. */
const answers: string[] = [];
const server = setupServer();

beforeAll(async () => {
  square = createSquareMock();
  square.merchant('MERCHANT-A', [
    {
      id: 'LA-MAIN',
      name: 'Crumb Main Street',
      status: 'ACTIVE',
      business_name: 'Crumb & Co',
      address: { address_line_1: '1 Main St', locality: 'Portland', administrative_district_level_1: 'OR', postal_code: '97201' },
    },
    { id: 'LA-PIER', name: 'Crumb Pier Kiosk', status: 'ACTIVE', business_name: 'Crumb & Co', address: { address_line_1: 'Pier 2', address_line_2: 'Stand 4' } },
    { id: 'LA-OLD', name: 'Crumb Old Town', status: 'INACTIVE', business_name: 'Crumb & Co' },
  ]);
  square.merchant('MERCHANT-B', [{ id: 'LB-ONLY', name: 'Bean There', status: 'ACTIVE', business_name: 'Bean There LLC' }]);
  square.merchant('MERCHANT-EMPTY', [{ id: 'LE-SHUT', name: 'Closed Shop', status: 'INACTIVE' }]);
  server.use(...square.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await createTestApp(SQUARE_ENV, { logger: createLogger({ level: 'debug', destination: sink }) });
});
afterAll(async () => {
  server.close();
  await app?.close();
});

type Result = Awaited<ReturnType<typeof run>>;

/** Runs a loader/action and keeps its answer for the token grep. */
async function call(fn: () => unknown): Promise<Result> {
  const res = await run(fn);
  answers.push(`${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${typeof res.body === 'string' ? res.body : JSON.stringify(res.body)}`);
  return res;
}

async function toastOf(res: Result) {
  const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
  return (await readToast(getRequest('/', jar), app.context())).toast;
}

async function row(id: string) {
  const rows = await app.root.db.orm.em
    .getConnection()
    .execute(
      `select square_access_token, square_refresh_token, square_merchant_id, square_location_id, square_location_name, square_token_expires_at from businesses where id = ?`,
      [id],
    );
  return rows[0] as {
    square_access_token: string | null;
    square_refresh_token: string | null;
    square_merchant_id: string | null;
    square_location_id: string | null;
    square_location_name: string | null;
    square_token_expires_at: Date | null;
  };
}

const key = () => app.root.config.TOKEN_ENCRYPTION_KEY;

/** GET /api/square/auth: the state from the authorize URL. */
async function start(jar: CookieJar) {
  const res = await call(() => squareAuth({ request: getRequest('/api/square/auth', jar), context: app.context(), params: {} }));
  expect(res.status).toBe(302);
  const url = new URL(res.headers.get('Location')!);
  return { url, state: url.searchParams.get('state')! };
}

function callback(jar: CookieJar, query: Record<string, string>) {
  return call(() => squareCallback({ request: getRequest(`/api/square/callback?${new URLSearchParams(query)}`, jar), context: app.context(), params: {} }));
}

/** The whole connection: start, Square's consent (a code), the callback. */
async function connect(jar: CookieJar, merchantId: string) {
  const { state } = await start(jar);
  const code = square.issueCode(merchantId);
  const res = await callback(jar, { code, state });
  return { res, state, code };
}

describe('Square connection (SquarePos against Square mocked at the network edge)', () => {
  it('connects through OAuth, stores the tokens encrypted, chooses a location, and disconnects with a revoke', async () => {
    const owner = await signedInOwner(app);
    const before = square.requests.length;

    const { url, state } = await start(owner.jar);
    expect(url.origin + url.pathname).toBe('https://connect.squareupsandbox.com/oauth2/authorize');
    expect(url.searchParams.get('client_id')).toBe(SQUARE_APP_ID);
    expect(url.searchParams.get('scope')!.split(' ')).toEqual(['MERCHANT_PROFILE_READ', 'GIFTCARDS_READ', 'GIFTCARDS_WRITE']);
    expect(url.searchParams.get('session')).toBe('false');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/square/callback');
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(square.requests.length).toBe(before); // nothing sent to Square yet

    const code = square.issueCode('MERCHANT-A');
    const res = await callback(owner.jar, { code, state });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/square-location-selection');
    expect(await toastOf(res)).toMatchObject({ title: 'Square Integration Detected', type: 'success' });

    const [exchange] = square.callsTo('/oauth2/token').slice(-1);
    expect(exchange!.body).toEqual({
      client_id: SQUARE_APP_ID,
      client_secret: SQUARE_APP_SECRET,
      code,
      redirect_uri: 'http://localhost:3000/api/square/callback',
      grant_type: 'authorization_code',
    });
    expect(exchange!.headers['square-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(exchange!.headers.authorization).toBeUndefined();

    // At rest: AES-GCM ciphertext bound to this business, never the token.
    const grant = square.grants.at(-1)!;
    const stored = await row(owner.id);
    expect(stored.square_access_token).not.toContain(grant.accessToken);
    expect(stored.square_refresh_token).not.toContain(grant.refreshToken);
    expect(stored.square_access_token!.startsWith('v1.')).toBe(true);
    expect(decryptToken(stored.square_access_token!, key(), owner.id)).toBe(grant.accessToken);
    expect(decryptToken(stored.square_refresh_token!, key(), owner.id)).toBe(grant.refreshToken);
    expect(stored.square_merchant_id).toBe('MERCHANT-A');
    expect(stored.square_location_id).toBeNull();
    expect(new Date(stored.square_token_expires_at!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const status = await call(() => squareStatus({ request: getRequest('/api/square/status', owner.jar), context: app.context(), params: {} }));
    expect(status.body).toEqual({ isConnected: true });
    const me = await call(() => userLoader({ request: getRequest('/api/auth/user', owner.jar), context: app.context(), params: {} }));
    expect(me.body).toMatchObject({ squareConnected: true, squareLocationId: null });
    const dash = await call(() => dashboardLoader({ request: getRequest('/dashboard', owner.jar), context: app.context(), params: {} }));
    expect(dash.body).toMatchObject({ dashboard: { pos: { isConnected: true, needsLocation: true } } });

    // Locations in the spec's shape, read with the decrypted token.
    const list = await call(() => squareLocations({ request: getRequest('/api/square/locations', owner.jar), context: app.context(), params: {} }));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      locations: [
        {
          id: 'LA-MAIN',
          name: 'Crumb Main Street',
          status: 'ACTIVE',
          business_name: 'Crumb & Co',
          address: { address_line_1: '1 Main St', address_line_2: null, locality: 'Portland', administrative_district_level_1: 'OR', postal_code: '97201' },
        },
        {
          id: 'LA-PIER',
          name: 'Crumb Pier Kiosk',
          status: 'ACTIVE',
          business_name: 'Crumb & Co',
          address: { address_line_1: 'Pier 2', address_line_2: 'Stand 4', locality: null, administrative_district_level_1: null, postal_code: null },
        },
        {
          id: 'LA-OLD',
          name: 'Crumb Old Town',
          status: 'INACTIVE',
          business_name: 'Crumb & Co',
          address: { address_line_1: null, address_line_2: null, locality: null, administrative_district_level_1: null, postal_code: null },
        },
      ],
      currentLocationId: null,
      currentLocationName: null,
    });
    expect(square.callsTo('/v2/locations').at(-1)!.headers.authorization).toBe(`Bearer ${grant.accessToken}`);

    // The page offers the active ones only.
    const page = await call(() => selectionPage({ request: getRequest('/square-location-selection', owner.jar), context: app.context(), params: {} }));
    expect((page.body as { locations: Array<{ id: string }> }).locations.map((l) => l.id)).toEqual(['LA-MAIN', 'LA-PIER']);
    expect(page.body).toMatchObject({ hidden: 1, error: null });

    // Not in the list, inactive, missing: 400 and nothing stored.
    for (const [locationId, message] of [
      ['LB-ONLY', POS_MESSAGES.locationNotFound],
      ['LA-OLD', POS_MESSAGES.locationNotFound],
      ['', POS_MESSAGES.chooseLocation],
    ] as const) {
      const bad = await call(() => squareLocation({ request: jsonRequest('/api/square/location', { locationId, locationName: 'Mine' }, owner.jar), context: app.context(), params: {} }));
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ message });
      expect((await row(owner.id)).square_location_id).toBeNull();
    }

    // The name comes from Square's list, not from the body.
    const set = await call(() =>
      squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-PIER', locationName: '<script>x</script>' }, owner.jar), context: app.context(), params: {} }),
    );
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ message: 'Location Set Successfully', locationId: 'LA-PIER', locationName: 'Crumb Pier Kiosk' });
    expect(await row(owner.id)).toMatchObject({ square_location_id: 'LA-PIER', square_location_name: 'Crumb Pier Kiosk' });
    const me2 = await call(() => userLoader({ request: getRequest('/api/auth/user', owner.jar), context: app.context(), params: {} }));
    expect(me2.body).toMatchObject({ squareConnected: true, squareLocationId: 'LA-PIER' });
    const list2 = await call(() => squareLocations({ request: getRequest('/api/square/locations', owner.jar), context: app.context(), params: {} }));
    expect(list2.body).toMatchObject({ currentLocationId: 'LA-PIER', currentLocationName: 'Crumb Pier Kiosk' });
    const dash2 = await call(() => dashboardLoader({ request: getRequest('/dashboard', owner.jar), context: app.context(), params: {} }));
    expect(dash2.body).toMatchObject({ dashboard: { pos: { isConnected: true, needsLocation: false, locationName: 'Crumb Pier Kiosk' } } });

    // Disconnect: revoked at Square with the application secret, then cleared.
    const off = await call(() => squareDisconnect({ request: jsonRequest('/api/square/disconnect', {}, owner.jar), context: app.context(), params: {} }));
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ isConnected: false, message: 'Square Disconnected' });
    const revoke = square.callsTo('/oauth2/revoke').at(-1)!;
    expect(revoke.headers.authorization).toBe(`Client ${SQUARE_APP_SECRET}`);
    expect(revoke.body).toEqual({ client_id: SQUARE_APP_ID, access_token: grant.accessToken });
    expect(await row(owner.id)).toEqual({
      square_access_token: null,
      square_refresh_token: null,
      square_merchant_id: null,
      square_location_id: null,
      square_location_name: null,
      square_token_expires_at: null,
    });
    const again = await call(() => squareDisconnect({ request: jsonRequest('/api/square/disconnect', {}, owner.jar), context: app.context(), params: {} }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: POS_MESSAGES.notConnected });
  });

  it('refuses a wrong, missing, foreign or used state before anything reaches Square, and stores nothing', async () => {
    const owner = await signedInOwner(app);
    const exchanges = () => square.callsTo('/oauth2/token').length;
    const n = exchanges();

    // No connection was started in this session.
    const none = await callback(owner.jar, { code: square.issueCode('MERCHANT-A'), state: 'x'.repeat(43) });
    expect(none.headers.get('Location')).toBe('/');
    expect(await toastOf(none)).toEqual({ title: 'Square connection failed', description: POS_MESSAGES.badState, type: 'error' });

    // A forged state; then the real one no longer works either (the pending state is used up).
    const { state } = await start(owner.jar);
    const forged = await callback(owner.jar, { code: square.issueCode('MERCHANT-A'), state: state.slice(0, -1) + (state.endsWith('A') ? 'B' : 'A') });
    expect(await toastOf(forged)).toMatchObject({ title: 'Square connection failed', description: POS_MESSAGES.badState });
    const late = await callback(owner.jar, { code: square.issueCode('MERCHANT-A'), state });
    expect(await toastOf(late)).toMatchObject({ description: POS_MESSAGES.badState });

    // Missing state.
    await start(owner.jar);
    const missing = await callback(owner.jar, { code: square.issueCode('MERCHANT-A') });
    expect(await toastOf(missing)).toMatchObject({ description: POS_MESSAGES.badState });

    // Declined on Square's page.
    const declined = await start(owner.jar);
    const denied = await callback(owner.jar, { error: 'access_denied', error_description: 'user denied', state: declined.state });
    expect(await toastOf(denied)).toEqual({ title: 'Square connection failed', description: POS_MESSAGES.denied, type: 'error' });

    // Expired: the pending state is ten minutes old.
    const old = await start(owner.jar);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11 * 60 * 1000);
    let expired;
    try {
      expired = await callback(owner.jar, { code: square.issueCode('MERCHANT-A'), state: old.state });
    } finally {
      vi.useRealTimers();
    }
    expect(await toastOf(expired)).toMatchObject({ description: POS_MESSAGES.badState });

    expect(exchanges()).toBe(n);
    expect((await row(owner.id)).square_access_token).toBeNull();
    expect(logLines.some((l) => l.includes('square callback refused') && l.includes('state mismatch'))).toBe(true);
  });

  it('rejects a replayed callback and a replayed code with a clear message, leaving the connection as it was', async () => {
    const owner = await signedInOwner(app);
    const first = await connect(owner.jar, 'MERCHANT-A');
    expect(first.res.headers.get('Location')).toBe('/square-location-selection');
    const saved = await row(owner.id);

    // The same callback URL again: its state was used.
    const replay = await callback(owner.jar, { code: first.code, state: first.state });
    expect(await toastOf(replay)).toMatchObject({ title: 'Square connection failed', description: POS_MESSAGES.badState });

    // A fresh state with the old code: Square refuses the used code.
    const { state } = await start(owner.jar);
    const reused = await callback(owner.jar, { code: first.code, state });
    expect(reused.headers.get('Location')).toBe('/');
    expect(await toastOf(reused)).toEqual({ title: 'Square connection failed', description: POS_MESSAGES.codeRejected, type: 'error' });
    expect(await row(owner.id)).toEqual(saved);
  });

  it('reports Square being down during the exchange, storing nothing', async () => {
    const owner = await signedInOwner(app);
    const { state } = await start(owner.jar);
    square.failNext('/oauth2/token', 503);
    const res = await callback(owner.jar, { code: square.issueCode('MERCHANT-A'), state });
    expect(await toastOf(res)).toEqual({ title: 'Square connection failed', description: POS_MESSAGES.unavailable, type: 'error' });
    expect((await row(owner.id)).square_access_token).toBeNull();
  });

  it('keeps the location when the same merchant reconnects, clears it when another merchant connects', async () => {
    const owner = await signedInOwner(app);
    await connect(owner.jar, 'MERCHANT-A');
    await call(() => squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-MAIN' }, owner.jar), context: app.context(), params: {} }));
    const same = await connect(owner.jar, 'MERCHANT-A');
    expect(same.res.headers.get('Location')).toBe('/');
    expect((await row(owner.id)).square_location_id).toBe('LA-MAIN');
    const other = await connect(owner.jar, 'MERCHANT-B');
    expect(other.res.headers.get('Location')).toBe('/square-location-selection');
    expect(await row(owner.id)).toMatchObject({ square_merchant_id: 'MERCHANT-B', square_location_id: null, square_location_name: null });
  });

  it('shows No Active Locations for a merchant without active locations', async () => {
    const owner = await signedInOwner(app);
    await connect(owner.jar, 'MERCHANT-EMPTY');
    const page = await call(() => selectionPage({ request: getRequest('/square-location-selection', owner.jar), context: app.context(), params: {} }));
    expect(page.body).toMatchObject({ locations: [], hidden: 1, error: null });
  });

  it('still disconnects locally when the revoke fails, and logs it', async () => {
    const owner = await signedInOwner(app);
    await connect(owner.jar, 'MERCHANT-A');
    square.failNext('/oauth2/revoke', 500);
    const res = await call(() =>
      squareDisconnect({ request: formRequest('/api/square/disconnect', { returnTo: '/profile' }, owner.jar), context: app.context(), params: {} }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/profile');
    expect(await toastOf(res)).toMatchObject({ title: 'Square Disconnected', type: 'success' });
    expect((await row(owner.id)).square_access_token).toBeNull();
    expect(logLines.some((l) => l.includes('square revoke failed; disconnected locally') && l.includes(owner.id))).toBe(true);
  });

  it("keeps owners apart: nobody can finish, read, change or end another owner's connection", async () => {
    const ana = await signedInOwner(app, 'Ana Bakery');
    const ben = await signedInOwner(app, 'Ben Beans');
    const n = square.callsTo('/oauth2/token').length;

    // Ana starts; Ben's browser brings back Ana's state and code: refused in Ben's session, code not redeemed.
    const anaStart = await start(ana.jar);
    const anaCode = square.issueCode('MERCHANT-A');
    const stolen = await callback(ben.jar, { code: anaCode, state: anaStart.state });
    expect(await toastOf(stolen)).toMatchObject({ title: 'Square connection failed', description: POS_MESSAGES.badState });
    expect(square.callsTo('/oauth2/token').length).toBe(n);
    expect((await row(ben.id)).square_access_token).toBeNull();
    expect((await row(ana.id)).square_access_token).toBeNull();
    // Ana's own flow is unharmed.
    const done = await callback(ana.jar, { code: anaCode, state: anaStart.state });
    expect(done.headers.get('Location')).toBe('/square-location-selection');

    await connect(ben.jar, 'MERCHANT-B');
    await call(() => squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-MAIN' }, ana.jar), context: app.context(), params: {} }));
    const anaRow = await row(ana.id);

    // Ben cannot pick Ana's location, sees only his own, and his disconnect ends only his.
    const pick = await call(() => squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-MAIN', locationName: 'x' }, ben.jar), context: app.context(), params: {} }));
    expect(pick.status).toBe(400);
    expect(pick.body).toEqual({ message: POS_MESSAGES.locationNotFound });
    const form = await call(() => selectionAction({ request: formRequest('/square-location-selection', [['locationId', 'LA-PIER']], ben.jar), context: app.context(), params: {} }));
    expect(form.status).toBe(400);
    expect((await row(ben.id)).square_location_id).toBeNull();
    const benList = await call(() => squareLocations({ request: getRequest('/api/square/locations', ben.jar), context: app.context(), params: {} }));
    expect((benList.body as { locations: Array<{ id: string }> }).locations.map((l) => l.id)).toEqual(['LB-ONLY']);
    const benGrant = square.grants.filter((g) => g.merchantId === 'MERCHANT-B').at(-1)!;
    await call(() => squareDisconnect({ request: jsonRequest('/api/square/disconnect', {}, ben.jar), context: app.context(), params: {} }));
    expect(square.callsTo('/oauth2/revoke').at(-1)!.body).toMatchObject({ access_token: benGrant.accessToken });
    expect((await row(ben.id)).square_access_token).toBeNull();
    expect(await row(ana.id)).toEqual(anaRow);
    const anaStatus = await call(() => squareStatus({ request: getRequest('/api/square/status', ana.jar), context: app.context(), params: {} }));
    expect(anaStatus.body).toEqual({ isConnected: true });
  });

  it('requires a signed-in owner everywhere', async () => {
    const anon = new CookieJar();
    const ctx = () => app.context();
    for (const [name, fn] of [
      ['status', () => squareStatus({ request: getRequest('/api/square/status', anon), context: ctx(), params: {} })],
      ['locations', () => squareLocations({ request: getRequest('/api/square/locations', anon), context: ctx(), params: {} })],
      ['location', () => squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-MAIN' }, anon), context: ctx(), params: {} })],
      ['disconnect', () => squareDisconnect({ request: jsonRequest('/api/square/disconnect', {}, anon), context: ctx(), params: {} })],
    ] as const) {
      const res = await call(fn);
      expect(res.status, name).toBe(401);
    }
    const auth = await call(() => squareAuth({ request: getRequest('/api/square/auth', anon), context: ctx(), params: {} }));
    expect(auth.headers.get('Location')).toBe('/auth?returnTo=%2Fsquare-connect');
    const cb = await call(() => squareCallback({ request: getRequest('/api/square/callback?code=x&state=y', anon), context: ctx(), params: {} }));
    expect(cb.headers.get('Location')).toMatch(/^\/auth\?returnTo=/);
    for (const [path, fn] of [
      ['/square-connect', connectPage],
      ['/square-location-selection', selectionPage],
    ] as const) {
      const res = await call(() => fn({ request: getRequest(path, anon), context: ctx(), params: {} }));
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe(`/auth?returnTo=${encodeURIComponent(path)}`);
    }
    const formPost = await call(() => squareDisconnect({ request: formRequest('/api/square/disconnect', { returnTo: '/' }, anon), context: ctx(), params: {} }));
    expect(formPost.headers.get('Location')).toMatch(/^\/auth\?returnTo=/);
  });

  it('has no demo consent page when POS=square', async () => {
    const owner = await signedInOwner(app);
    const page = await call(() => demoConsentPage({ request: getRequest('/square-connect/demo?state=x', owner.jar), context: app.context(), params: {} }));
    expect(page.status).toBe(404);
    const allow = await call(() => demoConsentAction({ request: formRequest('/square-connect/demo', { state: 'x', intent: 'allow' }, owner.jar), context: app.context(), params: {} }));
    expect(allow.status).toBe(404);
  });

  it('renews tokens that expire within 7 days (pos-token-refresh), ends a revoked grant, retries when Square is down', async () => {
    const soon = await signedInOwner(app, 'Soon');
    const later = await signedInOwner(app, 'Later');
    const revoked = await signedInOwner(app, 'Revoked');
    const down = await signedInOwner(app, 'Down');
    for (const o of [soon, later, revoked, down]) await connect(o.jar, o === later ? 'MERCHANT-B' : 'MERCHANT-A');
    await call(() => squareLocation({ request: jsonRequest('/api/square/location', { locationId: 'LA-MAIN' }, soon.jar), context: app.context(), params: {} }));
    const conn = app.root.db.orm.em.getConnection();
    await conn.execute(`update businesses set square_token_expires_at = now() + interval '3 days' where id in (?, ?, ?)`, [soon.id, revoked.id, down.id]);
    // Revoked in Square's dashboard: that grant's refresh token no longer works.
    const revokedRefresh = decryptToken((await row(revoked.id)).square_refresh_token!, key(), revoked.id);
    square.grants.filter((g) => g.refreshToken === revokedRefresh).forEach((g) => (g.revoked = true));
    const beforeSoon = await row(soon.id);
    const beforeLater = await row(later.id);
    const beforeDown = await row(down.id);

    // The first due business in id order meets the failure: make it Down's by failing all but the others.
    const due = [soon.id, revoked.id, down.id].sort();
    const n = square.callsTo('/oauth2/token').length;
    const calls: string[] = [];
    const connector = app.root.pos;
    const failingForDown = {
      ...connector,
      id: connector.id,
      authorizeUrl: connector.authorizeUrl.bind(connector),
      exchangeCode: connector.exchangeCode.bind(connector),
      revoke: connector.revoke.bind(connector),
      listLocations: connector.listLocations.bind(connector),
      async refresh(token: string) {
        calls.push(token);
        if (token === decryptToken(beforeDown.square_refresh_token!, key(), down.id)) square.failNext('/oauth2/token', 503);
        return connector.refresh(token);
      },
    };
    const summary = await refreshExpiringTokens({ em: app.root.db.orm.em.fork(), connector: failingForDown, keyBase64: key(), logger: app.root.logger });
    expect(summary).toEqual({ due: 3, refreshed: 1, cleared: 1, skipped: 0, failed: 1 });
    expect(calls).toHaveLength(due.length);

    const refreshCalls = square.callsTo('/oauth2/token').slice(n);
    expect(refreshCalls.map((c) => c.body!.grant_type)).toEqual(['refresh_token', 'refresh_token', 'refresh_token']);
    const soonRefresh = decryptToken(beforeSoon.square_refresh_token!, key(), soon.id);
    expect(refreshCalls.find((c) => c.body!.refresh_token === soonRefresh)!.body).toEqual({
      client_id: SQUARE_APP_ID,
      client_secret: SQUARE_APP_SECRET,
      refresh_token: soonRefresh,
      grant_type: 'refresh_token',
    });

    const afterSoon = await row(soon.id);
    expect(afterSoon.square_access_token).not.toBe(beforeSoon.square_access_token);
    expect(decryptToken(afterSoon.square_access_token!, key(), soon.id)).toBe(square.grants.at(-1)!.accessToken);
    expect(new Date(afterSoon.square_token_expires_at!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(afterSoon).toMatchObject({ square_merchant_id: 'MERCHANT-A', square_location_id: 'LA-MAIN' });
    expect(await row(later.id)).toEqual(beforeLater); // 30 days left: not due
    expect(await row(down.id)).toEqual(beforeDown); // Square down: unchanged, tried again later
    expect(await row(revoked.id)).toMatchObject({ square_access_token: null, square_refresh_token: null, square_merchant_id: null });

    // The next run finds only Down due (Soon now has 30 days), and renews it.
    const second = await refreshExpiringTokens({ em: app.root.db.orm.em.fork(), connector, keyBase64: key(), logger: app.root.logger });
    expect(second).toEqual({ due: 1, refreshed: 1, cleared: 0, skipped: 0, failed: 0 });
  });

  it('never shows or logs a token: every answer of this file and every log line', async () => {
    // A last full round for this test's own answers: connect, every read, the pages, disconnect.
    const owner = await signedInOwner(app);
    await connect(owner.jar, 'MERCHANT-A');
    const ctx = () => app.context();
    await call(() => squareLocations({ request: getRequest('/api/square/locations', owner.jar), context: ctx(), params: {} }));
    await call(() => selectionAction({ request: formRequest('/square-location-selection', [['locationId', 'LA-MAIN'], ['locationId', '']], owner.jar), context: ctx(), params: {} }));
    await call(() => selectionPage({ request: getRequest('/square-location-selection', owner.jar), context: ctx(), params: {} }));
    await call(() => connectPage({ request: getRequest('/square-connect', owner.jar), context: ctx(), params: {} }));
    await call(() => profileLoader({ request: getRequest('/profile', owner.jar), context: ctx(), params: {} }));
    await call(() => dashboardLoader({ request: getRequest('/dashboard', owner.jar), context: ctx(), params: {} }));
    await call(() => userLoader({ request: getRequest('/api/auth/user', owner.jar), context: ctx(), params: {} }));
    await call(() => squareDisconnect({ request: jsonRequest('/api/square/disconnect', {}, owner.jar), context: ctx(), params: {} }));

    const tokens = square.allTokens();
    expect(tokens.length).toBeGreaterThan(20);
    expect(answers.length).toBeGreaterThan(50);
    expect(logLines.length).toBeGreaterThan(10);
    const haystack = [...answers, ...logLines].join('\n');
    for (const t of [...tokens, SQUARE_APP_SECRET]) expect(haystack.includes(t), 'a token or the secret leaked').toBe(false);
    // Nor the stored (encrypted) form.
    const stored = await app.root.db.orm.em.getConnection().execute(`select square_access_token as t from businesses where square_access_token is not null`);
    for (const { t } of stored as Array<{ t: string }>) expect(haystack.includes(t)).toBe(false);
  });
});
