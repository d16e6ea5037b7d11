import { createCookie, createSessionStorage, type AppLoadContext, type Cookie, type SessionStorage } from '@remix-run/node';
import type { SessionStore } from '../../modules/accounts/server.ts';

export const SESSION_COOKIE = 'rl_session';

const storages = new WeakMap<SessionStore, { storage: SessionStorage; cookie: Cookie }>();

function sessionParts(context: AppLoadContext) {
  let parts = storages.get(context.sessions);
  if (!parts) {
    const store = context.sessions;
    const cookie = createCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'lax',
      secure: context.config.production,
      path: '/',
      secrets: [context.config.sessionSecret],
    });
    const storage = createSessionStorage({
      cookie,
      createData: (data, expires) => store.create(data as Record<string, unknown>, expires),
      readData: (id) => store.read(id),
      updateData: (id, data, expires) => store.update(id, data as Record<string, unknown>, expires),
      deleteData: (id) => store.destroy(id),
    });
    parts = { storage, cookie };
    storages.set(context.sessions, parts);
  }
  return parts;
}

/** Session cookie backed by the `sessions` table: HttpOnly, SameSite=Lax, Secure in production. */
export function getSessionStorage(context: AppLoadContext): SessionStorage {
  return sessionParts(context).storage;
}

/**
 * The session id the request's signed session cookie carries (not yet looked up), or null: what
 * `getOwner` reads the owner by, in one statement with the session row (ADR 083).
 */
export async function sessionIdOf(request: Request, context: AppLoadContext): Promise<string | null> {
  const id: unknown = await sessionParts(context).cookie.parse(request.headers.get('Cookie'));
  return typeof id === 'string' && id !== '' ? id : null;
}
