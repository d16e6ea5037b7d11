import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import { FakeBilling } from '../adapters/billing/FakeBilling.ts';
import { StripeBilling } from '../adapters/billing/StripeBilling.ts';
import { DiskBlobStore } from '../adapters/blobstore/DiskBlobStore.ts';
import { SquareGiftCards } from '../adapters/giftcards/SquareGiftCards.ts';
import { TestGiftCards } from '../adapters/giftcards/TestGiftCards.ts';
import { PgBossJobQueue } from '../adapters/jobs/PgBossJobQueue.ts';
import { JoseGoogleIdTokenVerifier } from '../adapters/identity/JoseGoogleIdTokenVerifier.ts';
import { OutboxMailer } from '../adapters/mailer/OutboxMailer.ts';
import { DemoPos } from '../adapters/pos/DemoPos.ts';
import { SquarePos } from '../adapters/pos/SquarePos.ts';
import { SmtpMailer } from '../adapters/mailer/SmtpMailer.ts';
import { FakeScreenshotVerifier } from '../adapters/verification/FakeScreenshotVerifier.ts';
import { OcrScreenshotVerifier } from '../adapters/verification/OcrScreenshotVerifier.ts';
import { type GoogleIdTokenVerifier, RateLimiter, SignInThrottle } from '../modules/accounts/index.ts';
import { checkUsageAlerts, createBillingService, registerBillingSync, type Billing } from '../modules/billing/index.ts';
import { createAnalytics } from '../modules/analytics/index.ts';
import type { JobQueue, QueueName, QueuePolicy, WorkOptions } from '../modules/jobs/index.ts';
import { createAccounts, createSessionStore } from '../modules/accounts/server.ts';
import { createBranding } from '../modules/branding/server.ts';
import type { Mailer } from '../modules/mail/index.ts';
import type { PosConnector } from '../modules/pos/index.ts';
import { registerPosTokenRefresh, createPos } from '../modules/pos/server.ts';
import { type RewardDeps, rewardJobHandlers, createRewards } from '../modules/rewards/server.ts';
import type { GiftCards } from '../modules/rewards/index.ts';
import { createLogger } from '../modules/shared/index.ts';
import { createResponses, createDatabaseVerificationHistory, createVerifications } from '../modules/responses/server.ts';
import { createSurveys } from '../modules/surveys/server.ts';
import type { BlobStore } from '../modules/uploads/index.ts';
import type { ScreenshotVerifier, VerificationHistory } from '../modules/verification/index.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './database.ts';
import { createEdgeLimiter, type EdgeLimiter } from './edge-limits.ts';

/**
 * The one composition root: the web server, the CLI and the tests build everything from here.
 * Adapters are chosen from validated config.
 */
export type Root = {
  config: Config;
  logger: Logger;
  db: Database;
  mailer: Mailer;
  outbox: OutboxMailer | null;
  sessions: ReturnType<typeof createSessionStore>;
  rateLimiter: RateLimiter;
  /** Per-account sign-in delays, with device cookies (ADR 021). */
  signInThrottle: SignInThrottle;
  /** Present when GOOGLE_CLIENT_ID/SECRET are set. */
  googleIdTokens: GoogleIdTokenVerifier | null;
  /** The job queue (pg-boss on the same database), when started with `jobs: true`. */
  jobs: JobQueue | null;
  /** SCREENSHOT_VERIFIER: OCR (workers start on first use) or the fake; its history is the database's. */
  verifier: ScreenshotVerifier;
  /** A new verifier of the configured kind over another history (`verifications replay`); the caller closes it. */
  createVerifier(history: VerificationHistory): ScreenshotVerifier;
  /**
   * Gift card adapters (ADR 018): `square` when GIFT_CARDS=square, used for a business with a Square
   * token and location; `test` for everyone else. The reward job chooses per business.
   */
  giftCards: { square: GiftCards | null; test: GiftCards };
  /** Uploaded images: DiskBlobStore under DATA_DIR/uploads. */
  blobStore: BlobStore;
  /** POS: SquarePos (OAuth and locations through the square SDK) or DemoPos (a local consent page). */
  pos: PosConnector;
  /** The HTTP edge's rate limits, counted in this database (ADR 032); null with EDGE_RATE_LIMITS=false. */
  edgeLimiter: EdgeLimiter | null;
  /** BILLING: StripeBilling (the stripe SDK) or FakeBilling (local objects, card form and portal). */
  billing: Billing;
  close(): Promise<void>;
};

