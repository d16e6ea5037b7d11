import { generateKeyPair } from 'jose';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as googleApi } from '#app/routes/api+/auth.google.ts';
import { action as startGoogle } from '#app/routes/_auth+/auth.google.tsx';
import { loader as googleCallback } from '#app/routes/_auth+/auth.google.callback.tsx';
import { action as signupAction } from '#app/routes/api+/auth.signup.ts';
import { loader as userLoader } from '#app/routes/api+/auth.user.ts';
import { createGoogleMock, GOOGLE_CLIENT_ID } from '../mocks/google.ts';
import { CookieJar, formRequest, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let google: Awaited<ReturnType<typeof createGoogleMock>>;
const server = setupServer();

beforeAll(async () => {
  google = await createGoogleMock();
  server.use(...google.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  app = await createTestApp({ GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: 'test-secret' });
});
afterAll(async () => {
  server.close();
  await app?.close();
});

const ana = { sub: 'google-ana', email: 'ana@gmail.example', email_verified: true, name: 'Ana Bakes' };

describe('POST /api/auth/google (ID token)', () => {
  it('creates the owner from a valid token and signs them in', async () => {
    const credential = await google.signIdToken(ana);
    const res = await run(() => googleApi({ request: jsonRequest('/api/auth/google', { credential }), context: app.context(), params: {} }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { email: 'ana@gmail.example', displayName: 'Ana Bakes', isEmailVerified: true }, created: true });
    const jar = new CookieJar().take(new Response(null, { headers: res.headers }));
    const me = await run(() => userLoader({ request: getRequest('/api/auth/user', jar), context: app.context(), params: {} }));
    expect(me.status).toBe(200);
    const second = await google.signIdToken(ana);
    const again = await run(() => googleApi({ request: jsonRequest('/api/auth/google', { credential: second }), context: app.context(), params: {} }));
    expect(again.body).toMatchObject({ created: false });
  });

  it('rejects a wrong audience, an expired token, a foreign signature and garbage', async () => {
    const { privateKey: otherKey } = await generateKeyPair('RS256');
    const cases: Array<[string, RegExp]> = [
      [await google.signIdToken(ana, { audience: 'someone-else' }), /not issued for RewardLoop/],
      [await google.signIdToken(ana, { issuer: 'https://evil.example' }), /not issued for RewardLoop/],
      [await google.signIdToken(ana, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }), /expired/],
      [await google.signIdToken(ana, { key: otherKey }), /could not be verified/],
      ['not.a-token', /could not be verified|not a valid token/],
    ];
    for (const [credential, message] of cases) {
      const res = await run(() => googleApi({ request: jsonRequest('/api/auth/google', { credential }), context: app.context(), params: {} }));
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    const missing = await run(() => googleApi({ request: jsonRequest('/api/auth/google', {}), context: app.context(), params: {} }));
    expect(missing.status).toBe(400);
  });

  it('does not take over a password account through an unverified Google email', async () => {
    await run(() =>
      signupAction({
        request: jsonRequest('/api/auth/signup', { email: 'owner@cafe.example', password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Cafe', terms: true }),
        context: app.context(),
        params: {},
      }),
    );
    const token = await google.signIdToken({ sub: 'google-mallory', email: 'owner@cafe.example', email_verified: false, name: 'M' });
    const res = await run(() => googleApi({ request: jsonRequest('/api/auth/google', { credential: token }), context: app.context(), params: {} }));
    expect(res.status).toBe(409);
  });

  it('is unavailable with the spec message when Google is not configured', async () => {
    const plain = await createTestApp();
    try {
      const res = await run(() => googleApi({ request: jsonRequest('/api/auth/google', { credential: 'x.y.z' }), context: plain.context(), params: {} }));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Google Sign-In unavailable – Please try again or use email/password.' });
    } finally {
      await plain.close();
    }
  });
});

describe('Google redirect sign-in (remix-auth-google)', () => {
  it('goes to Google with a state, comes back, signs in and returns to the page asked for', async () => {
    const jar = new CookieJar();
    const start = await run(() => startGoogle({ request: formRequest('/auth/google', { returnTo: '/profile' }, jar), context: app.context(), params: {} }));
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get('Location')!);
    expect(to.origin + to.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(to.searchParams.get('client_id')).toBe(GOOGLE_CLIENT_ID);
    jar.take(new Response(null, { headers: start.headers }));

    const code = google.issueCode({ sub: 'google-ben', email: 'ben@gmail.example', email_verified: true, name: 'Ben' });
    const back = await run(() =>
      googleCallback({ request: getRequest(`/auth/google/callback?code=${code}&state=${to.searchParams.get('state')}`, jar), context: app.context(), params: {} }),
    );
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe('/profile');
    jar.take(new Response(null, { headers: back.headers }));
    const me = await run(() => userLoader({ request: getRequest('/api/auth/user', jar), context: app.context(), params: {} }));
    expect(me.body).toMatchObject({ email: 'ben@gmail.example' });
  });

  it('refuses a callback whose state does not match', async () => {
    const jar = new CookieJar();
    const start = await run(() => startGoogle({ request: formRequest('/auth/google', {}, jar), context: app.context(), params: {} }));
    jar.take(new Response(null, { headers: start.headers }));
    const code = google.issueCode({ sub: 'google-eve', email: 'eve@gmail.example', email_verified: true, name: 'Eve' });
    const back = await run(() => googleCallback({ request: getRequest(`/auth/google/callback?code=${code}&state=forged`, jar), context: app.context(), params: {} }));
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe('/auth');
    expect(await app.context().accounts.byEmail('eve@gmail.example')).toBeNull();
  });
});
