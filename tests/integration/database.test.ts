import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../modules/shared/logger.ts';
import { migrationsList } from '../../migrations/index.ts';
import { openDatabase } from '../../server/database.ts';
import { EmbeddedPostgresError } from '../../server/embedded-postgres.ts';
import { createTestApp } from '../setup/test-root.ts';

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const logger = createLogger({ level: 'silent' });
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill('SIGKILL'));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rl-embedded-'));
  dirs.push(dir);
  return dir;
}

/** pids of processes whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts tests/fixtures/processes/hold-database.ts: opens the database, commits `note`, waits to be killed. */
async function holder(dir: string, note: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(projectDir, 'tests/fixtures/processes/hold-database.ts'), dir, note], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  await waitFor(() => {
    if (child.exitCode !== null) throw new Error(`holder exited: ${err}`);
    return out.includes('ready');
  }, 30_000);
  return child;
}

async function notes(dir: string): Promise<string[]> {
  const db = await openDatabase({ dataDir: dir, poolMax: 2, logger });
  try {
    const rows = await db.orm.em.getConnection().execute<Array<{ note: string }>>('select note from held_notes order by note');
    return rows.map((r) => r.note);
  } finally {
    await db.close();
  }
}

describe('database', () => {
  it('the migrations produce exactly the schema the entities describe', async () => {
    const app = await createTestApp();
    try {
      const diff = await app.root.db.orm.schema.getUpdateSchemaSQL({ wrap: false });
      expect(diff.trim()).toBe('');
    } finally {
      await app.close();
    }
  });

  it('purges expired sessions only', async () => {
    const app = await createTestApp();
    try {
      const live = await app.root.sessions.create({ businessId: 'x' });
      const dead = await app.root.sessions.create({ businessId: 'y' }, new Date(Date.now() - 1000));
      expect(await app.root.sessions.purgeExpired()).toBe(1);
      expect(await app.root.sessions.read(live)).toEqual({ businessId: 'x' });
      expect(await app.root.sessions.read(dead)).toBeNull();
    } finally {
      await app.close();
    }
  });
});

describe('the embedded PostgreSQL (ADR 020)', () => {
  it('starts a real PostgreSQL on a fresh folder, keeps the data across a restart, and stops with nothing left running', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir, poolMax: 2, logger, migrate: true });
    const [row] = await first.orm.em.getConnection().execute<Array<{ version: string }>>('select version()');
    const version = row?.version;
    expect(version).toMatch(/^PostgreSQL 17\./);
    expect(first.embedded).toBe(true);
    expect(first.describe).toContain(path.join(dir, 'postgres'));
    expect(first.describe).not.toContain(readFileSync(path.join(dir, 'postgres.password'), 'utf8'));
    await first.close();
    expect(processesMentioning(path.join(dir, 'postgres'))).toEqual([]);
    expect(existsSync(path.join(dir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = await openDatabase({ dataDir: dir, poolMax: 2, logger });
    const rows = await second.orm.em.getConnection().execute(`select count(*)::int as n from mikro_orm_migrations`);
    expect(rows[0]).toEqual({ n: migrationsList.length });
    await second.close();
  });

  it('lets a second process (the CLI) work on the database while the server holds it', async () => {
    const dir = dataDir();
    const server = await holder(dir, 'from the server');
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(projectDir, 'cli/bin.mjs'), 'db', 'migrate'], {
      cwd: projectDir,
      env: { ...process.env, NODE_ENV: 'development', DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    });
    expect(stdout).toContain('Database is up to date');
    // The CLI left the server's database running.
    expect(server.exitCode).toBeNull();
    server.kill('SIGKILL');
    expect(await notes(dir)).toEqual(['from the server']);
  });

  it('after kill -9 of the app: no stray server, and the next start recovers with every committed row', async () => {
    const dir = dataDir();
    const app = await holder(dir, 'committed before the crash');
    const cluster = path.join(dir, 'postgres');
    expect(processesMentioning(cluster).length).toBeGreaterThan(0);
    app.kill('SIGKILL');
    // The watchdog sees the pipe close and stops PostgreSQL.
    await waitFor(() => processesMentioning(cluster).length === 0);
    expect(await notes(dir)).toEqual(['committed before the crash']);
  });

  it('stops a server orphaned by a process that died with its watchdog, and starts its own', async () => {
    const dir = dataDir();
    const cluster = path.join(dir, 'postgres');
    const app = await holder(dir, 'kept');
    const postmaster = Number(readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
    // Kill the watchdog shell (and its reader) first, then the app: PostgreSQL is left running alone.
    // Both are stopped before either is killed: a shell scheduled between two kills would see its
    // reader die and stop PostgreSQL itself (it did, on a loaded machine).
    const watchdog = processesMentioning('rewardloop-postgres').filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(cluster));
    for (const pid of watchdog) process.kill(pid, 'SIGSTOP');
    for (const pid of watchdog) process.kill(pid, 'SIGKILL');
    app.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect(processesMentioning(cluster)).toContain(postmaster);

    expect(await notes(dir)).toEqual(['kept']);
    await waitFor(() => !processesMentioning(cluster).includes(postmaster));
  });

  it('recovers a stale postmaster.pid whose pid now belongs to another process (a restarted container)', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir, poolMax: 2, logger, migrate: false });
    await first.close();
    const pidFile = path.join(dir, 'postgres', 'postmaster.pid');
    // This test process is alive and is not a postgres server.
    writeFileSync(pidFile, `${process.pid}\n${path.join(dir, 'postgres')}\n1700000000\n5999\n\n127.0.0.1\n0 0\nready   \n`);
    const second = await openDatabase({ dataDir: dir, poolMax: 2, logger });
    await second.orm.em.getConnection().execute('select 1');
    await second.close();
  });

  it('takes another port when the port of the last run is in use', async () => {
    const dir = dataDir();
    const first = await openDatabase({ dataDir: dir, poolMax: 2, logger, migrate: false });
    await first.close();
    const lastPort = Number(readFileSync(path.join(dir, 'postgres.port'), 'utf8'));
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(lastPort, '127.0.0.1', resolve));
    try {
      const second = await openDatabase({ dataDir: dir, poolMax: 2, logger });
      await second.orm.em.getConnection().execute('select 1');
      expect(second.describe).not.toContain(`port ${lastPort})`);
      await second.close();
    } finally {
      squatter.close();
    }
  });

  it('refuses a folder written by another PostgreSQL major, naming it and what to do, and changes nothing', async () => {
    const dir = dataDir();
    const cluster = path.join(dir, 'postgres');
    mkdirSync(cluster);
    writeFileSync(path.join(cluster, 'PG_VERSION'), '16\n');
    writeFileSync(path.join(cluster, 'precious'), 'data');
    const attempt = openDatabase({ dataDir: dir, poolMax: 2, logger });
    await expect(attempt).rejects.toThrow(EmbeddedPostgresError);
    await expect(attempt).rejects.toThrow(new RegExp(`${cluster}.*PostgreSQL 16.*PostgreSQL 17.*Nothing was changed`));
    expect(readdirSync(cluster).sort()).toEqual(['PG_VERSION', 'precious']);
  });

  it('refuses a non-empty folder that is not a database, and changes nothing', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'postgres'));
    writeFileSync(path.join(dir, 'postgres', 'notes.txt'), 'mine');
    await expect(openDatabase({ dataDir: dir, poolMax: 2, logger })).rejects.toThrow(/holds no PostgreSQL database.*Nothing was changed/);
    expect(readFileSync(path.join(dir, 'postgres', 'notes.txt'), 'utf8')).toBe('mine');
  });
});