export async function createRoot(
  config: Config,
  /** `workers`: this process runs the job workers and schedules (the server); implies `jobs`. */
  options: {
    logger?: Logger;
    migrate?: boolean;
    jobs?: boolean;
    workers?: boolean;
    /** Changes to the queues' retry policies (tests retry at once). */
    jobPolicies?: Partial<Record<QueueName, Partial<QueuePolicy>>>;
    /** Replaces gift card adapters (tests: a Square adapter with a short timeout). */
    giftCards?: Partial<Root['giftCards']>;
  } = {},
): Promise<Root> {
  const logger =
    options.logger ??
    createLogger({ level: config.LOG_LEVEL, pretty: config.NODE_ENV === 'development' && process.stdout.isTTY });
  const db = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DB_POOL_MAX,
    logger,
    migrate: options.migrate ?? true,
  });
  const outbox = config.SMTP_URL ? null : new OutboxMailer({ dir: path.join(config.DATA_DIR, 'outbox'), from: config.MAIL_FROM });
  if (config.NODE_ENV === 'production' && !config.ALLOW_DEMO_ADAPTERS) {
    const demo = [
      outbox ? 'mail outbox (set SMTP_URL)' : null,
      config.BILLING === 'fake' ? 'fake billing (BILLING=fake; set the STRIPE_* variables)' : null,
      config.SCREENSHOT_VERIFIER === 'fake' ? 'fake screenshot verifier (SCREENSHOT_VERIFIER=fake)' : null,
      config.POS === 'demo' ? 'demo point of sale (POS=demo)' : null,
      config.GIFT_CARDS === 'test' ? 'test gift cards (GIFT_CARDS=test)' : null,
    ].filter(Boolean);
    if (demo.length > 0) {
      await db.close();
      throw new Error(`Demo adapters are refused in production: ${demo.join(', ')}. Configure the real ones or set ALLOW_DEMO_ADAPTERS=true.`);
    }
  }
  const mailer: Mailer = outbox ?? new SmtpMailer({ url: config.SMTP_URL!, from: config.MAIL_FROM });
  const pos: PosConnector =
    config.POS === 'square'
      ? new SquarePos({
          applicationId: config.SQUARE_APPLICATION_ID!,
          applicationSecret: config.SQUARE_APPLICATION_SECRET!,
          environment: config.SQUARE_ENVIRONMENT,
          logger,
        })
      : new DemoPos();
  const billing: Billing =
    config.BILLING === 'stripe'
      ? new StripeBilling({
          secretKey: config.STRIPE_SECRET_KEY!,
          publishableKey: config.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? null,
          prices: {
            starter: { month: config.STRIPE_PRICE_STARTER_MONTHLY!, year: config.STRIPE_PRICE_STARTER_YEARLY! },
            growth: { month: config.STRIPE_PRICE_GROWTH_MONTHLY!, year: config.STRIPE_PRICE_GROWTH_YEARLY! },
            pro: { month: config.STRIPE_PRICE_PRO_MONTHLY!, year: config.STRIPE_PRICE_PRO_YEARLY! },
          },
        })
      : new FakeBilling({
          dataDir: config.DATA_DIR,
          // Signed like Stripe's; without STRIPE_WEBHOOK_SECRET a secret derived from SESSION_SECRET.
          webhookSecret:
            config.STRIPE_WEBHOOK_SECRET ?? `whsec_${createHash('sha256').update(`rewardloop fake billing webhooks\u0000${config.SESSION_SECRET}`).digest('hex')}`,
        });
  const jobs =
    options.jobs || options.workers
      ? await PgBossJobQueue.start({ connectionString: db.url, logger, poolMax: 2, worker: options.workers ?? false, policies: options.jobPolicies })
      : null;
  if (jobs && options.workers) {
    await registerPosTokenRefresh(jobs, { em: db.orm.em, connector: pos, keyBase64: config.TOKEN_ENCRYPTION_KEY, logger });
    await registerBillingSync(jobs, { em: db.orm.em, billing, logger });
  }
  const createVerifier = (history: VerificationHistory): ScreenshotVerifier =>
    config.SCREENSHOT_VERIFIER === 'fake' ? new FakeScreenshotVerifier({ history }) : new OcrScreenshotVerifier({ history, ocrTimeoutMs: 30_000 });
  const verifier = createVerifier(createDatabaseVerificationHistory(db.orm.em));
  const blobStore = new DiskBlobStore({ root: path.join(config.DATA_DIR, 'uploads') });
  const giftCards: Root['giftCards'] = {
    square: config.GIFT_CARDS === 'square' ? new SquareGiftCards({ environment: config.SQUARE_ENVIRONMENT }) : null,
    test: new TestGiftCards(),
    ...options.giftCards,
  };
  const edgeLimiter = config.EDGE_RATE_LIMITS
    ? createEdgeLimiter({ databaseUrl: db.url, logger, secureCookie: config.NODE_ENV === 'production' })
    : null;
  const root: Root = {
    config,
    logger,
    db,
    mailer,
    outbox,
    sessions: createSessionStore(db.orm.em),
    rateLimiter: new RateLimiter(),
    signInThrottle: new SignInThrottle(),
    googleIdTokens: config.GOOGLE_CLIENT_ID ? new JoseGoogleIdTokenVerifier({ clientId: config.GOOGLE_CLIENT_ID }) : null,
    jobs,
    verifier,
    createVerifier,
    giftCards,
    blobStore,
    pos,
    edgeLimiter,
    billing,
    async close() {
      await edgeLimiter?.close();
      await jobs?.stop();
      await verifier.close();
      await mailer.close?.();
      await db.close();
    },
  };
  if (options.workers) await startRewardWorkers(root);
  return root;
}

