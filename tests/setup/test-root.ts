import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createRequestContext, createRoot, type RequestContext, type Root } from '../../server/composition.ts';
import { createLogger } from '../../modules/shared/logger.ts';
import { adminQuery, databaseUrl } from './database-server.ts';

export type TestApp = {
  root: Root;
  dataDir: string;
  /** A fresh request context, as the server builds one per request. */
  context(ip?: string): RequestContext;
  /** A second root on the same database (another instance of one deployment), with its own DATA_DIR; closed by the caller. */
  secondInstance(): Promise<{ root: Root; dataDir: string; context(ip?: string): RequestContext; close(): Promise<void> }>;
  /** Makes the database stop answering: the test's database is dropped. */
  breakDatabase(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A composition root over a fresh database of its own on the test run's server (the embedded one, or
 * TEST_DATABASE_URL's), copied from the migrated template; dropped on close.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  /** `logger`: capture the root's log lines (tests that check what is logged). */
  options: { jobs?: boolean; logger?: Logger } & Pick<NonNullable<Parameters<typeof createRoot>[1]>, 'jobPolicies' | 'giftCards'> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-test-'));
  // A database of its own on the run's server, copied from the migrated template (global-db-template.ts).
  const { adminUrl, template } = inject('testDatabase');
  const name = `rl_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(adminUrl, `create database "${name}" template "${template}"`);
  const databaseUrlOfTest = databaseUrl(adminUrl, name);
  const dropDatabase = () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrlOfTest,
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
    async secondInstance() {
      // Another process of the same deployment: the same DATABASE_URL and SESSION_SECRET, a DATA_DIR of its own.
      const otherDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-test-b-'));
      const other = await createRoot({ ...config, DATA_DIR: otherDir }, { logger, migrate: true, jobs: options.jobs ?? false, jobPolicies: options.jobPolicies });
      return {
        root: other,
        dataDir: otherDir,
        context: (ip = '127.0.0.1') => createRequestContext(other, { cspNonce: 'test-nonce', clientIp: ip }),
        async close() {
          await other.close();
          rmSync(otherDir, { recursive: true, force: true });
        },
      };
    },
    root,
    dataDir,
    context: (ip = '127.0.0.1') => createRequestContext(root, { cspNonce: 'test-nonce', clientIp: ip }),
    async breakDatabase() {
      await dropDatabase();
    },
    async close() {
      await root.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

