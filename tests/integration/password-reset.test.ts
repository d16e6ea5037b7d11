import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as authAction } from '#app/routes/_auth+/auth.tsx';
import { action as forgotAction, RESET_SENT_MESSAGE } from '#app/routes/_auth+/forgot-password.tsx';
import { loader as profileLoader } from '#app/routes/_owner+/profile.tsx';
import { action as resetAction, loader as resetLoader } from '#app/routes/_auth+/reset-password.$token.tsx';
import { Business } from '../../modules/accounts/entities.ts';
import { signedInOwner } from '../setup/factories.ts';
import { CookieJar, formRequest, getRequest, run } from '../setup/http.ts';
import { readOutbox, type ReadMail } from '../setup/outbox.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

// Issue 15: "Forgot password" leads to a real reset by email.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

let ip = 0;
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;

const askReset = (email: string, from = nextIp()) =>
  run(() => forgotAction({ request: formRequest('/forgot-password', { email }), context: app.context(from), params: {} }));

const resetWith = (token: string, password: string, confirmPassword = password, jar?: CookieJar) =>
  run(() => resetAction({ request: formRequest(`/reset-password/${token}`, { password, confirmPassword }, jar), context: app.context(nextIp()), params: { token } }));

const signIn = (email: string, password: string) =>
  run(() => authAction({ request: formRequest('/auth', { intent: 'signin', email, password }), context: app.context(nextIp()), params: {} }));

/** The reset emails sent to `email`, newest first, once there are `count` of them (they go out just after the answer). */
async function resetMailsTo(email: string, count = 1): Promise<ReadMail[]> {
  for (let i = 0; i < 100; i += 1) {
    const mails = (await readOutbox(app.root)).filter((m) => m.to === email && m.subject === 'Reset your RewardLoop password');
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`fewer than ${count} reset emails to ${email}`);
}
const resetMailTo = async (email: string) => (await resetMailsTo(email))[0];

function tokenOf(mail: ReadMail): string {
  const match = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no reset link in the email');
  return match[1];
}

