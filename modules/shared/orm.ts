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
