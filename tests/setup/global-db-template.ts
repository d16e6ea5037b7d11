import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../../modules/shared/logger.ts';
import { openDatabase } from '../../server/database.ts';
import { PgBossJobQueue } from '../../adapters/jobs/PgBossJobQueue.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded-database folder that each test copies instead of running initdb + migrations again. */
    pgTemplateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rewardloop-template-'));
  const logger = createLogger({ level: 'silent' });
  const db = await openDatabase({ dataDir, poolMax: 2, logger, migrate: true });
  // pg-boss's schema and queues too, so tests that start the job queue need not create them.
  const jobs = await PgBossJobQueue.start({ connectionString: db.url, logger });
  await jobs.stop();
  await db.close();
  project.provide('pgTemplateDir', path.join(dataDir, 'pgdata'));
  return () => rmSync(dataDir, { recursive: true, force: true });
}
