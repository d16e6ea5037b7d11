import { PgDemoStore } from '../../adapters/demo/PgDemoStore.ts';
import type { DemoStore } from '../../modules/shared/index.ts';
import { createTestApp, type TestApp } from './test-root.ts';

/**
 * A DemoStore for adapters built when a test file loads (contract suites list their adapters before
 * any hook runs): calls go to a PgDemoStore on a test database that `open()` creates in beforeAll.
 */
export function deferredDemoStore(): { store: DemoStore; open(): Promise<void>; close(): Promise<void> } {
  let app: TestApp | null = null;
  let real: PgDemoStore | null = null;
  const live = () => {
    if (!real) throw new Error('deferredDemoStore: call open() in beforeAll first');
    return real;
  };
  return {
    store: {
      get: (kind, id) => live().get(kind, id),
      insert: (kind, id, data, options) => live().insert(kind, id, data, options),
      update: (kind, id, change) => live().update(kind, id, change),
      take: (kind, id) => live().take(kind, id),
      findBy: (kind, field, value) => live().findBy(kind, field, value),
      latest: (kind, limit) => live().latest(kind, limit),
    },
    async open() {
      app = await createTestApp();
      real = new PgDemoStore({ databaseUrl: app.root.db.url });
    },
    async close() {
      await real?.close();
      await app?.close();
    },
  };
}
