/**
 * The plain pages the HTTP edge answers a browser with before Remix runs (a rate limit, a body over
 * the limit): no app shell, readable on a phone, the same look everywhere.
 */
import type { Request } from 'express';
import { pickLocale, type Locale } from '../modules/i18n/index.ts';

/** Text for HTML, quotes included (attribute values too). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A customer's language for a page the edge answers (ADR 084): `?lang=`, the cookie, Accept-Language, else English. */
export function customerLocale(req: Request): Locale {
  return pickLocale({
    query: new URL(req.originalUrl, 'http://x').searchParams.get('lang'),
    cookie: req.headers.cookie,
    acceptLanguage: req.headers['accept-language'],
  }).locale;
}

/** A browser's own form post or navigation reads the answer as a page; a fetch or an API call reads JSON. */
export function wantsPage(req: Request): boolean {
  return !req.path.startsWith('/api/') && (req.headers.accept ?? '').includes('text/html');
}

/** A whole page: `title` as the tab's title and the heading, then `body` (HTML; escape what it quotes). */
export function plainPage(title: string, heading: string, body: string, lang = 'en'): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1>${heading}</h1>${body}</body></html>`
  );
}
