import { randomUUID } from 'node:crypto';
import { createCookie, redirect, type AppLoadContext } from '@remix-run/node';
import { Authenticator, AuthorizationError } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { GoogleStrategy } from 'remix-auth-google';
import { type Business, REMEMBER_ME_TTL_MS, BAD_CREDENTIALS_MESSAGE } from '../../modules/accounts/server.ts';
import { signInSchema } from '../../modules/accounts/forms.ts';
import { getSessionStorage, sessionIdOf } from './session.server.ts';

const SESSION_KEY = 'businessId';

const authenticators = new WeakMap<object, Authenticator<Business>>();

/** remix-auth with the email/password FormStrategy; the verify step is the accounts module. */
export function getAuthenticator(context: AppLoadContext): Authenticator<Business> {
  let authenticator = authenticators.get(context.sessions);
  if (!authenticator) {
    authenticator = new Authenticator<Business>(getSessionStorage(context), { sessionKey: SESSION_KEY });
    authenticator.use(
      new FormStrategy(async ({ form, context: ctx }) => {
        const parsed = signInSchema.safeParse(Object.fromEntries(form));
        if (!parsed.success || !ctx) throw new AuthorizationError(BAD_CREDENTIALS_MESSAGE);
        const business = await ctx.accounts.signIn(parsed.data.email, parsed.data.password);
        if (!business) throw new AuthorizationError(BAD_CREDENTIALS_MESSAGE);
        return business;
      }),
      'form',
    );
    const { googleClientId, googleClientSecret, appUrl } = context.config;
    if (googleClientId && googleClientSecret) {
      authenticator.use(
        new GoogleStrategy(
          { clientID: googleClientId, clientSecret: googleClientSecret, callbackURL: new URL('/auth/google/callback', appUrl).toString() },
          async ({ profile, context: ctx }) => {
            const email = profile.emails?.[0]?.value;
            if (!ctx || !profile.id || !email) throw new AuthorizationError('Google did not share an email address.');
            const result = await ctx.accounts.signInWithGoogle({
              sub: profile.id,
              email,
              emailVerified: profile._json.email_verified === true,
              name: profile.displayName,
            });
            if (!result.ok) throw new AuthorizationError(result.message);
            return result.business;
          },
        ),
        'google',
      );
    }
    authenticators.set(context.sessions, authenticator);
  }
  return authenticator;
}

const owners = new WeakMap<AppLoadContext, Promise<Business | null>>();

/**
 * The signed-in owner, or null. Looked up once per request (the root and the route loader both ask),
 * in one statement: the session row and its business together (ADR 083).
 */
export function getOwner(request: Request, context: AppLoadContext): Promise<Business | null> {
  let owner = owners.get(context);
  if (!owner) {
    owner = (async () => {
      const sid = await sessionIdOf(request, context);
      return sid ? context.accounts.ownerBySession(sid) : null;
    })();
    owners.set(context, owner);
  }
  return owner;
}

/**
 * The owner's preview of their own survey (`bypass_square=true`, `bypassSquare: true`): it shows a
 * survey that is not available yet and saves nothing. Honoured only for the signed-in owner of that
 * business, never on a flag alone: anyone else gets the live survey (issue 9).
 */
export async function ownerPreview(request: Request, context: AppLoadContext, businessId: string, requested: unknown): Promise<boolean> {
  if (requested !== true && requested !== 'true') return false;
  const owner = await getOwner(request, context);
  return Boolean(owner && owner.id === businessId);
}

/** A browser where the owner signed in before: a signed, HttpOnly cookie naming the account (ADR 021). */
function deviceCookie(context: AppLoadContext) {
  return createCookie('rl_device', {
    httpOnly: true,
    sameSite: 'lax',
    secure: context.config.production,
    path: '/',
    maxAge: 365 * 24 * 60 * 60,
    secrets: [context.config.sessionSecret],
  });
}

/**
 * Before checking a password for `email`: the throttle key of this attempt (this browser's device
 * key when it holds a device cookie of that account, else the account's unknown-device key) and the
 * seconds it must still wait (0: go ahead).
 */
export async function signInGate(request: Request, context: AppLoadContext, email: string): Promise<{ key: string; wait: number }> {
  let device: unknown = null;
  try {
    device = await deviceCookie(context).parse(request.headers.get('Cookie'));
  } catch {
    device = null;
  }
  const d = device as { email?: unknown; id?: unknown } | null;
  const key = d && d.email === email && typeof d.id === 'string' ? `device:${d.id}` : `account:${email}`;
  return { key, wait: await context.signInThrottle.wait(key) };
}

/** After the password check: counts a failure, or clears the key and gives this browser a fresh device cookie. */
export async function signInOutcome(context: AppLoadContext, gate: { key: string }, email: string, ok: boolean, headers?: Headers): Promise<void> {
  if (!ok) {
    await context.signInThrottle.fail(gate.key);
    return;
  }
  await context.signInThrottle.succeed(gate.key);
  headers?.append('Set-Cookie', await deviceCookie(context).serialize({ email, id: randomUUID() }));
}

/** The signed-in owner; a visitor is sent to sign in and comes back to this page after. */
export async function requireOwner(request: Request, context: AppLoadContext): Promise<Business> {
  const owner = await getOwner(request, context);
  if (owner) return owner;
  const url = new URL(request.url);
  throw redirect(`/auth?returnTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/**
 * Signs the owner in on a new session id (the old one, if any, is destroyed): a persistent cookie
 * with Remember me, a browser-session cookie without. Returns the Set-Cookie headers.
 */
export async function startSession(
  request: Request,
  context: AppLoadContext,
  business: Pick<Business, 'id'>,
  options: { remember: boolean },
): Promise<Headers> {
  const storage = getSessionStorage(context);
  const headers = new Headers();
  const previous = await storage.getSession(request.headers.get('Cookie'));
  if (previous.id) await storage.destroySession(previous);
  const session = await storage.getSession();
  session.set(SESSION_KEY, business.id);
  headers.append(
    'Set-Cookie',
    await storage.commitSession(session, options.remember ? { maxAge: REMEMBER_ME_TTL_MS / 1000 } : {}),
  );
  return headers;
}

/** Destroys the session row and clears the cookie. */
export async function endSession(request: Request, context: AppLoadContext): Promise<Headers> {
  const storage = getSessionStorage(context);
  const session = await storage.getSession(request.headers.get('Cookie'));
  return new Headers({ 'Set-Cookie': await storage.destroySession(session) });
}
