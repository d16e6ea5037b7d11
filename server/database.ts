import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Migrator } from '@mikro-orm/migrations';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { entities } from '../modules/db/entities.ts';
import { migrationsList } from '../migrations/index.ts';
import { PgliteWireServer } from './pglite-wire.ts';

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
 * embedded PostgreSQL (PGlite) that PgliteWireServer (ADR 019) serves on a random loopback port, so the ORM,
 * pg-boss and the CLI all speak the ordinary wire protocol to it.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let url = options.url;
  let socketServer: PgliteWireServer | undefined;
  let pglite: PGlite | undefined;
  let releaseLock: (() => void) | undefined;
  if (!url) {
    const dir = path.join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    releaseLock = lockDataDir(dir);
    pglite = await PGlite.create(dir);
    // Every pool of the process connects here: the ORM's, pg-boss's and the health check's.
    socketServer = new PgliteWireServer({ db: pglite, host: '127.0.0.1', port: 0 });
    await socketServer.start();
    url = `postgresql://postgres@${socketServer.address()}/postgres`;
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
  let closed = false;
  return {
    orm,
    url,
    describe: pglite ? `embedded PostgreSQL (PGlite) in ${path.join(options.dataDir, 'pgdata')}` : redact(url),
    embedded: Boolean(pglite),
    async close() {
      if (closed) return;
      closed = true;
      await orm.close(true);
      await socketServer?.stop();
      if (pglite && !pglite.closed) await pglite.close();
      releaseLock?.();
    },
  };
}

/**
 * One process at a time may open an embedded database folder: a second (say the CLI while the dev
 * server runs) would corrupt it. The lock names the holder's pid; a lock left by a dead process, or
 * one with our own pid that this process did not take (a container restarted as pid 1), is taken over.
 */
const heldByThisProcess = new Set<string>();

function lockDataDir(dir: string): () => void {
  const file = path.join(dir, '.rewardloop.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      heldByThisProcess.add(file);
      return () => {
        heldByThisProcess.delete(file);
        rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8'));
      // Our own pid in the file is stale unless this process took the lock: a container restarts
      // its server as pid 1 again after a crash.
      const busy = holder === process.pid ? heldByThisProcess.has(file) : holder > 0 && isAlive(holder);
      if (busy) {
        throw new EmbeddedDatabaseBusyError(
          `The embedded database in ${dir} is in use by process ${holder}. Stop that process (the dev server?) first, or set DATABASE_URL to use a PostgreSQL server.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new EmbeddedDatabaseBusyError(`Could not lock the embedded database in ${dir}.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class EmbeddedDatabaseBusyError extends Error {
  override name = 'EmbeddedDatabaseBusyError';
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
