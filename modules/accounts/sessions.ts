import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { Session } from './entities.ts';

/** A browser-session cookie still needs an end on the server side. */
export const BROWSER_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The `sessions` table behind the session cookie. Every call forks its own EntityManager
 * (sessions are read before a request's own work begins).
 */
export function createSessionStore(rootEm: EntityManager, now: () => Date = () => new Date()) {
  return {
    async create(data: Record<string, unknown>, expires?: Date): Promise<string> {
      const em = rootEm.fork();
      const sid = randomBytes(32).toString('base64url');
      em.create(Session, { sid, sess: data, expire: expires ?? new Date(now().getTime() + BROWSER_SESSION_TTL_MS) });
      await em.flush();
      return sid;
    },
    async read(sid: string): Promise<Record<string, unknown> | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(sid)) return null;
      const row = await rootEm.fork().findOne(Session, { sid });
      if (!row || row.expire <= now()) return null;
      return row.sess;
    },
    async update(sid: string, data: Record<string, unknown>, expires?: Date): Promise<void> {
      const em = rootEm.fork();
      const row = await em.findOne(Session, { sid });
      if (!row) return;
      row.sess = data;
      if (expires) row.expire = expires;
      await em.flush();
    },
    async destroy(sid: string): Promise<void> {
      await rootEm.fork().nativeDelete(Session, { sid });
    },
    async destroyForBusiness(businessId: string): Promise<number> {
      return rootEm.fork().nativeDelete(Session, { sess: { businessId } });
    },
    async purgeExpired(): Promise<number> {
      return rootEm.fork().nativeDelete(Session, { expire: { $lte: now() } });
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
