import type { Root } from './root.ts';

/**
 * The instance's life as its load balancer sees it (issue 26): ready once started, draining from the
 * first SIGTERM. `/readyz` answers 503 while draining, and every response then carries
 * `Connection: close`, so keep-alive clients move to another instance.
 */
export type Lifecycle = {
  readonly draining: boolean;
  drain(): void;
};

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}

export type Readiness = { ready: true; checks: Record<string, string> } | { ready: false; checks: Record<string, string>; message: string };

/**
 * Whether this instance should get traffic: not draining, the database answering within 2 s, every
 * migration applied, and the job queue started (when this process runs one). Migrations, once all
 * applied, are not asked again.
 */
export function readinessCheck(root: Root, lifecycle: Lifecycle) {
  let migrationsApplied = false;
  const withTimeout = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within 2 s`)), 2000).unref())]);
  return async (): Promise<Readiness> => {
    const checks: Record<string, string> = {};
    if (lifecycle.draining) return { ready: false, checks: { lifecycle: 'draining' }, message: 'This instance is shutting down.' };
    checks.lifecycle = 'running';
    try {
      await withTimeout(root.db.orm.em.getConnection().execute('select 1'), 'the database');
      checks.database = 'ok';
    } catch {
      return { ready: false, checks: { ...checks, database: 'unavailable' }, message: 'The database is not answering.' };
    }
    if (!migrationsApplied) {
      const pending = await withTimeout(root.db.orm.migrator.getPending(), 'the migrations table').catch(() => null);
      if (!pending || pending.length > 0) return { ready: false, checks: { ...checks, migrations: pending ? `${pending.length} pending` : 'unknown' }, message: 'Migrations are not applied.' };
      migrationsApplied = true;
    }
    checks.migrations = 'applied';
    checks.jobs = root.jobs ? 'started' : 'not run by this process';
    return { ready: true, checks };
  };
}
