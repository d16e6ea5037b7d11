import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
