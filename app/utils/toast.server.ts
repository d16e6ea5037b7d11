import { createCookieSessionStorage, redirect } from '@remix-run/node';
import { z } from 'zod';

export const toastSchema = z.object({
  title: z.string(),
  description: z.string().optional(),
  type: z.enum(['success', 'error', 'info']).default('info'),
});
export type Toast = z.input<typeof toastSchema>;

// A flash cookie holds at most one toast for the next page (spec: one visible at a time).
const toastStorage = createCookieSessionStorage({
  cookie: {
    name: 'rl_toast',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: process.env.NODE_ENV === 'production',
    secrets: ['rl-toast'],
  },
});

export async function toastCookie(toast: Toast): Promise<string> {
  const session = await toastStorage.getSession();
  session.flash('toast', toastSchema.parse(toast));
  return toastStorage.commitSession(session);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append('Set-Cookie', await toastCookie(toast));
  return redirect(url, { ...init, headers });
}

/** The flashed toast, with the header that clears it. */
export async function readToast(request: Request) {
  const session = await toastStorage.getSession(request.headers.get('Cookie'));
  const parsed = toastSchema.safeParse(session.get('toast'));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: parsed.success ? { 'Set-Cookie': await toastStorage.destroySession(session) } : null,
  };
}
