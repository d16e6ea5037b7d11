import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../modules/shared/logger.ts';
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
    expect(rows[0]).toEqual({ n: 1 });
    await second.close();
  });
});
