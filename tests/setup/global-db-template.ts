import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../../modules/shared/logger.ts';
import { openDatabase } from '../../server/database.ts';
import { startEmbeddedPostgres } from '../../server/embedded-postgres.ts';
import { PgBossJobQueue } from '../../adapters/jobs/PgBossJobQueue.ts';
import { adminQuery, databaseUrl } from './database-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The test run's PostgreSQL server (TEST_DATABASE_URL, or one embedded server for the whole run)
     * and a migrated template database on it, from which each test file creates its own database.
     */
    testDatabase: { adminUrl: string; template: string };
  }
}

/**
 * One PostgreSQL server per test run: the server of TEST_DATABASE_URL, or an embedded one (ADR 020)
 * in a temporary folder, with fsync off. The migrations and pg-boss's schema are applied once, to a
 * template database; `createTestApp` copies it (`create database … template …`) per test file.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger({ level: 'silent' });
  const external = process.env.TEST_DATABASE_URL;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-testdb-'));
  const server = external ? null : await startEmbeddedPostgres({ dir: path.join(dataDir, 'postgres'), logger, mode: 'fast' });
  const adminUrl = external ?? server!.urlFor('postgres');
  const template = `rl_template_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = (sql: string) => adminQuery(adminUrl, sql);
  await admin(`create database "${template}"`);
  const templateUrl = databaseUrl(adminUrl, template);
  const db = await openDatabase({ url: templateUrl, dataDir, poolMax: 2, logger, migrate: true });
  // pg-boss's schema and queues too, so tests that start the job queue need not create them.
  const jobs = await PgBossJobQueue.start({ connectionString: templateUrl, logger });
  await jobs.stop();
  await db.close();
  project.provide('testDatabase', { adminUrl, template });
  return async () => {
    await admin(`drop database if exists "${template}" with (force)`).catch(() => undefined);
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
