import path from 'node:path';
import type { Logger } from 'pino';
import { DemoBilling } from '../adapters/billing/DemoBilling.ts';
import { DiskBlobStore } from '../adapters/blobstore/DiskBlobStore.ts';
import { PgBossJobQueue } from '../adapters/jobs/PgBossJobQueue.ts';
import { JoseGoogleIdTokenVerifier } from '../adapters/identity/JoseGoogleIdTokenVerifier.ts';
import { OutboxMailer } from '../adapters/mailer/OutboxMailer.ts';
import { SmtpMailer } from '../adapters/mailer/SmtpMailer.ts';
import { FakeScreenshotVerifier } from '../adapters/verification/FakeScreenshotVerifier.ts';
import { OcrScreenshotVerifier } from '../adapters/verification/OcrScreenshotVerifier.ts';
import type { GoogleIdTokenVerifier } from '../modules/accounts/google.ts';
import type { JobQueue } from '../modules/jobs/port.ts';
import { createAccounts } from '../modules/accounts/service.ts';
import { RateLimiter } from '../modules/accounts/rate-limit.ts';
import { createSessionStore } from '../modules/accounts/sessions.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import { createLogger } from '../modules/shared/logger.ts';
import { createResponses } from '../modules/responses/service.ts';
import { createDatabaseVerificationHistory } from '../modules/responses/verification-history.ts';
import { createVerifications } from '../modules/responses/verifications.ts';
import { createSurveys } from '../modules/surveys/service.ts';
import type { BlobStore } from '../modules/uploads/blob-store.ts';
import type { ScreenshotVerifier } from '../modules/verification/port.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './database.ts';

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
  /** Present when GOOGLE_CLIENT_ID/SECRET are set. */
  googleIdTokens: GoogleIdTokenVerifier | null;
  /** The job queue (pg-boss on the same database), when started with `jobs: true`. */
  jobs: JobQueue | null;
  /** SCREENSHOT_VERIFIER: OCR (workers start on first use) or the fake; its history is the database's. */
  verifier: ScreenshotVerifier;
  /** Uploaded images: DiskBlobStore under DATA_DIR/uploads. */
  blobStore: BlobStore;
  close(): Promise<void>;
};

export async function createRoot(config: Config, options: { logger?: Logger; migrate?: boolean; jobs?: boolean } = {}): Promise<Root> {
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
      config.BILLING === 'demo' ? 'demo billing (BILLING=demo)' : null,
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
  const jobs = options.jobs ? await PgBossJobQueue.start({ connectionString: db.url, logger, poolMax: 2 }) : null;
  const history = createDatabaseVerificationHistory(db.orm.em);
  const verifier: ScreenshotVerifier =
    config.SCREENSHOT_VERIFIER === 'fake' ? new FakeScreenshotVerifier({ history }) : new OcrScreenshotVerifier({ history, ocrTimeoutMs: 30_000 });
  const blobStore = new DiskBlobStore({ root: path.join(config.DATA_DIR, 'uploads') });
  return {
    config,
    logger,
    db,
    mailer,
    outbox,
    sessions: createSessionStore(db.orm.em),
    rateLimiter: new RateLimiter(),
    googleIdTokens: config.GOOGLE_CLIENT_ID ? new JoseGoogleIdTokenVerifier({ clientId: config.GOOGLE_CLIENT_ID }) : null,
    jobs,
    verifier,
    blobStore,
    async close() {
      await jobs?.stop();
      await verifier.close();
      await mailer.close?.();
      await db.close();
    },
  };
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
    },
    logger: root.logger,
    sessions: root.sessions,
    rateLimiter: root.rateLimiter,
    googleIdTokens: root.googleIdTokens,
    outbox: root.config.NODE_ENV === 'production' ? null : root.outbox,
    accounts: createAccounts({ em, mailer: root.mailer, appUrl: root.config.APP_URL, logger: root.logger }),
    surveys: createSurveys({ em }),
    responses: createResponses({ em, jobs: root.jobs, logger: root.logger }),
    verifications: createVerifications({ em, verifier: root.verifier, blobStore: root.blobStore, logger: root.logger }),
    billing: new DemoBilling({ em: () => em }),
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
