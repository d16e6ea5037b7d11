import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as loginAction, loader as loginLoader } from '#app/routes/api+/auth.login.ts';
import { action as logoutAction } from '#app/routes/api+/auth.logout.ts';
import { action as signupAction } from '#app/routes/api+/auth.signup.ts';
import { loader as userLoader } from '#app/routes/api+/auth.user.ts';
import { action as verifyAction, loader as verifyLoader } from '#app/routes/api+/verify-email.$token.ts';
import { CookieJar, getRequest, jsonRequest, run } from '../setup/http.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';
import { readOutbox } from '../setup/outbox.ts';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const signupBody = (email: string) => ({
  email,
  password: 'a long enough password',
  confirmPassword: 'a long enough password',
  displayName: 'The Corner Cafe',
  terms: true,
  surveyBuilderConfig: null,
});

describe('JSON auth API', () => {
  it('GET /api/auth/user is 401 when signed out', async () => {
    const res = await run(() => userLoader({ request: getRequest('/api/auth/user'), context: app.context(), params: {} }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not signed in.' });
  });

  it('signup -> user -> logout -> login, with the spec field names', async () => {
    const jar = new CookieJar();
    const signup = await run(() => signupAction({ request: jsonRequest('/api/auth/signup', signupBody('api@example.com')), context: app.context(), params: {} }));
    expect(signup.status).toBe(201);
    jar.take(new Response(null, { headers: signup.headers }));
    const user = await run(() => userLoader({ request: getRequest('/api/auth/user', jar), context: app.context(), params: {} }));
    expect(user.status).toBe(200);
    expect(user.body).toEqual({
      id: expect.any(String),
      displayName: 'The Corner Cafe',
      email: 'api@example.com',
      isEmailVerified: false,
      squareConnected: false,
      squareLocationId: null,
    });
    expect(JSON.stringify(user.body)).not.toMatch(/hashed|password/i);

    const out = await run(() => logoutAction({ request: jsonRequest('/api/auth/logout', {}, jar), context: app.context(), params: {} }));
    expect(out.status).toBe(200);
    const stale = await run(() => userLoader({ request: getRequest('/api/auth/user', jar), context: app.context(), params: {} }));
    expect(stale.status).toBe(401);

    const login = await run(() =>
      loginAction({ request: jsonRequest('/api/auth/login', { email: 'API@example.com', password: 'a long enough password', surveyBuilderConfig: null }), context: app.context(), params: {} }),
    );
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { email: 'api@example.com' } });
  });

  it('answers bad input with a clear message and the right 4xx', async () => {
    const cases: Array<[Request, number, RegExp]> = [
      [jsonRequest('/api/auth/login', '{"email": "a@b.c", "password": '), 400, /Malformed JSON body/],
      [jsonRequest('/api/auth/login', '[1,2]'), 400, /must be an object/],
      [new Request('http://localhost/api/auth/login', { method: 'POST', body: 'email=a', headers: { 'Content-Type': 'text/plain' } }), 415, /application\/json/],
      [jsonRequest('/api/auth/login', { email: 'nope', password: 'x' }), 400, /Invalid email address/],
      [jsonRequest('/api/auth/login', { email: 'api@example.com', password: 'wrong password' }), 401, /Invalid email or password/],
      [jsonRequest('/api/auth/login', { email: 'nobody@example.com', password: 'whatever123' }), 401, /Invalid email or password/],
    ];
    for (const [request, status, message] of cases) {
      const res = await run(() => loginAction({ request, context: app.context('10.1.1.1'), params: {} }));
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    const badSignup = await run(() =>
      signupAction({ request: jsonRequest('/api/auth/signup', { ...signupBody('x@example.com'), confirmPassword: 'other', terms: false }), context: app.context('10.1.1.2'), params: {} }),
    );
    expect(badSignup.status).toBe(400);
    expect(badSignup.body).toMatchObject({ fieldErrors: { confirmPassword: ["Passwords don't match"], terms: ['You must accept the terms'] } });
    const dupe = await run(() => signupAction({ request: jsonRequest('/api/auth/signup', signupBody('api@example.com')), context: app.context('10.1.1.2'), params: {} }));
    expect(dupe.status).toBe(409);
    const get = await run(() => loginLoader());
    expect(get.status).toBe(405);
  });

  it('verifies the owner email with the emailed token; GET only checks it', async () => {
    await run(() => signupAction({ request: jsonRequest('/api/auth/signup', signupBody('verify@example.com')), context: app.context('10.2.2.2'), params: {} }));
    const mail = (await readOutbox(app.root)).find((m) => m.to === 'verify@example.com');
    expect(mail?.subject).toBe('Confirm your RewardLoop email address');
    const token = /\/email-verified\/([\w-]+)/.exec(mail!.text)![1]!;

    const check = await run(() => verifyLoader({ request: getRequest(`/api/verify-email/${token}`), context: app.context(), params: { token } }));
    expect(check.status).toBe(200);
    expect((await app.context().accounts.byEmail('verify@example.com'))!.isEmailVerified).toBe(false);

    const post = await run(() => verifyAction({ request: jsonRequest(`/api/verify-email/${token}`, {}), context: app.context(), params: { token } }));
    expect(post.status).toBe(200);
    expect((await app.context().accounts.byEmail('verify@example.com'))!.isEmailVerified).toBe(true);

    const again = await run(() => verifyAction({ request: jsonRequest(`/api/verify-email/${token}`, {}), context: app.context(), params: { token } }));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'There was an error verifying your email. The link may have expired or been used already.' });
  });
});
