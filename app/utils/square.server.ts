import { isFormType } from './input.server.ts';
import type { AppLoadContext } from '@remix-run/node';
import type { ConnectStateStore, PendingConnect } from '../../modules/pos/server.ts';
import { getSessionStorage } from './session.server.ts';

const KEY = 'squareConnect';

/**
 * The pending Square connection lives in the owner's server-side session row (ADR 004), never in
 * a cookie of its own: a state can only come back to the session that started it. The session id
 * does not change, so the row is updated and no cookie is sent (re-sending it would turn a
 * Remember-me cookie into a browser-session one).
 */
export function connectStateStore(request: Request, context: AppLoadContext): ConnectStateStore {
  const storage = getSessionStorage(context);
  const cookie = request.headers.get('Cookie');
  return {
    async save(pending: PendingConnect) {
      const session = await storage.getSession(cookie);
      if (!session.id) throw new Error('a Square connection needs a signed-in session');
      session.set(KEY, pending);
      await storage.commitSession(session);
    },
    async take() {
      const session = await storage.getSession(cookie);
      const pending: unknown = session.get(KEY);
      if (session.id && pending !== undefined) {
        session.unset(KEY);
        await storage.commitSession(session);
      }
      return pending ?? null;
    },
  };
}

/** A browser form post (the no-JavaScript path) rather than a JSON API call. */
export function isFormPost(request: Request): boolean {
  return isFormType(request);
}

/** Where a form post may send the owner back to: a few owner pages only. */
export function backTo(value: FormDataEntryValue | null, fallback = '/'): string {
  return typeof value === 'string' && ['/', '/dashboard', '/profile', '/square-connect'].includes(value) ? value : fallback;
}

export const CONFLICTING_CHOICE = 'The card and the list name different locations. Choose one location.';

/**
 * The location a no-JavaScript form chose. The page has radio cards and a dropdown, both named
 * `locationId`, and both start at the current location (or nothing). With JavaScript they move
 * together; without it the owner changes one of them, so the value that differs from the current
 * location is the choice. Two different new values are a conflict.
 */
export function chosenLocationId(values: FormDataEntryValue[], current: string | null): { ok: true; id: string } | { ok: false; message: string } {
  const distinct = [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()))];
  if (distinct.length === 0) return { ok: false, message: 'Please choose a location.' };
  if (distinct.length === 1) return { ok: true, id: distinct[0]! };
  const changed = distinct.filter((v) => v !== current);
  return changed.length === 1 ? { ok: true, id: changed[0]! } : { ok: false, message: CONFLICTING_CHOICE };
}
