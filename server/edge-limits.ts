import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import pg from 'pg';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyAttemptsMessage, waitAmount } from '../modules/accounts/index.ts';
import { DEVICE_COOKIE, deviceIdFromCookies } from '../modules/responses/index.ts';
import { translatorFor } from '../modules/i18n/server.ts';
import { customerLocale, escapeHtml, plainPage, wantsPage } from './plain-page.ts';

/**
 * The 429 page a browser reads: on a survey page (a customer's, `/survey/…` or a short link `/s/…`)
 * in the customer's language (ADR 084: `?lang=`, the cookie, Accept-Language); elsewhere in English.
 */
function waitPage(req: Request, waitSeconds: number): string {
  const locale = /^\/(survey|s)\//.test(req.path) ? customerLocale(req) : 'en';
  const { t } = translatorFor(locale);
  const text = escapeHtml;
  const { count, unit } = waitAmount(waitSeconds);
  const message = t(unit === 'seconds' ? 'Too many attempts. Please wait {{count}} seconds and try again.' : 'Too many attempts. Please wait {{count}} minutes and try again.', { count });
  return plainPage(
    text(t('Please wait')),
    text(t('Please wait a moment')),
    `<p>${text(message)}</p><p>${text(t('Your answers are not lost: go back and send them again after the wait.'))}</p>`,
    locale,
  );
}

/**
 * One rate-limit policy at the edge (issue 14, ADR 032): every request is put in a class by its
 * method and path, whatever route serves it (the HTML pages and the JSON API alike), and counted
 * per client address and per device (a first-party cookie) in PostgreSQL, so every app instance on
 * one database shares the counts. Ceilings are set so a busy cafe's customers on one Wi-Fi (one
 * address) never meet them, while one device hammering a form does.
 *
 * Route-level rules that protect an account rather than the server (sign-in delays per account,
 * sign-ups and reset emails per address, ADR 021 and 031) stay with their routes.
 */
export type LimitClass = 'auth' | 'upload' | 'submit' | 'lookup' | 'public';

export type ClassPolicy = { perIp: number; perDevice: number; windowSeconds: number };

