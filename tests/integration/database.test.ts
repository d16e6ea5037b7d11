import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../modules/shared/logger.ts';
import { migrationsList } from '../../migrations/index.ts';
import { EmbeddedDatabaseBusyError, openDatabase } from '../../server/database.ts';
import { createTestApp } from '../setup/test-root.ts';

const logger = createLogger({ level: 'silent' });
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

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

  it('keeps a second opener away from an embedded database folder that is in use', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rl-lock-'));
    dirs.push(dataDir);
    const first = await openDatabase({ dataDir, poolMax: 2, logger, migrate: true });
    await expect(openDatabase({ dataDir, poolMax: 2, logger })).rejects.toThrow(EmbeddedDatabaseBusyError);
    await first.close();
    const second = await openDatabase({ dataDir, poolMax: 2, logger });
    // Data survives a restart of the embedded database.
    const rows = await second.orm.em.getConnection().execute(`select count(*)::int as n from mikro_orm_migrations`);
    expect(rows[0]).toEqual({ n: migrationsList.length });
    await second.close();
  });

  it('takes over a lock left by a dead process, or by an earlier run with the same pid (a restarted container)', async () => {
    for (const holder of [2 ** 22 + 12345, process.pid]) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'rl-lock-'));
      dirs.push(dataDir);
      mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
      writeFileSync(path.join(dataDir, 'pgdata', '.rewardloop.lock'), String(holder));
      const db = await openDatabase({ dataDir, poolMax: 2, logger, migrate: true });
      await db.close();
    }
  });

  it('serves many connections mixing simple, extended, failing and transactional queries: right rows, no hang (ADR 019)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rl-wire-'));
    dirs.push(dataDir);
    const db = await openDatabase({ dataDir, poolMax: 2, logger, migrate: false });
    const pool = new pg.Pool({ connectionString: db.url, max: 8 });
    pool.on('error', () => undefined);
    try {
      await pool.query('create table wire_t (id int)');
      const problems: string[] = [];
      const timeout = () => new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5000));
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let i = 0; i < 60; i += 1) {
            const v = w * 1000 + i;
            const step = async () => {
              if (i % 4 === 0) {
                const r = await pool.query(`select $1::int as v${w}`, [v]);
                if (r.rows[0]?.[`v${w}`] !== v) problems.push(`extended ${v}`);
              } else if (i % 4 === 1) {
                const r = await pool.query(`select ${v} as q${w}`);
                if (r.rows[0]?.[`q${w}`] !== v) problems.push(`simple ${v}`);
              } else if (i % 4 === 2) {
                await pool.query('select no_such_function($1)', [v]).then(
                  () => problems.push(`error ${v}`),
                  () => undefined,
                );
              } else {
                const c = await pool.connect();
                try {
                  await c.query('begin');
                  await c.query('insert into wire_t values ($1)', [v]);
                  const r = await c.query('select count(*)::int as n from wire_t where id = $1', [v]);
                  if (r.rows[0]?.n !== 1) problems.push(`transaction ${v}`);
                  await c.query('commit');
                } finally {
                  c.release();
                }
              }
            };
            await Promise.race([step(), timeout()]).catch((e: unknown) => problems.push(String(e)));
          }
        }),
      );
      expect(problems).toEqual([]);
      // A client that dies inside a transaction: rolled back, and nobody waits for it.
      const dying = new pg.Client({ connectionString: db.url });
      dying.on('error', () => undefined);
      await dying.connect();
      await dying.query('begin');
      await dying.query('insert into wire_t values (-1)');
      (dying as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      const after = await Promise.race([pool.query('select count(*)::int as n from wire_t where id = -1'), timeout()]);
      expect(after.rows[0]).toEqual({ n: 0 });
    } finally {
      await pool.end();
      await db.close();
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
