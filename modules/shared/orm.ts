import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { EntityManager as SqlEntityManager } from '@mikro-orm/postgresql';

/**
 * MikroORM's QueryBuilder on `em` (inside its transaction when it has one), for the statements
 * `em.find`/`em.insert`/`em.nativeUpdate` cannot say: `insert ... on conflict ... returning`,
 * `update ... returning`, aggregates (ADR 062). The one ORM of the process is the PostgreSQL
 * driver's (server/database.ts), so every EntityManager is its SqlEntityManager; modules keep
 * `@mikro-orm/core`'s type in their signatures.
 */
export function queryBuilder<T extends object>(em: EntityManager, entity: EntityName<T>, alias?: string) {
  return (em as SqlEntityManager).createQueryBuilder(entity, alias);
}

/**
 * Takes a PostgreSQL transaction-level advisory lock named by `scope` and `key` (released at commit or
 * rollback), on `em`'s transaction: concurrent holders of the same name, in any instance, wait here.
 * For decisions that must happen once per key (one live subscription per business) where no row or
 * unique constraint can say it. Call it inside `em.transactional`.
 */
export async function lockFor(em: EntityManager, scope: string, key: string): Promise<void> {
  if (!em.isInTransaction()) throw new Error(`lockFor(${scope}) needs a transaction`);
  await (em as SqlEntityManager).execute('select pg_advisory_xact_lock(hashtext(?), hashtext(?))', [scope, key]);
}
