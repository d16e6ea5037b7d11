import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { entities } from '../modules/db/entities.ts';
import { migrationsList } from '../migrations/index.ts';

export type Database = {
  orm: MikroORM;
  /** Where the database lives, without credentials (for logs and the CLI). */
  describe: string;
  embedded: boolean;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  /** A postgres:// URL; when absent an embedded PGlite under `dataDir` is served on loopback. */
  url?: string;
  dataDir: string;
  poolMax: number;
  logger: Logger;
  /** Apply pending migrations after connecting (the server and `db migrate` do; tests too). */
  migrate?: boolean;
};

/**
 * Opens the one MikroORM instance of the process. Without DATABASE_URL the data lives in an
 * embedded PostgreSQL (PGlite) that pglite-socket serves on a random loopback port, so the ORM,
 * pg-boss and the CLI all speak the ordinary wire protocol to it.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let url = options.url;
  let socketServer: PGLiteSocketServer | undefined;
  let pglite: PGlite | undefined;
  if (!url) {
    const dir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir);
    // Every pool of the process connects here: the ORM's, pg-boss's and the health check's.
    socketServer = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: options.poolMax * 3 + 4 });
    await socketServer.start();
    url = `postgresql://postgres@${socketServer.getServerConn()}/postgres`;
  }
  const orm = await MikroORM.init({
    clientUrl: url,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, silent: true, snapshot: false },
    pool: { min: 0, max: options.poolMax },
    // PGlite answers one query at a time; the ORM's own logging stays quiet and errors surface as exceptions.
    debug: false,
    allowGlobalContext: false,
  });
  if (options.migrate) {
    const applied = await orm.migrator.up();
    if (applied.length > 0) options.logger.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  }
  return {
    orm,
    describe: pglite ? `embedded PostgreSQL (PGlite) in ${path.join(options.dataDir, 'pgdata')}` : redact(url),
    embedded: Boolean(pglite),
    async close() {
      await orm.close(true);
      await socketServer?.stop();
      await pglite?.close();
    },
  };
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
