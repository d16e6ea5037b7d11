import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { providerIssues } from './providers.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const postgresUrl = z
  .string()
  .url()
  .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://');

/** Every environment variable RewardLoop reads. `.env.example` lists the same set. */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Public origin for links, QR codes, flyers and emails. Required in production; elsewhere http://localhost:{PORT}. */
    APP_URL: z.string().url().optional(),
    DATA_DIR: z.string().min(1).default('.data'),
    DATABASE_URL: postgresUrl.optional(),
    DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    SMTP_URL: z
      .string()
      .url()
      .refine((v) => /^smtps?:\/\//.test(v), 'must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().min(3).default('RewardLoop <no-reply@rewardloop.local>'),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ALLOW_DEMO_ADAPTERS: bool.default(false),
    /**
     * Billing adapter: `stripe` (the stripe SDK; needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and the
     * six STRIPE_PRICE_* ids) or `fake` (Stripe's objects kept locally, a local card form and portal;
     * refused in production unless ALLOW_DEMO_ADAPTERS). Default: `stripe` when STRIPE_SECRET_KEY is
     * set, else `fake`. `demo`, the old name, means `fake`.
     */
    BILLING: z
      .enum(['stripe', 'fake', 'demo'])
      .transform((v) => (v === 'demo' ? 'fake' : v))
      .optional(),
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_..., sk_live_... or a restricted rk_...)').optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_test_... or pk_live_...)').optional(),
    /** Verifies `Stripe-Signature` on POST /api/stripe/webhook (`whsec_...`); with BILLING=stripe the endpoint answers 503 without it. */
    STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, 'must be a webhook signing secret (whsec_...)').optional(),
    STRIPE_PRICE_STARTER_MONTHLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    STRIPE_PRICE_STARTER_YEARLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    STRIPE_PRICE_GROWTH_MONTHLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    STRIPE_PRICE_GROWTH_YEARLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    STRIPE_PRICE_PRO_MONTHLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    STRIPE_PRICE_PRO_YEARLY: z.string().regex(/^price_\w+$/, 'must be a Stripe price id (price_...)').optional(),
    /** Shown on the subscription details page as the support contact. */
    SUPPORT_EMAIL: z.email('must be an email address').default('support@rewardloop.local'),
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_000_000),
    /**
     * Body limit of the requests that carry a screenshot: POST /api/verify-screenshot and
     * /api/verify-social, and POSTs to the customer pages (/survey/...). 14 MiB holds a 10 MB image
     * as base64 in JSON (13.4 MiB) or as a multipart file, with the other fields.
     */
    UPLOAD_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(14 * 1024 * 1024),
    /**
     * Where uploaded images (screenshots, logos) live (ADR 075): `postgres` (chunked bytea in the
     * database; every instance on one DATABASE_URL sees every upload), `s3` (an S3-compatible bucket:
     * S3_BUCKET, S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE; credentials from the AWS SDK's standard
     * chain) or `disk` (DATA_DIR/uploads; one machine only). Default: `postgres` when DATABASE_URL is
     * set, else `disk` (the embedded database).
     */
    BLOB_STORE: z.enum(['postgres', 's3', 'disk'], { error: 'must be postgres, s3 or disk' }).optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL (https://s3.example.com)' }).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    /** Screenshot verifier: `ocr` (tesseract.js, offline) or `fake` (instant; refused in production unless ALLOW_DEMO_ADAPTERS). */
    SCREENSHOT_VERIFIER: z.enum(['ocr', 'fake']).default('ocr'),
    /**
     * The hosted vision verifier an owner may choose per survey (ADR 066; the `openai` SDK): its key
     * (unset: the choice is not offered and nothing is ever sent), model and endpoint.
     */
    SCREENSHOT_VISION_API_KEY: z.string().min(1).optional(),
    SCREENSHOT_VISION_MODEL: z.string().min(1).default('gpt-4o-mini'),
    SCREENSHOT_VISION_BASE_URL: z.url({ error: 'must be a URL' }).optional(),
    /**
     * Point-of-sale connector: `square` (OAuth against Square; needs SQUARE_APPLICATION_ID and
     * SQUARE_APPLICATION_SECRET) or `demo` (a local consent page and two demo locations; refused in
     * production unless ALLOW_DEMO_ADAPTERS).
     */
    POS: z.enum(['square', 'demo']).default('demo'),
    SQUARE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
    SQUARE_APPLICATION_ID: z.string().min(1).optional(),
    SQUARE_APPLICATION_SECRET: z.string().min(1).optional(),
    /** Verifies `x-square-hmacsha256-signature` on POST /api/square/webhook; the endpoint answers 503 without it. */
    SQUARE_WEBHOOK_SIGNATURE_KEY: z.string().min(1).optional(),
    /**
     * Gift cards: `square` (created and activated through the business's Square account when it has
     * one with a location; a Test card otherwise) or `test` (always Test cards). Default: `square`
     * with POS=square, else `test`.
     */
    GIFT_CARDS: z.enum(['square', 'test']).optional(),
    /**
     * AES-256-GCM key for point-of-sale tokens at rest: 32 bytes as base64 (`openssl rand -base64 32`).
     * Required in production; elsewhere derived from SESSION_SECRET.
     */
    TOKEN_ENCRYPTION_KEY: z
      .string()
      .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)')
      .optional(),
    /**
     * The edge rate limits of server/edge-limits.ts (ADR 032): per client address and device, by
     * request class, counted in PostgreSQL. `false` turns them off (load benchmarks from one address).
     */
    EDGE_RATE_LIMITS: bool.default(true),
    /**
     * Web worker processes on this machine (node:cluster, one port): a whole number from 1 to 64, or
     * `auto` for the number of cores. Each runs the app and the job workers; the embedded PostgreSQL
     * is started once, by the primary process.
     */
    WEB_CONCURRENCY: z
      .string()
      .default('1')
      .refine((v) => v === 'auto' || /^([1-9]|[1-5]\d|6[0-4])$/.test(v), 'must be a whole number from 1 to 64, or auto')
      .transform((v) => (v === 'auto' ? availableParallelism() : Number(v))),
    /** Bearer token of GET /metrics (Prometheus); unset, /metrics answers 404. At least 16 characters. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Express "trust proxy": which proxies may set X-Forwarded-For (the client IP used for rate limits). */
    TRUST_PROXY: z.string().min(1).default('loopback'),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && !c.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
    if (c.NODE_ENV === 'production' && !c.APP_URL) {
      ctx.addIssue({ code: 'custom', path: ['APP_URL'], message: 'is required in production (the public origin, e.g. https://rewards.example.com)' });
    }
    if (c.NODE_ENV === 'production' && !c.TOKEN_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['TOKEN_ENCRYPTION_KEY'], message: 'is required in production' });
    }
    if (c.GIFT_CARDS === 'square' && c.POS !== 'square') {
      ctx.addIssue({ code: 'custom', path: ['GIFT_CARDS'], message: 'square gift cards need POS=square' });
    }
    if (Boolean(c.GOOGLE_CLIENT_ID) !== Boolean(c.GOOGLE_CLIENT_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: [c.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID'],
        message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together',
      });
    }
  });