describe('forgot password', () => {
  it('mails a link that sets a new password once, ends every session of the owner, and lets them sign in with it', async () => {
    const owner = await signedInOwner(app, 'Reset Bakery');
    const otherBrowser = await signIn(owner.email, 'sesame-street-42');
    expect(otherBrowser.status).toBe(302);
    const otherJar = new CookieJar().take(new Response(null, { headers: otherBrowser.headers }));

    const asked = await askReset(owner.email);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ sentTo: owner.email });
    const mail = await resetMailTo(owner.email);
    expect(mail?.text).toContain('expires in 1 hour');
    expect(mail?.html).toContain('Choose a new password');
    const token = tokenOf(mail!);

    // Opening the link (or a mail scanner prefetching it) spends nothing.
    expect((await run(() => resetLoader({ request: getRequest(`/reset-password/${token}`), context: app.context(), params: { token } }))).body).toEqual({ valid: true });
    expect((await run(() => resetLoader({ request: getRequest(`/reset-password/${token}`), context: app.context(), params: { token } }))).body).toEqual({ valid: true });

    const done = await resetWith(token, 'new violet harbour 7', 'new violet harbour 7', owner.jar);
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/auth');

    // Both browsers are signed out.
    for (const jar of [owner.jar, otherJar]) {
      const profile = await run(() => profileLoader({ request: getRequest('/profile', jar), context: app.context(), params: {} }));
      expect(profile.status).toBe(302);
      expect(profile.headers.get('Location')).toMatch(/^\/auth\?returnTo=/);
    }
    expect((await signIn(owner.email, 'sesame-street-42')).status).toBe(401);
    expect((await signIn(owner.email, 'new violet harbour 7')).status).toBe(302);

    // The link works once.
    const again = await resetWith(token, 'another fine password 9');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ invalidLink: true });
    expect((await signIn(owner.email, 'another fine password 9')).status).toBe(401);
  });

  it('answers an unknown address exactly as a known one, and mails nobody', async () => {
    const resetMails = async () => (await readOutbox(app.root)).filter((m) => m.subject === 'Reset your RewardLoop password');
    const before = (await resetMails()).length;
    const unknown = await askReset('nobody-here@example.com');
    const owner = await signedInOwner(app, 'Known Cafe');
    const known = await askReset(owner.email);
    expect(unknown.status).toBe(known.status);
    expect(JSON.stringify(unknown.body).replace('nobody-here@example.com', 'X')).toBe(JSON.stringify(known.body).replace(owner.email, 'X'));
    await resetMailsTo(owner.email);
    const after = await resetMails();
    expect(after.some((m) => m.to === 'nobody-here@example.com')).toBe(false);
    expect(after.length).toBe(before + 1);
    expect(RESET_SENT_MESSAGE).toContain('If an account uses this email');
  });

  it('a link older than an hour, a replaced link and a made-up token are refused', async () => {
    const owner = await signedInOwner(app, 'Old Link Deli');
    await askReset(owner.email);
    const first = tokenOf((await resetMailTo(owner.email))!);
    const em = app.root.db.orm.em.fork();
    await em.nativeUpdate(Business, { id: owner.id }, { passwordResetExpiresAt: new Date(Date.now() - 1000) });
    expect((await resetWith(first, 'new violet harbour 7')).body).toMatchObject({ invalidLink: true });

    await askReset(owner.email);
    const tokens = (await resetMailsTo(owner.email, 2)).map(tokenOf);
    const second = tokens.find((t) => t !== first)!;
    expect((await resetWith(first, 'new violet harbour 7')).body).toMatchObject({ invalidLink: true });
    expect((await run(() => resetLoader({ request: getRequest('/reset-password/x'), context: app.context(), params: { token: 'made-up-token-made-up-token' } }))).body).toEqual({ valid: false });
    expect((await resetWith(second, 'new violet harbour 7')).status).toBe(302);
  });

  it.each([
    ['short', 'short', 'password', 'Password must be at least 8 characters'],
    ['new violet harbour 7', 'different thing 7', 'confirmPassword', "Passwords don't match"],
    ['password123', 'password123', 'password', 'This password is too common'],
    ['          ', '          ', 'password', 'Password cannot be only spaces'],
  ])('refuses the new password %j with the sign-up rules and keeps the link usable', async (password, confirm, field, message) => {
    const owner = await signedInOwner(app, 'Rules Cafe');
    await askReset(owner.email);
    const token = tokenOf((await resetMailTo(owner.email))!);
    const res = await resetWith(token, password, confirm);
    expect(res.status).toBe(400);
    expect(JSON.stringify((res.body as { result: { error: Record<string, string[]> } }).result.error[field])).toContain(message);
    expect((await resetWith(token, 'new violet harbour 7')).status).toBe(302);
  });

  it('refuses the account email as the new password', async () => {
    const owner = await signedInOwner(app, 'Same Cafe');
    await askReset(owner.email);
    const token = tokenOf((await resetMailTo(owner.email))!);
    const res = await resetWith(token, owner.email.toUpperCase());
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Password must not be your email address');
  });

  it('is rate limited per address and per client, with Retry-After', async () => {
    const owner = await signedInOwner(app, 'Busy Cafe');
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await askReset(owner.email)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const fromOneIp = [];
    for (let i = 0; i < 11; i += 1) fromOneIp.push(await askReset(`someone-${i}@example.com`, '10.200.0.1'));
    expect(fromOneIp.at(-1)!.status).toBe(429);
    expect(Number(fromOneIp.at(-1)!.headers.get('Retry-After'))).toBeGreaterThan(0);
  });

  it('answers a bad email with the spec message and a 400', async () => {
    const res = await askReset('not-an-email');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Invalid email address');
  });
});
