import type { Logger } from 'pino';
import { PgDemoStore } from '../adapters/demo/PgDemoStore.ts';
import { PgBossJobQueue } from '../adapters/jobs/PgBossJobQueue.ts';
import { JoseGoogleIdTokenVerifier } from '../adapters/identity/JoseGoogleIdTokenVerifier.ts';
import { VisionScreenshotVerifier } from '../adapters/verification/VisionScreenshotVerifier.ts';
import { SIGN_IN_THROTTLE, SignInThrottle } from '../modules/accounts/index.ts';
import type { QueueName, QueuePolicy } from '../modules/jobs/index.ts';
import { createSessionStore } from '../modules/accounts/server.ts';
import { createLogger } from '../modules/shared/index.ts';
import { createDatabaseVerificationHistory } from '../modules/responses/server.ts';
import type { BlobStore, BlobStoreId } from '../modules/uploads/index.ts';
import { createFunnelCounts, funnelCountsWriter } from '../modules/analytics/index.ts';
import type { ScreenshotVerifier, VerificationHistory } from '../modules/verification/index.ts';
import { ConfigError, type Config } from './config.ts';
import { openDatabase } from './database.ts';
import { createEdgeLimiter } from './edge-limits.ts';
import { build, demoAdapters, PROVIDERS, providerFor } from './providers.ts';

/**
 * A BlobStore of the given kind on this root's configuration and database, beside the configured
 * one (`reward-cli blobs migrate`); the caller closes it. A kind whose settings are missing or wrong
 * throws a ConfigError naming them.
 */
export function createBlobStore(root: Pick<Root, 'config' | 'db'>, id: Exclude<BlobStoreId, 'memory'>): BlobStore {
  const provider = providerFor(PROVIDERS.blobStore, id);
  const checked = provider.options.safeParse(root.config);
  if (!checked.success) {
    const lines = checked.error.issues.map((i) => `  ${String(i.path[0] ?? 'BLOB_STORE')}: ${i.message}`);
    throw new ConfigError(`The ${id} blob store is not configured:\n${lines.join('\n')}`);
  }
  return provider.create(checked.data, { em: root.db.orm.em });
}
import { startWorkers } from './workers.ts';
import { createInstruments, timedVerifier } from './instruments.ts';
import { createAttemptLimits } from './attempt-limits.ts';

// The root's two other parts, re-exported so that callers keep one import (ADR 055).
export { createOperatorServices, createRequestContext, createServices, type OperatorServices, type RequestContext, type Services } from './request-scope.ts';
export { rewardDeps, startRewardWorkers } from './workers.ts';
export type { Root } from './root.ts';
import type { Root } from './root.ts';

/**
 * The one composition root: the web server, the CLI and the tests build everything from here (its
 * shape: `Root`, server/root.ts).
 */
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
  if (config.NODE_ENV === 'production' && !config.ALLOW_DEMO_ADAPTERS) {
    const demo = demoAdapters(config);
    if (demo.length > 0) {
      await db.close();
      throw new Error(`Demo adapters are refused in production: ${demo.join(', ')}. Configure the real ones or set ALLOW_DEMO_ADAPTERS=true.`);
    }
  }
  // Every adapter by the id its variable names (the options were checked by loadConfig).
  // The demo adapters' objects, in the database every instance shares (ADR 073).
  const demoStore = new PgDemoStore({ databaseUrl: db.url, onIdleError: (err) => logger.warn({ err }, 'demo store: database connection error') });
  const mailer = build(providerFor(PROVIDERS.mailer, config.MAILER), config, { demoStore });
  const billing = build(providerFor(PROVIDERS.billing, config.BILLING), config, { demoStore });
  const pos = build(providerFor(PROVIDERS.pos, config.POS), config, { logger, demoStore });
  const blobStore = build(providerFor(PROVIDERS.blobStore, config.BLOB_STORE), config, { em: db.orm.em });
  const verifierProvider = providerFor(PROVIDERS.screenshotVerifier, config.SCREENSHOT_VERIFIER);
  const instruments = createInstruments();
  const createVerifier = (history: VerificationHistory): ScreenshotVerifier =>
    timedVerifier(build(verifierProvider, config, { history }), instruments.verificationSeconds);
  // GIFT_CARDS=square adds Square cards; Test cards are always there for the other businesses (giftCardProviderFor).
  const cardsProvider = providerFor(PROVIDERS.giftCards, config.GIFT_CARDS);
  const giftCards: Root['giftCards'] = {
    square: cardsProvider.id === 'test' ? null : build(cardsProvider, config),
    test: build(providerFor(PROVIDERS.giftCards, 'test'), config),
    ...options.giftCards,
  };
  const jobs =
    options.jobs || options.workers
      ? await PgBossJobQueue.start({ connectionString: db.url, logger, poolMax: 2, worker: options.workers ?? false, policies: options.jobPolicies })
      : null;
  const verifier = createVerifier(createDatabaseVerificationHistory(db.orm.em));
  const visionVerifier = config.SCREENSHOT_VISION_API_KEY
    ? timedVerifier(
        new VisionScreenshotVerifier({
          apiKey: config.SCREENSHOT_VISION_API_KEY,
          model: config.SCREENSHOT_VISION_MODEL,
          ...(config.SCREENSHOT_VISION_BASE_URL ? { baseURL: config.SCREENSHOT_VISION_BASE_URL } : {}),
          history: createDatabaseVerificationHistory(db.orm.em),
        }),
        instruments.verificationSeconds,
      )
    : null;
  // The account doors' counters, shared by every instance (issue 26).
  const attemptLimits = createAttemptLimits({ databaseUrl: db.url, logger });
  const edgeLimiter = config.EDGE_RATE_LIMITS
    ? createEdgeLimiter({ databaseUrl: db.url, logger, secureCookie: config.NODE_ENV === 'production' })
    : null;
  const funnelCounts = createFunnelCounts({ write: funnelCountsWriter(db.orm.em), logger });
  const root: Root = {
    config,
    logger,
    db,
    mailer,
    outbox: mailer.outbox ?? null,
    sessions: createSessionStore(db.orm.em),
    rateLimiter: attemptLimits.limiter,
    signInThrottle: new SignInThrottle(Date.now, SIGN_IN_THROTTLE, attemptLimits.throttleStore),
    googleIdTokens: config.GOOGLE_CLIENT_ID ? new JoseGoogleIdTokenVerifier({ clientId: config.GOOGLE_CLIENT_ID }) : null,
    jobs,
    verifier,
    visionVerifier,
    createVerifier,
    instruments,
    giftCards,
    blobStore,
    pos,
    edgeLimiter,
    billing,
    localBilling: billing.localPages ?? null,
    funnelCounts,
    async close() {
      await funnelCounts.close().catch((err: unknown) => logger.warn({ err }, 'funnel counts not written at close'));
      await edgeLimiter?.close();
      await attemptLimits.close();
      await jobs?.stop();
      await verifier.close();
      await visionVerifier?.close();
      await mailer.close?.();
      await demoStore.close();
      await blobStore.close?.();
      await db.close();
    },
  };
  if (options.workers) await startWorkers(root);
  return root;
}
