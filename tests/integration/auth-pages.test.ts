import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as authAction, loader as authLoader } from '#app/routes/_auth+/auth.tsx';
import { loader as indexLoader } from '#app/routes/_marketing+/_index.tsx';
import { loader as profileLoader } from '#app/routes/_owner+/profile.tsx';
import { action as logoutAction } from '#app/routes/_auth+/logout.tsx';
import { loader as dashboardLoader } from '#app/routes/_owner+/dashboard.tsx';
import { Session } from '../../modules/accounts/entities.ts';
import { CookieJar, formRequest, getRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const signUpFields = (email: string, extra: Record<string, string> = {}) => ({
  intent: 'signup',
  displayName: 'Crumb & Co Bakery',
  email,
  password: 'correct horse battery',
  confirmPassword: 'correct horse battery',
  terms: 'on',
  ...extra,
});

async function signUp(email: string, jar = new CookieJar(), extra: Record<string, string> = {}) {
  const res = await run(() => authAction({ request: formRequest('/auth', signUpFields(email, extra), jar), context: app.context(), params: {} }));
  jar.take(new Response(null, { headers: res.headers }));
  return { res, jar };
}

describe('sign up on /auth', () => {
  it('creates the account, starts a session and goes home with the spec toast', async () => {
    const { res, jar } = await signUp('owner1@example.com');
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/');
    expect(jar.get('rl_session')).toBeTruthy();
    const cookies = res.headers.getSetCookie().join('\n');
    expect(cookies).toMatch(/rl_session=.*HttpOnly.*SameSite=Lax/i);
    const home = await run(() => indexLoader({ request: getRequest('/', jar), context: app.context(), params: {} }));
    expect(home.body).toMatchObject({ dashboard: { displayName: 'Crumb & Co Bakery', pos: { isConnected: false }, billing: { hasActiveSubscription: false, hasActiveTrial: false } } });
  });

  it('refuses a duplicate email (any case) with a clear message and a 409', async () => {
    await signUp('dupe@example.com');
    const { res } = await signUp('DUPE@Example.com');
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).toContain('An account with this email already exists');
  });

  it.each([
    [{ displayName: '  ' }, 'displayName', 'Business name is required'],
    [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
    [{ password: 'short', confirmPassword: 'short' }, 'password', 'Password must be at least 8 characters'],
    [{ confirmPassword: 'something else' }, 'confirmPassword', "Passwords don't match"],
    [{ terms: '' }, 'terms', 'You must accept the terms'],
  ])('rejects %o with the spec message', async (override, field, message) => {
    const { res } = await signUp('valid@example.com', new CookieJar(), override);
    expect(res.status).toBe(400);
    expect((res.body as { result: { error: Record<string, string[]> } }).result.error[field]).toContain(message);
  });
});

describe('sign in on /auth', () => {
  beforeAll(async () => {
    await signUp('signin@example.com');
  });

  it('rejects a wrong password with 401 and the failure toast', async () => {
    const res = await run(() =>
      authAction({ request: formRequest('/auth', { intent: 'signin', email: 'signin@example.com', password: 'wrong password!' }), context: app.context(), params: {} }),
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ toast: { title: 'Sign in failed', description: 'Invalid email or password' } });
  });

  it('rotates the session id at login and honours Remember me', async () => {
    const jar = new CookieJar();
    const first = await run(() =>
      authAction({ request: formRequest('/auth', { intent: 'signin', email: 'signin@example.com', password: 'correct horse battery' }, jar), context: app.context(), params: {} }),
    );
    expect(first.status).toBe(302);
    expect(first.headers.getSetCookie().find((c) => c.startsWith('rl_session'))).not.toMatch(/Max-Age|Expires/i);
    jar.take(new Response(null, { headers: first.headers }));
    const firstCookie = jar.get('rl_session');

    const second = await run(() =>
      authAction({ request: formRequest('/auth', { intent: 'signin', email: 'signin@example.com', password: 'correct horse battery', remember: 'on' }, jar), context: app.context(), params: {} }),
    );
    expect(second.headers.getSetCookie().find((c) => c.startsWith('rl_session'))).toMatch(/Max-Age=2592000/);
    jar.take(new Response(null, { headers: second.headers }));
    expect(jar.get('rl_session')).not.toBe(firstCookie);
    // The old session row is gone.
    const em = app.root.db.orm.em.fork();
    expect(await em.count(Session, {})).toBeGreaterThan(0);
    const old = new CookieJar();
    old.take(new Response(null, { headers: { 'Set-Cookie': `rl_session=${firstCookie}` } }));
    const stale = await run(() => profileLoader({ request: getRequest('/profile', old), context: app.context(), params: {} }));
    expect(stale.status).toBe(302);
  });

  it('goes to a safe returnTo and ignores //evil.example', async () => {
    const ok = await run(() =>
      authAction({ request: formRequest('/auth', { intent: 'signin', email: 'signin@example.com', password: 'correct horse battery', returnTo: '/profile?tab=1' }), context: app.context(), params: {} }),
    );
    expect(ok.headers.get('Location')).toBe('/profile?tab=1');
    for (const evil of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      const res = await run(() =>
        authAction({ request: formRequest('/auth', { intent: 'signin', email: 'signin@example.com', password: 'correct horse battery', returnTo: evil }), context: app.context(), params: {} }),
      );
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe('/');
    }
  });

  it('throttles sign-in attempts per account with a 429 and a clear message (ADR 021)', async () => {
    const context = app.context('10.0.0.9');
    let last;
    for (let i = 0; i < 11; i++) {
      last = await run(() =>
        authAction({ request: formRequest('/auth', { intent: 'signin', email: 'limited@example.com', password: 'wrong password' }), context, params: {} }),
      );
    }
    expect(last!.status).toBe(429);
    expect(JSON.stringify(last!.body)).toMatch(/Too many attempts\. Please wait \d+ (seconds?|minutes?) and try again\./);
  });
});

describe('owner pages', () => {
  it('send a signed-out visitor to sign in and back to the same page', async () => {
    const res = await run(() => profileLoader({ request: getRequest('/profile'), context: app.context(), params: {} }));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/auth?returnTo=%2Fprofile');
    const auth = await run(() => authLoader({ request: getRequest('/auth?returnTo=%2Fprofile'), context: app.context(), params: {} }));
    expect(auth.body).toMatchObject({ returnTo: '/profile' });
  });

  it('/dashboard shows the sign-in screen when logged out; / shows the landing page', async () => {
    const dash = await run(() => dashboardLoader({ request: getRequest('/dashboard'), context: app.context(), params: {} }));
    expect(dash.body).toMatchObject({ dashboard: null });
    const home = await run(() => indexLoader({ request: getRequest('/'), context: app.context(), params: {} }));
    expect(home.body).toMatchObject({ dashboard: null });
  });

  it('sign out destroys the session row and clears the cookie', async () => {
    const { jar } = await signUp('leaver@example.com');
    const before = await run(() => profileLoader({ request: getRequest('/profile', jar), context: app.context(), params: {} }));
    expect(before.body).toMatchObject({ email: 'leaver@example.com' });
    const out = await run(() => logoutAction({ request: formRequest('/logout', {}, jar), context: app.context(), params: {} }));
    expect(out.status).toBe(302);
    const stale = new CookieJar();
    stale.take(new Response(null, { headers: { 'Set-Cookie': `rl_session=${jar.get('rl_session')}` } }));
    const after = await run(() => profileLoader({ request: getRequest('/profile', stale), context: app.context(), params: {} }));
    expect(after.status).toBe(302);
  });
});