export type Config = Omit<z.output<typeof configSchema>, 'GIFT_CARDS' | 'TOKEN_ENCRYPTION_KEY' | 'APP_URL' | 'BILLING' | 'BLOB_STORE'> & {
  /** The mail adapter: `smtp` when SMTP_URL is set, else `outbox` (derived, not a variable of its own). */
  MAILER: 'smtp' | 'outbox';
  APP_URL: string;
  /** True when APP_URL was not set and follows the port the server listens on (development, tests). */
  APP_URL_FROM_PORT: boolean;
  SESSION_SECRET: string;
  BILLING: 'stripe' | 'fake';
  /** The upload store: as set, else `postgres` with DATABASE_URL and `disk` with the embedded database. */
  BLOB_STORE: 'postgres' | 's3' | 'disk';
  GIFT_CARDS: 'square' | 'test';
  /** Base64 of 32 bytes: the configured key, or outside production one derived from SESSION_SECRET. */
  TOKEN_ENCRYPTION_KEY: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; a wrong value throws a ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const invalid = (issues: Array<{ name: string; message: string }>) => {
    const lines = issues.map(({ name, message }) => {
      const value = cleaned[name];
      const shown = value === undefined || /SECRET|PASSWORD|URL/.test(name) ? '' : ` (got "${value}")`;
      return `  ${name}: ${message}${shown}`;
    });
    return new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  };
  const result = configSchema.safeParse(cleaned);
  if (!result.success) throw invalid(result.error.issues.map((i) => ({ name: String(i.path[0] ?? 'environment'), message: i.message })));
  const config = result.data;
  const dataDir = path.resolve(config.DATA_DIR);
  const sessionSecret = config.SESSION_SECRET ?? developmentSecret(dataDir);
  const loaded: Config = {
    ...config,
    MAILER: config.SMTP_URL ? 'smtp' : 'outbox',
    DATA_DIR: dataDir,
    APP_URL: config.APP_URL ?? localAppUrl(config.PORT),
    APP_URL_FROM_PORT: !config.APP_URL,
    SESSION_SECRET: sessionSecret,
    GIFT_CARDS: config.GIFT_CARDS ?? (config.POS === 'square' ? 'square' : 'test'),
    BILLING: config.BILLING ?? (config.STRIPE_SECRET_KEY ? 'stripe' : 'fake'),
    BLOB_STORE: config.BLOB_STORE ?? (config.DATABASE_URL ? 'postgres' : 'disk'),
    TOKEN_ENCRYPTION_KEY:
      config.TOKEN_ENCRYPTION_KEY ?? createHash('sha256').update(`rewardloop token key\u0000${sessionSecret}`).digest('base64'),
  };
  // The chosen adapters check their own options (POS=square needs the application's id and secret, ...).
  const adapterIssues = providerIssues(loaded);
  if (adapterIssues.length > 0) throw invalid(adapterIssues.map((i) => ({ name: i.variable, message: i.message })));
  return loaded;
}

/** The origin of a server on this machine at `port`: what share links say when APP_URL is not set. */
export function localAppUrl(port: number): string {
  return `http://localhost:${port}`;
}

/** Outside production a secret is generated once and kept under the data folder. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
