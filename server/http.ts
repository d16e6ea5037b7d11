import { loggablePath } from '../modules/shared/index.ts';
import { createLifecycle, readinessCheck, type Lifecycle } from './lifecycle.ts';
import { createMetrics } from './metrics.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import expressStaticGzip from 'express-static-gzip';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../modules/uploads/index.ts';
import { createRequestContext } from './request-scope.ts';
import type { Root } from './root.ts';
import { customerLocale, escapeHtml, plainPage, wantsPage } from './plain-page.ts';
import { outageAnswers } from './outage.ts';
import { translatorFor } from '../modules/i18n/server.ts';

type BuildSource = ServerBuild | (() => Promise<ServerBuild>);

export type HttpOptions = {
  build: BuildSource;
  /** Vite's dev middleware (development only). */
  devMiddleware?: express.RequestHandler;
  /** Folder of built browser assets (production). */
  clientDir?: string;
  /** Draining on SIGTERM (server/index.ts); a fresh, never-draining one when absent (tests). */
  lifecycle?: Lifecycle;
};

/**
 * The survey island's script URL, written by scripts/build-island.ts next to the client build, its
 * i18next translator chunk (preloaded for a language other than English, ADR 084) and the text of the
 * survey page's own stylesheet, read once here and inlined in every survey page (ADR 092); nulls without one.
 */
function surveyIslandAssets(clientDir: string | undefined): { file: string | null; translator: string | null; css: string | null } {
  const none = { file: null, translator: null, css: null };
  if (!clientDir) return none;
  try {
    const { file, translator, css } = JSON.parse(readFileSync(path.join(clientDir, '..', 'survey-island.json'), 'utf8')) as { file?: unknown; translator?: unknown; css?: unknown };
    const asset = (value: unknown) => (typeof value === 'string' && /^\/assets\/[\w.-]+$/.test(value) ? value : null);
    if (!asset(file)) return none;
    const cssPath = asset(css);
    return { file: asset(file), translator: asset(translator), css: cssPath ? readFileSync(path.join(clientDir, cssPath), 'utf8') : null };
  } catch {
    return none;
  }
}

/**
 * Content-Security-Policy with a per-response nonce; no third-party origins unless Google sign-in is
 * on, or on the checkout page with BILLING=stripe (Stripe.js and its Elements frames, only there).
 */
export function contentSecurityPolicy(nonce: string, root: Root, dev: boolean, pathname = '/'): string {
  const google = root.config.GOOGLE_CLIENT_ID ? ' https://accounts.google.com' : '';
  const stripe = root.config.BILLING === 'stripe' && /^\/stripe-checkout\/?$/.test(pathname);
  return [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${stripe ? ' https://js.stripe.com' : ''}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:${stripe ? ' https://*.stripe.com' : ''}`,
    `font-src 'self'`,
    `connect-src 'self'${stripe ? ' https://api.stripe.com' : ''}${dev ? ' ws://localhost:* ws://127.0.0.1:*' : ''}`,
    ...(stripe ? [`frame-src https://js.stripe.com https://hooks.stripe.com`] : []),
    `form-action 'self'${google}${stripe ? ' https://hooks.stripe.com' : ''}`,
    `frame-ancestors 'none'`,
    `base-uri 'self'`,
    `object-src 'none'`,
  ].join('; ');
}

