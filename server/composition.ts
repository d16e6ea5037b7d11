import path from 'node:path';
import type { Logger } from 'pino';
import { DemoBilling } from '../adapters/billing/DemoBilling.ts';
import { PgBossJobQueue } from '../adapters/jobs/PgBossJobQueue.ts';
import { JoseGoogleIdTokenVerifier } from '../adapters/identity/JoseGoogleIdTokenVerifier.ts';
import { OutboxMailer } from '../adapters/mailer/OutboxMailer.ts';
import { SmtpMailer } from '../adapters/mailer/SmtpMailer.ts';
import type { GoogleIdTokenVerifier } from '../modules/accounts/google.ts';
import type { JobQueue } from '../modules/jobs/port.ts';
import { createAccounts } from '../modules/accounts/service.ts';
import { RateLimiter } from '../modules/accounts/rate-limit.ts';
import { createSessionStore } from '../modules/accounts/sessions.ts';
import type { Mailer } from '../modules/mail/mailer.ts';
import { createLogger } from '../modules/shared/logger.ts';
import { createResponses } from '../modules/responses/service.ts';
import { createSurveys } from '../modules/surveys/service.ts';
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
    const demo = [outbox ? 'mail outbox (set SMTP_URL)' : null, config.BILLING === 'demo' ? 'demo billing (BILLING=demo)' : null].filter(Boolean);
    if (demo.length > 0) {
      await db.close();
      throw new Error(`Demo adapters are refused in production: ${demo.join(', ')}. Configure the real ones or set ALLOW_DEMO_ADAPTERS=true.`);
    }
  }
  const mailer: Mailer = outbox ?? new SmtpMailer({ url: config.SMTP_URL!, from: config.MAIL_FROM });
  const jobs = options.jobs ? await PgBossJobQueue.start({ connectionString: db.url, logger, poolMax: 2 }) : null;
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
    async close() {
      await jobs?.stop();
      await mailer.close?.();
      await db.close();
    },
  };
}

/** What a loader or action sees as `context`: request-scoped services over one forked EntityManager. */
export function createRequestContext(root: Root, extra: { cspNonce: string; clientIp: string }) {
  const em = root.db.orm.em.fork();
  return {
    cspNonce: extra.cspNonce,
    clientIp: extra.clientIp,
    config: {
      appUrl: root.config.APP_URL,
      production: root.config.NODE_ENV === 'production',
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
    billing: new DemoBilling({ em: () => em }),
  };
}

export type RequestContext = ReturnType<typeof createRequestContext>;
