/**
 * The embedded PostgreSQL's cluster and process helpers (split from embedded-postgres.ts, issue 28
 * item 4): the bundled binaries and their version, the system user as root, postmaster.pid and
 * whether its server lives, free ports and connection checks, the cluster folder's files and state,
 * initdb. `embedded-postgres.ts` starts, joins and stops the server with them (ADR 020).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';

export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const SUPERUSER = 'postgres';

export type Binaries = { postgres: string; initdb: string };

export async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(name)) as Partial<Binaries>;
    if (!mod.postgres || !mod.initdb) throw new Error('no binary paths exported');
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch (error) {
    throw new EmbeddedPostgresError(
      `The embedded PostgreSQL has no server binaries for ${os.platform()}-${os.arch()} (${name}: ${(error as Error).message}). Run npm install, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/** The major version of the bundled server, from `postgres --version` ("postgres (PostgreSQL) 17.10"). */
export function serverMajor(postgresBin: string): string {
  const out = execFileSync(postgresBin, ['--version'], { encoding: 'utf8' });
  const match = /(\d+)(?:\.\d+)?/.exec(out);
  if (!match) throw new EmbeddedPostgresError(`Could not read the embedded PostgreSQL's version from "${out.trim()}".`);
  return match[1]!;
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` system user (created if missing). */
export function runAs(logger: Logger): { uid: number; gid: number } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    logger.info('running as root: creating the postgres system user for the embedded PostgreSQL');
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER], { stdio: 'ignore' });
      return ids();
    } catch (error) {
      throw new EmbeddedPostgresError(
        `PostgreSQL cannot run as root, and the postgres system user could not be created (${(error as Error).message}). Run as another user, or set DATABASE_URL.`,
      );
    }
  }
}

type PidFile = { pid: number; port: number; status: string };

/** postmaster.pid: pid, data dir, start time, port, socket dir, listen address, shmem key, status. */
export function readPidFile(dir: string): PidFile | null {
  try {
    const lines = readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n');
    return { pid: Number(lines[0]), port: Number(lines[3]), status: (lines[7] ?? '').trim() };
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether `pid` is a postgres server on `dir`; where /proc is missing, any live process counts. */
export function isPostmasterOf(pid: number, dir: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(cmdline[0] ?? '') === 'postgres' && cmdline.includes(dir);
  } catch {
    return os.platform() !== 'linux';
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Files beside the cluster folder: the generated password and the pid of the process that owns the server. */
export function sideFiles(dir: string) {
  return { password: `${dir}.password`, owner: `${dir}.owner`, port: `${dir}.port` };
}

export function makeUrl(port: number, password: string, database: string): string {
  return `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Checks the folder before anything touches it: an empty or missing folder is initialised; a cluster
 * of another major version, or a folder that is not a cluster, stops the start with a message that
 * says what to do. Nothing is ever deleted.
 */
export function inspectDir(dir: string, major: string): 'empty' | 'cluster' {
  if (!existsSync(dir)) return 'empty';
  if (!statSync(dir).isDirectory()) throw new EmbeddedPostgresError(`${dir} is a file, not a database folder. Move it away, or set DATA_DIR or DATABASE_URL.`);
  const versionFile = path.join(dir, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const theirs = readFileSync(versionFile, 'utf8').trim();
    if (theirs !== major) {
      throw new EmbeddedPostgresError(
        `The embedded database in ${dir} was written by PostgreSQL ${theirs}, and this version of RewardLoop runs PostgreSQL ${major}. ` +
          `Nothing was changed. To keep the data, dump it with PostgreSQL ${theirs} (pg_dump) and restore it into a new folder; ` +
          `to start with an empty database, move ${dir} away; or set DATABASE_URL to a PostgreSQL server.`,
      );
    }
    return 'cluster';
  }
  if (readdirSync(dir).length === 0) return 'empty';
  throw new EmbeddedPostgresError(
    `${dir} is not empty and holds no PostgreSQL database (no PG_VERSION). Nothing was changed. Move it away to start with an empty database, or set DATABASE_URL.`,
  );
}

/** initdb with a generated password for the superuser; UTF-8, C collation (the same everywhere). */
export function initialise(bin: Binaries, dir: string, owner: { uid: number; gid: number } | undefined, passwordFile: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const password = randomBytes(24).toString('base64url');
  writeFileSync(passwordFile, password, { mode: 0o600 });
  const pwfile = path.join(os.tmpdir(), `rewardloop-pw-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner.uid, owner.gid);
  try {
    execFileSync(
      bin.initdb,
      [`--pgdata=${dir}`, `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' }, ...owner },
    );
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    rmSync(passwordFile, { force: true });
    throw new EmbeddedPostgresError(`initdb failed in ${dir}: ${stderr || (error as Error).message}`);
  } finally {
    rmSync(pwfile, { force: true });
  }
  return password;
}


/** The postgres user must reach the cluster folder: its parent gets search permission (not listing) for others. */
export function allowTraversal(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
}