/** The host Remix compares the Origin with: the first X-Forwarded-Host, else Host. */
function remixHost(req: Request): string | undefined {
  const forwarded = req.headers['x-forwarded-host'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || req.headers.host;
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return Boolean(host) && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * Paths whose POSTs may carry an image: the two verify endpoints, the customer survey pages
 * (/survey/public/..., /survey/dynamic/..., /survey/...), whose no-JavaScript form posts send files,
 * and the owner's /brand page (a logo).
 * Not /survey-builder and the other owner pages: those are `/survey-`, not `/survey/`.
 */
export function carriesUpload(pathname: string): boolean {
  return /^\/api\/verify-(screenshot|social)\/?$/.test(pathname) || /^\/survey\/./.test(pathname) || /^\/brand\/?$/.test(pathname);
}

/** The paths whose uploads are a customer's screenshot: the verify endpoints and the survey pages (not /brand's logo). */
function carriesScreenshot(pathname: string): boolean {
  return carriesUpload(pathname) && !/^\/brand\/?$/.test(pathname);
}


/**
 * The 413 page of a browser form post over the body limit (the survey without JavaScript, a screenshot
 * of 15 MB): plain words and a link back to the page (a GET of the same address), in the plain style
 * of the rate limit's page. The body is never read.
 */
function tooLargePage(req: Request, limitBytes: number, screenshot: boolean): string {
  // A customer's screenshot: in the survey's language (ADR 084: ?lang=, the cookie, Accept-Language); other pages are the owner's, English.
  const locale = screenshot ? customerLocale(req) : 'en';
  const { t } = translatorFor(locale);
  const text = (words: string) => words.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const title = text(t(screenshot ? 'Your screenshot is too large' : 'What you sent is too large'));
  const message = screenshot
    ? t('Each screenshot can be at most {{mb}} MB. Please go back and choose a smaller screenshot: a screenshot taken on your phone is usually much smaller.', { mb: Math.round(MAX_UPLOAD_BYTES / (1024 * 1024)) })
    : `This page accepts at most ${Math.round(limitBytes / 1000)} KB. Please go back and send less.`;
  // The same address, read again by a GET; never another site ('//host' is not a path of this one).
  const back = req.originalUrl.startsWith('/') && !req.originalUrl.startsWith('//') ? req.originalUrl : '/';
  return plainPage(
    title,
    title,
    `<p>${text(message)}</p>` +
      `<p><a href="${escapeHtml(back)}" style="display:inline-block;padding:0.75rem 1rem;min-height:44px;box-sizing:border-box">${text(t(screenshot ? 'Go back to the survey' : 'Go back to the page'))}</a></p>` +
      `<p>${text(t("Your browser's Back button may keep the answers you typed."))}</p>`,
    locale,
  );
}

/** A caller's X-Request-Id we keep: 1-128 letters, digits and `. _ : -` (nothing that could forge a log line). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the X-Request-Id header when it is a sane token, else a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The Express app: security headers, body limits, request logs, /healthz, static assets, then Remix. */
export function createHttpApp(root: Root, options: HttpOptions) {
  const app = express();
  const dev = Boolean(options.devMiddleware);
  const { logger } = root;
  const lifecycle = options.lifecycle ?? createLifecycle();
  app.disable('x-powered-by');
  const trust = root.config.TRUST_PROXY;
  app.set('trust proxy', /^\d+$/.test(trust) ? Number(trust) : trust === 'true' ? true : trust === 'false' ? false : trust);

  const metrics = createMetrics(root);
  app.use(metrics.middleware);

  // Draining: every answer closes its connection, so keep-alive clients move to another instance;
  // also the answer of a request that arrived before the SIGTERM (decided when its headers go out).
  app.use((_req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (lifecycle.draining && !this.headersSent) this.setHeader('Connection', 'close');
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as typeof res.writeHead;
    next();
  });

  // The request id: the caller's X-Request-Id when it is a sane token (a proxy's), else a new UUID. It
  // is on the response and, through a child logger, on every line this request logs (the request
  // line, the Remix context's logger and the services built for the request).
  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.headers['x-request-id']);
    const log = root.logger.child({ requestId });
    res.locals.requestId = requestId;
    res.locals.log = log;
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path without its query: queries may carry tokens. A 5xx is a fault of ours: error level;
      // a 4xx is the caller's, and as ordinary as a 2xx here.
      const line = { method: req.method, path: loggablePath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (res.statusCode >= 500) log.error(line, 'request');
      else log.info(line, 'request');
    });
    next();
  });

  app.use((req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    res.setHeader('Content-Security-Policy', contentSecurityPolicy(nonce, root, dev, req.path));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (root.config.NODE_ENV === 'production') res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  });

  // Bodies over the limit are refused before anything reads them. Requests that carry a screenshot
  // get the larger UPLOAD_BODY_LIMIT_BYTES.
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const limit = req.method === 'POST' && carriesUpload(req.path) ? root.config.UPLOAD_BODY_LIMIT_BYTES : root.config.BODY_LIMIT_BYTES;
    const length = req.headers['content-length'];
    const tooLarge = () => {
      // Over the limit of a screenshot's request, the screenshot is what is too large: the customer's words.
      const screenshot = req.method === 'POST' && carriesScreenshot(req.path);
      if (wantsPage(req)) {
        res.status(413).type('text/html').send(tooLargePage(req, limit, screenshot));
        return;
      }
      const message = screenshot ? UPLOAD_MESSAGES.tooLarge : `Request body too large: the limit is ${Math.round(limit / 1000)} KB.`;
      res.status(413).type('application/json').send({ message });
    };
    if (length !== undefined && Number(length) > limit) return tooLarge();
    if (length === undefined && req.headers['transfer-encoding']) {
      res.status(411).type('application/json').send({ message: 'A Content-Length header is required.' });
      return;
    }
    next();
  });

  // A path that does not decode (`/api/survey/config/%E0%A4%A`) or decodes to U+0000 is refused
  // here, before Remix decodes it for route params; so is a query with U+0000. (UTF-8 decoding never
  // yields a lone surrogate.) Text in bodies is checked by the readers in app/utils/input.server.ts.
  app.use((req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      res.status(400).type('application/json').send({ message: 'The address is not valid: a percent-escape in the path is malformed.' });
      return;
    }
    const query = req.originalUrl.indexOf('?');
    const nul = path.includes('\u0000') || (query >= 0 && [...new URLSearchParams(req.originalUrl.slice(query + 1))].some(([k, v]) => `${k}${v}`.includes('\u0000')));
    if (nul) {
      res.status(400).type('application/json').send({ message: 'The address contains a character that cannot be stored (U+0000).' });
      return;
    }
    next();
  });

  // Rate limits by request class, per client address and device, shared through the database (ADR 032).
  if (root.edgeLimiter) {
    const edge = root.edgeLimiter;
    app.use((req, res, next) => edge.middleware(req, res, next));
  }

  // A body the route never read (logout, the Google start, a refused post) must not hold up the next
  // request on the same keep-alive connection: such a response closes the connection, and whatever
  // is left of the body is discarded.
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    // Node writes every response's head through writeHead (also the implicit one of write/end).
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      if (!req.complete && !this.headersSent) this.setHeader('Connection', 'close');
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    res.on('finish', () => {
      if (!req.complete) req.resume();
    });
    next();
  });

  // Cross-site form posts carry the attacker's Origin: refused, on top of SameSite=Lax cookies. The
  // rule is Remix's own (the Origin's host must be X-Forwarded-Host, else Host), so a post Remix
  // would refuse with a 500 is a 403 here. `Origin: null` (sandboxed frames, data: URLs, some
  // redirects) is foreign.
  app.use((req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const origin = req.headers.origin;
    if (origin === undefined || sameHost(origin, remixHost(req))) return next();
    res.status(403).type('application/json').send({ message: 'Cross-site requests are not allowed.' });
  });

  // Liveness: the process answers (no database call: a database outage must not get every instance
  // restarted). Readiness: whether to send this instance traffic (server/lifecycle.ts).
  app.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.get('/metrics', (req, res) => void metrics.handler(req, res));
  const ready = readinessCheck(root, lifecycle);
  app.get('/readyz', async (_req, res) => {
    const result = await ready();
    const log = (res.locals.log as Logger | undefined) ?? logger;
    if (result.ready) {
      res.status(200).json({ status: 'ready', checks: result.checks });
      return;
    }
    if (!lifecycle.draining) log.warn({ checks: result.checks }, 'readiness check failed');
    res.status(503).json({ status: lifecycle.draining ? 'draining' : 'unavailable', message: result.message, checks: result.checks });
  });

  // Brotli at its default quality 11 costs several times gzip's CPU per page; quality 4 compresses
  // about as well as gzip at a similar cost.
  app.use(compression({ brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }));
  if (options.devMiddleware) {
    app.use(options.devMiddleware);
  } else if (options.clientDir) {
    // Assets go out as the build compressed them (Brotli 11 or gzip 9, scripts/precompress.ts), chosen
    // by the browser's Accept-Encoding; compression() leaves a response that has its encoding alone.
    app.use(
      '/assets',
      expressStaticGzip(path.join(options.clientDir, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: { immutable: true, maxAge: '1y', redirect: false },
      }),
    );
    // Only paths that name a file (favicon.svg, robots.txt) can be static: pages skip the disk lookup.
    const publicFiles = express.static(options.clientDir, { maxAge: '1h', index: false, redirect: false });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
  }

  const surveyIsland = surveyIslandAssets(options.devMiddleware ? undefined : options.clientDir);
  // A page or an API call that failed because the database is down answers 503 "try again shortly".
  app.use(
    outageAnswers({
      databaseAnswers: () =>
        Promise.race([
          root.db.orm.em.getConnection().execute('select 1').then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
        ]),
      page: (_req, message) => plainPage('Back in a moment', 'Back in a moment', `<p>${escapeHtml(message)}</p>`),
      wantsPage,
    }),
  );
  app.all(
    '*',
    createRequestHandler({
      build: options.build,
      mode: root.config.NODE_ENV === 'production' ? 'production' : 'development',
      getLoadContext: (req, res) =>
        createRequestContext(root, {
          cspNonce: String(res.locals.cspNonce ?? ''),
          clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
          surveyIsland: surveyIsland.file,
          surveyIslandTranslator: surveyIsland.translator,
          surveyIslandCss: surveyIsland.css,
          requestId: String(res.locals.requestId),
          logger: res.locals.log as Logger,
        }),
    }),
  );

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    ((res.locals.log as Logger | undefined) ?? logger).error({ err: error }, 'unhandled server error');
    if (!res.headersSent) res.status(500).type('text/plain').send('Something went wrong. Please try again in a moment.');
  });
  return app;
}
