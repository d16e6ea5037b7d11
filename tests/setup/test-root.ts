import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createRequestContext, createRoot, type RequestContext, type Root } from '../../server/composition.ts';
import { createLogger } from '../../modules/shared/logger.ts';

export type TestApp = {
  root: Root;
  dataDir: string;
  /** A fresh request context, as the server builds one per request. */
  context(ip?: string): RequestContext;
  /** Makes the database stop answering: the embedded one is shut down, a server database is dropped. */
  breakDatabase(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A composition root over a fresh database: an embedded PGlite in a temp folder by default, or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL (created here, dropped on close).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  /** `logger`: capture the root's log lines (tests that check what is logged). */
  options: { jobs?: boolean; logger?: Logger } & Pick<NonNullable<Parameters<typeof createRoot>[1]>, 'jobPolicies' | 'giftCards'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = inject('pgTemplateDir');
  if (!serverUrl && template && existsSync(template)) {
    // Same result as a fresh initdb + migrations, in a fraction of the time.
    cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
  }
  if (serverUrl) {
    const name = `rl_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    };
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    DB_POOL_MAX: '4',
    APP_URL: 'http://localhost:3000',
    // Instant and deterministic; a test that wants OCR passes SCREENSHOT_VERIFIER: 'ocr'.
    SCREENSHOT_VERIFIER: 'fake',
    ...env,
  });
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const root = await createRoot(config, { logger, migrate: true, jobs: options.jobs ?? false, jobPolicies: options.jobPolicies, giftCards: options.giftCards });
  return {
    root,
    dataDir,
    context: (ip = '127.0.0.1') => createRequestContext(root, { cspNonce: 'test-nonce', clientIp: ip }),
    async breakDatabase() {
      if (dropDatabase) await dropDatabase();
      else await root.db.close();
    },
    async close() {
      await root.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