/** What the reward jobs and `reward-cli rewards` run with: the root's database, queue, adapters and mailer. */
export function rewardDeps(root: Root): RewardDeps & { mailer: Mailer; appUrl: string } {
  if (!root.jobs) throw new Error('The rewards need the job queue: create the root with jobs: true.');
  return {
    em: root.db.orm.em,
    jobs: root.jobs,
    giftCards: root.giftCards,
    tokenKey: root.config.TOKEN_ENCRYPTION_KEY,
    logger: root.logger,
    mailer: root.mailer,
    appUrl: root.config.APP_URL,
  };
}

/**
 * Registers the `reward-issue` and `reward-email` workers (ADR 018). `createRoot` calls it when the
 * process runs workers (the server); tests call it on a root with jobs, with faster polling.
 */
export async function startRewardWorkers(root: Root, options: WorkOptions & { emailLeaseSeconds?: number } = {}): Promise<void> {
  const { emailLeaseSeconds, ...work } = options;
  const deps = rewardDeps(root);
  const handlers = rewardJobHandlers({
    ...deps,
    emailLeaseSeconds,
    // Usage against the plan: the 80% and 100% emails (modules/billing/usage.ts).
    afterIssued: (businessId) => checkUsageAlerts({ em: deps.em, mailer: deps.mailer, appUrl: deps.appUrl, logger: deps.logger }, businessId),
  });
  const jobs = root.jobs!;
  // Batches of 5 run at once (Square and SMTP round trips overlap); an idle queue is looked at every
  // second, so a reward waits at most about a second per step (bench/rewards.ts).
  const defaults: WorkOptions = { batchSize: 5, concurrency: 1, pollingIntervalSeconds: 1 };
  await jobs.work('reward-issue', handlers.issue, { ...defaults, ...work });
  await jobs.work('reward-email', handlers.email, { ...defaults, ...work });
  await jobs.work('reward-confirm-email', handlers.confirmEmail, { ...defaults, ...work });
}

/** What a loader or action sees as `context`: request-scoped services over one forked EntityManager. */
export function createRequestContext(root: Root, extra: { cspNonce: string; clientIp: string; surveyIsland?: string | null }) {
  const em = root.db.orm.em.fork();
  return {
    cspNonce: extra.cspNonce,
    clientIp: extra.clientIp,
    /** The survey page's island script (production build); null: survey pages hydrate through Remix. */
    surveyIsland: extra.surveyIsland ?? null,
    config: {
      appUrl: root.config.APP_URL,
      production: root.config.NODE_ENV === 'production',
      uploadBodyLimitBytes: root.config.UPLOAD_BODY_LIMIT_BYTES,
      sessionSecret: root.config.SESSION_SECRET,
      googleClientId: root.config.GOOGLE_CLIENT_ID ?? null,
      googleClientSecret: root.config.GOOGLE_CLIENT_SECRET ?? null,
      billing: root.billing.id,
      stripePublishableKey: root.billing.publishableKey,
      supportEmail: root.config.SUPPORT_EMAIL,
    },
    logger: root.logger,
    sessions: root.sessions,
    rateLimiter: root.rateLimiter,
    signInThrottle: root.signInThrottle,
    googleIdTokens: root.googleIdTokens,
    outbox: root.config.NODE_ENV === 'production' ? null : root.outbox,
    accounts: createAccounts({ em, mailer: root.mailer, appUrl: root.config.APP_URL, logger: root.logger }),
    surveys: createSurveys({ em }),
    responses: createResponses({ em, jobs: root.jobs, logger: root.logger }),
    verifications: createVerifications({ em, verifier: root.verifier, blobStore: root.blobStore, logger: root.logger }),
    branding: createBranding({ em, blobStore: root.blobStore, logger: root.logger }),
    billing: createBillingService({ em, billing: root.billing, mailer: root.mailer, appUrl: root.config.APP_URL, logger: root.logger }),
    /** The fake's card confirmation and portal page (BILLING=fake only). */
    fakeBilling: root.billing instanceof FakeBilling ? root.billing : null,
    /** The owner's analytics (issue 12): figures computed in SQL, every query scoped to the business id given. */
    analytics: createAnalytics({ em, blobStore: root.blobStore }),
    rewards: createRewards({
      em,
      logger: root.logger,
      appUrl: root.config.APP_URL,
      squareWebhookSignatureKey: root.config.SQUARE_WEBHOOK_SIGNATURE_KEY ?? null,
      jobs: root.jobs,
    }),
    pos: createPos({
      em,
      connector: root.pos,
      demoConsent: root.pos instanceof DemoPos ? root.pos : null,
      keyBase64: root.config.TOKEN_ENCRYPTION_KEY,
      callbackUrl: new URL('/api/square/callback', root.config.APP_URL).toString(),
      logger: root.logger,
    }),
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