export const EDGE_POLICY: Record<LimitClass, ClassPolicy> = {
  // Owners signing in, up, or resetting: few per person; a shared office still fits.
  auth: { perIp: 100, perDevice: 30, windowSeconds: 15 * 60 },
  // Screenshot checks: each is OCR work. A customer uploads a handful; 50 tables at lunch stay far below.
  upload: { perIp: 600, perDevice: 40, windowSeconds: 10 * 60 },
  // Survey submissions and the no-JavaScript section posts (about 3 per survey).
  submit: { perIp: 600, perDevice: 60, windowSeconds: 10 * 60 },
  // The email eligibility check: it tells whether an address answered lately, so a device gets few.
  lookup: { perIp: 600, perDevice: 60, windowSeconds: 10 * 60 },
  // Opening surveys.
  public: { perIp: 3000, perDevice: 600, windowSeconds: 10 * 60 },
};

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The class of a request, or null for requests the edge does not count (owner pages, assets, webhooks). */
export function limitClass(method: string, pathname: string): LimitClass | null {
  const write = WRITE.has(method);
  if (
    write &&
    /^\/(auth|forgot-password|reset-password\/[^/]+|api\/auth\/(login|signup|google)|auth\/google(\/callback)?|trial-signup|api\/create-subscription(-existing)?|api\/subscription-complete|api\/billing\/fake\/confirm-setup|stripe-checkout)\/?$/.test(pathname)
  ) {
    return 'auth';
  }
  if (write && /^\/api\/verify-(screenshot|social)\/?$/.test(pathname)) return 'upload';
  if (write && (/^\/api\/survey\/(submit|dynamic\/submit)\//.test(pathname) || /^\/survey\/./.test(pathname))) return 'submit';
  if (write && /^\/api\/survey\/check-email-eligibility\//.test(pathname)) return 'lookup';
  // The customer page's funnel beacon (ADR 026): a few per visit, counted like opening the page.
  if (write && /^\/api\/survey\/progress\//.test(pathname)) return 'public';
  // Opening a survey, by its page, its JSON, or its short link (/s/{code}, ADR 082: guessing codes is counted here).
  if (!write && (/^\/survey\/./.test(pathname) || /^\/api\/survey\/(public|dynamic)\//.test(pathname) || /^\/s\/./.test(pathname))) return 'public';
  return null;
}

export { DEVICE_COOKIE };

const deviceIdOf = (req: Request) => deviceIdFromCookies(req.headers.cookie);

export type EdgeLimiter = {
  middleware(req: Request, res: Response, next: NextFunction): void;
  close(): Promise<void>;
};

/**
 * The limiter over the app's database (`databaseUrl`): two counters per class (address, device),
 * each with an in-memory stand-in used while the database does not answer, so an outage of the
 * counters never takes the site down.
 */
export function createEdgeLimiter(options: { databaseUrl: string; logger: Logger; secureCookie: boolean; policy?: Record<LimitClass, ClassPolicy> }): EdgeLimiter {
  const policy = options.policy ?? EDGE_POLICY;
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 3 });
  pool.on('error', (err) => options.logger.warn({ err }, 'edge rate limiter: database connection error'));
  const limiter = (cls: LimitClass, by: 'ip' | 'device') => {
    const { windowSeconds } = policy[cls];
    const points = by === 'ip' ? policy[cls].perIp : policy[cls].perDevice;
    return new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      schemaName: 'edge',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: `${cls}:${by}`,
      points,
      duration: windowSeconds,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${cls}:${by}`, points, duration: windowSeconds }),
    });
  };
  const limiters = Object.fromEntries(
    (Object.keys(policy) as LimitClass[]).map((cls) => [cls, { ip: limiter(cls, 'ip'), device: limiter(cls, 'device') }]),
  ) as Record<LimitClass, { ip: RateLimiterPostgres; device: RateLimiterPostgres }>;

  async function consume(cls: LimitClass, ip: string, device: string | null): Promise<number> {
    const attempts = [limiters[cls].ip.consume(ip)];
    if (device) attempts.push(limiters[cls].device.consume(device));
    const settled = await Promise.allSettled(attempts);
    let wait = 0;
    for (const result of settled) {
      if (result.status === 'fulfilled') continue;
      if (result.reason instanceof RateLimiterRes) wait = Math.max(wait, Math.ceil(result.reason.msBeforeNext / 1000));
      else options.logger.warn({ err: result.reason }, 'edge rate limiter failed; request allowed');
    }
    return wait;
  }

  return {
    middleware(req, res, next) {
      const cls = limitClass(req.method, req.path);
      if (!cls) return next();
      let device = deviceIdOf(req);
      if (!device) {
        device = randomBytes(16).toString('base64url');
        // A first-party, anonymous id: it counts this browser's requests and nothing else.
        res.append(
          'Set-Cookie',
          `${DEVICE_COOKIE}=${device}; Path=/; Max-Age=${365 * 24 * 60 * 60}; HttpOnly; SameSite=Lax${options.secureCookie ? '; Secure' : ''}`,
        );
      }
      // The request's logger (with its request id, server/http.ts) when there is one.
      const log = (res.locals.log as Logger | undefined) ?? options.logger;
      consume(cls, req.ip ?? 'unknown', device).then(
        (wait) => {
          if (wait <= 0) return next();
          log.info({ class: cls, path: req.path, wait }, 'rate limited at the edge');
          res.setHeader('Retry-After', String(wait));
          const message = tooManyAttemptsMessage(wait);
          if (!wantsPage(req)) {
            res.status(429).type('application/json').send({ message });
            return;
          }
          res.status(429).type('text/html').send(waitPage(req, wait));
        },
        (err: unknown) => {
          log.warn({ err }, 'edge rate limiter failed; request allowed');
          next();
        },
      );
    },
    async close() {
      await pool.end();
    },
  };
}
