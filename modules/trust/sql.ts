import type { EntityManager } from '@mikro-orm/core';

/** Runs SQL on `em`'s connection, inside its transaction when it has one. */
export function sqlOn(em: EntityManager) {
  return <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    em.getConnection().execute(query, params, 'all', em.getTransactionContext()) as Promise<T[]>;
}

export type Sql = ReturnType<typeof sqlOn>;

export const iso = (v: Date | string | null): string | null => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());
