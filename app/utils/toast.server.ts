import { createCookieSessionStorage, redirect, type AppLoadContext, type SessionStorage } from '@remix-run/node';
import { z } from 'zod';

export const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(['success', 'error', 'info']).default('info'),
});
export type Toast = z.input<typeof toastSchema>;

const storages = new WeakMap<object, SessionStorage>();

// A flash cookie holds at most one toast for the next page (spec: one visible at a time),
// signed with the session secret like the session cookie.
function toastStorage(context: AppLoadContext): SessionStorage {
  let storage = storages.get(context.sessions);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: {
        name: 'rl_toast',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: context.config.production,
        secrets: [context.config.sessionSecret],
      },
    });
    storages.set(context.sessions, storage);
  }
  return storage;
}

export async function redirectWithToast(context: AppLoadContext, url: string, toast: Toast, init: ResponseInit = {}) {
  const storage = toastStorage(context);
  const session = await storage.getSession();
  session.flash('toast', toastSchema.parse(toast));
  const headers = new Headers(init.headers);
  headers.append('Set-Cookie', await storage.commitSession(session));
  return redirect(url, { ...init, headers });
}

/** The flashed toast, with the header that clears it. */
export async function readToast(request: Request, context: AppLoadContext) {
  const storage = toastStorage(context);
  const session = await storage.getSession(request.headers.get('Cookie'));
  const parsed = toastSchema.safeParse(session.get('toast'));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: parsed.success ? { 'Set-Cookie': await storage.destroySession(session) } : null,
  };
}
