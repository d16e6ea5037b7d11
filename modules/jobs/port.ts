import type { EntityManager } from '@mikro-orm/core';

/** The queues of the product. Each job handler is idempotent: a job may run more than once. */
export const QUEUES = ['reward-issue', 'reward-email', 'screenshot-verify'] as const;
export type QueueName = (typeof QUEUES)[number];

export type SendOptions = {
  /**
   * An EntityManager inside `em.transactional(...)`: the job is written in that transaction, so it
   * exists exactly when the work that created it was committed.
   */
  em?: EntityManager;
  /**
   * A stable key (e.g. the survey response id): the job id is derived from it, so the same work is
   * queued at most once however often it is sent (a second send returns null).
   */
  key?: string;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
};

export type JobHandler<T> = (job: { id: string; data: T; retryCount: number }) => Promise<void>;

/** The JobQueue port: durable background work on the same PostgreSQL (pg-boss behind it). */
export interface JobQueue {
  send<T extends object>(queue: QueueName, data: T, options?: SendOptions): Promise<string | null>;
  work<T extends object>(queue: QueueName, handler: JobHandler<T>): Promise<void>;
  stop(): Promise<void>;
}
