import { createCookie, createSessionStorage, type AppLoadContext, type SessionStorage } from '@remix-run/node';
import type { SessionStore } from '../../modules/accounts/server.ts';

export const SESSION_COOKIE = 'rl_session';

const storages = new WeakMap<SessionStore, SessionStorage>();

/** Session cookie backed by the `sessions` table: HttpOnly, SameSite=Lax, Secure in production. */
export function getSessionStorage(context: AppLoadContext): SessionStorage {
  let storage = storages.get(context.sessions);
  if (!storage) {
    const store = context.sessions;
    storage = createSessionStorage({
      cookie: createCookie(SESSION_COOKIE, {
        httpOnly: true,
        sameSite: 'lax',
        secure: context.config.production,
        path: '/',
        secrets: [context.config.sessionSecret],
      }),
      createData: (data, expires) => store.create(data as Record<string, unknown>, expires),
      readData: (id) => store.read(id),
      updateData: (id, data, expires) => store.update(id, data as Record<string, unknown>, expires),
      deleteData: (id) => store.destroy(id),
    });
    storages.set(context.sessions, storage);
  }
  return storage;
}
