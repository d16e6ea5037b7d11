import { existsSync } from 'node:fs';
import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { entities } from '../modules/db/index.ts';
import { migrationsList } from '../migrations/index.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.ts';

export type Database = {
  orm: MikroORM;
  /** A connection URL for other pools on the same database (pg-boss); may carry credentials, never log it. */
  url: string;
  /** Where the database lives, without credentials (for logs and the CLI). */
  describe: string;
  embedded: boolean;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** A postgres:// URL; when absent the embedded PostgreSQL under `dataDir` (started or joined). */
  url?: string;
  dataDir: string;
  poolMax: number;
  logger: Logger;
  /** Apply pending migrations after connecting (the server and `db migrate` do; tests too). */
  migrate?: boolean;
};

/**
 * Opens the one MikroORM instance of the process. Without DATABASE_URL the data lives in an embedded
 * PostgreSQL server under `DATA_DIR/postgres` (ADR 020): started by the first process that needs
 * it, joined by the others (the CLI beside the dev server), stopped by the one that started it.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let url = options.url;
  let embedded: EmbeddedPostgres | undefined;
  if (!url) {
    warnAboutPgliteFolder(options.dataDir, options.logger);
    embedded = await startEmbeddedPostgres({ dir: path.join(options.dataDir, 'postgres'), logger: options.logger });
    url = embedded.url;
  }
  let orm: MikroORM;
  try {
    orm = await MikroORM.init({
      clientUrl: url,
      entities,
      extensions: [Migrator],
      migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true, snapshot: false },
      // Triggers are written by migrations (survey_answer_counts, ADR 027), not declared on entities:
      // the schema diff must not drop them. The HTTP edge's rate-limit counters live in a schema of
      // their own, outside the entities (ADR 032), as do the demo adapters' objects (schema demo, ADR 073).
      // PostgresBlobStore's two tables are the adapter's storage, spoken to in SQL through this ORM's
      // connection, not entities (ADR 075). Functions are written by migrations too (`survey_short_code()`,
      // the short codes' column default, ADR 082): the diff must not drop them either.
      schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true, ignoreSchema: ['edge', 'demo'], skipTables: ['blobs', 'blob_chunks'] },
      pool: { min: 0, max: options.poolMax },
      // The ORM's own logging stays quiet; errors surface as exceptions.
      debug: false,
      allowGlobalContext: false,
    });
    if (options.migrate) {
      const applied = await orm.migrator.up();
      if (applied.length > 0) options.logger.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  let closed = false;
  return {
    orm,
    url,
    describe: embedded ? `embedded PostgreSQL in ${embedded.dataDir} (port ${embedded.port})` : redact(url),
    embedded: Boolean(embedded),
    async close() {
      if (closed) return;
      closed = true;
      await orm.close(true);
      await embedded?.stop();
    },
  };
}

/** The PGlite folder of earlier versions is left alone; say once that it is no longer used. */
function warnAboutPgliteFolder(dataDir: string, logger: Logger): void {
  const old = path.join(dataDir, 'pgdata');
  if (existsSync(path.join(old, 'PG_VERSION'))) {
    logger.warn(
      { folder: old },
      `${old} holds the database of an earlier RewardLoop (PGlite), which is no longer used: the embedded PostgreSQL keeps its data in ${path.join(dataDir, 'postgres')}. Delete ${old} when you no longer need it.`,
    );
  }
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
