/** The composition root's shape (built by `createRoot` in composition.ts), in a file of its own so that the files the root is built from import its type without a cycle. */
import type { Logger } from 'pino';
import type { AttemptLimiter, GoogleIdTokenVerifier, SignInThrottle } from '../modules/accounts/index.ts';
import type { createSessionStore } from '../modules/accounts/server.ts';
import type { FunnelCounts } from '../modules/analytics/index.ts';
import type { Billing, LocalBillingPages } from '../modules/billing/index.ts';
import type { JobQueue } from '../modules/jobs/index.ts';
import type { Mailer, OutboxReader } from '../modules/mail/index.ts';
import type { PosConnector } from '../modules/pos/index.ts';
import type { GiftCards } from '../modules/rewards/index.ts';
import type { BlobStore } from '../modules/uploads/index.ts';
import type { ScreenshotVerifier, VerificationHistory } from '../modules/verification/index.ts';
import type { Config } from './config.ts';
import type { Database } from './database.ts';
import type { EdgeLimiter } from './edge-limits.ts';
import type { Instruments } from './instruments.ts';

/**
 * The one composition root: the web server, the CLI and the tests build everything from here.
 * Each port's adapter is picked by id from the validated config through the provider registry
 * (`server/providers.ts`); per-request services are in `request-scope.ts`, the job workers in
 * `workers.ts` (ADR 055).
 */
export type Root = {
  config: Config;
  logger: Logger;
  db: Database;
  mailer: Mailer;
  /** The mail outbox (MAILER=outbox, no SMTP_URL): listed at /dev/outbox outside production. */
  outbox: OutboxReader | null;
  sessions: ReturnType<typeof createSessionStore>;
  rateLimiter: AttemptLimiter;
  /** Per-account sign-in delays, with device cookies (ADR 021). */
  signInThrottle: SignInThrottle;
  /** Present when GOOGLE_CLIENT_ID/SECRET are set. */
  googleIdTokens: GoogleIdTokenVerifier | null;
  /** The job queue (pg-boss on the same database), when started with `jobs: true`. */
  jobs: JobQueue | null;
  /** SCREENSHOT_VERIFIER: OCR (workers start on first use) or the fake; its history is the database's. */
  verifier: ScreenshotVerifier;
  /** The hosted vision verifier for the surveys whose owner chose it (ADR 066); null without SCREENSHOT_VISION_API_KEY. */
  visionVerifier: ScreenshotVerifier | null;
  /** A new verifier of the configured kind over another history (`verifications replay`); the caller closes it. */
  createVerifier(history: VerificationHistory): ScreenshotVerifier;
  /** Metrics measured inside the adapters (verification time), registered by /metrics. */
  instruments: Instruments;
  /**
   * Gift card adapters (ADR 018): `square` when GIFT_CARDS=square, used for a business with a Square
   * token and location (`giftCardProviderFor`); `test` for everyone else.
   */
  giftCards: { square: GiftCards | null; test: GiftCards };
  /** Uploaded images (BLOB_STORE): PostgresBlobStore, S3BlobStore or DiskBlobStore under DATA_DIR/uploads. */
  blobStore: BlobStore;
  /** POS: SquarePos (OAuth and locations through the square SDK) or DemoPos (a local consent page). */
  pos: PosConnector;
  /** The HTTP edge's rate limits, counted in this database (ADR 032); null with EDGE_RATE_LIMITS=false. */
  edgeLimiter: EdgeLimiter | null;
  /** BILLING: StripeBilling (the stripe SDK) or FakeBilling (local objects, card form and portal). */
  billing: Billing;
  /** The fake's card form and portal page (BILLING=fake only). */
  localBilling: LocalBillingPages | null;
  /** The funnel's counts of this process, written every 2 s and on close (ADR 081). */
  funnelCounts: FunnelCounts;
  close(): Promise<void>;
};
