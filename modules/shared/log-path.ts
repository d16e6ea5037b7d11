/**
 * Paths as they are logged (issue 25, item 8): the one-time links carry their secret in the path
 * (`/reset-password/<token>`, `/reward-confirm/<token>`, `/email-verified/<token>`,
 * `/api/verify-email/<token>`), and a log line must never hold a working link. The secret segment is
 * written as `:token`; every other path is logged as it is (the query string is never logged).
 */
const SECRET_PATHS = /^(\/(?:reset-password|reward-confirm|email-verified|api\/verify-email))\/[^/]+/;

export function loggablePath(path: string): string {
  return path.replace(SECRET_PATHS, '$1/:token');
}
