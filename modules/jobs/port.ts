import type { EntityManager } from '@mikro-orm/core';

/** The queues of the product. Each job handler is idempotent: a job may run more than once. */
export const QUEUES = ['reward-issue', 'reward-email', 'reward-confirm-email', 'pos-token-refresh', 'billing-sync'] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * How a queue retries and how long a job may run. Set on the queue when the job queue starts, so
 * every job sent to it (also the one the submission writes) follows it.
 */
export type QueuePolicy = {
  /** Retries after the first attempt; the job fails for good after `retryLimit + 1` attempts. */
  retryLimit: number;
  /** Seconds before the first retry (0: at once). */
  retryDelaySeconds: number;
  /** Exponential backoff with jitter from `retryDelaySeconds`, capped at `retryDelayMaxSeconds`. */
  retryBackoff: boolean;
  retryDelayMaxSeconds?: number;
  /** An attempt still active after this long (a killed worker) is retried by the supervisor. */
  expireInSeconds: number;
  /**
   * A running attempt reports every half of this (at least 10 s); one whose reports stop (its
   * process died) is retried by the supervisor after this long instead of after `expireInSeconds`.
   */
  heartbeatSeconds?: number;
};

/** A queue without its own entry in DEFAULT_QUEUE_POLICIES: pg-boss's two retries, with backoff. */
export const DEFAULT_QUEUE_POLICY: QueuePolicy = { retryLimit: 2, retryDelaySeconds: 5, retryBackoff: true, retryDelayMaxSeconds: 300, expireInSeconds: 900 };

/**
 * The rewards' policies (ADR 018). Square outages and rate limits usually last minutes; a mail
 * server can be down for hours: 10 retries from 5 s (reward-issue) or 10 s (reward-email), doubling
 * with jitter, capped at 15 or 30 minutes, span roughly 1 to 3 hours before the reward is marked
 * failed. A running attempt sends a heartbeat every 5 s: one whose process died is retried about
 * 10 to 15 s later (issue 9: a restarted server delivers within 30 s), and none runs past 2 minutes.
 */
export const DEFAULT_QUEUE_POLICIES: Partial<Record<QueueName, QueuePolicy>> = {
  'reward-issue': { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, retryDelayMaxSeconds: 900, expireInSeconds: 120, heartbeatSeconds: 10 },
  'reward-email': { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, retryDelayMaxSeconds: 1800, expireInSeconds: 120, heartbeatSeconds: 10 },
  // The customer's "confirm your email" message before a held reward (ADR 050): retried like the reward email.
  'reward-confirm-email': { retryLimit: 10, retryDelaySeconds: 5, retryBackoff: true, retryDelayMaxSeconds: 1800, expireInSeconds: 120, heartbeatSeconds: 10 },
  // Daily (ADR 017): a run with Square unreachable is retried over about an hour; tomorrow's run tries again.
  'pos-token-refresh': { retryLimit: 4, retryDelaySeconds: 60, retryBackoff: true, retryDelayMaxSeconds: 1800, expireInSeconds: 600 },
  // Every 15 minutes (ADR 022): a failed run is simply retried by the next one.
  'billing-sync': { retryLimit: 1, retryDelaySeconds: 60, retryBackoff: false, expireInSeconds: 600 },
};

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
};

export type Job<T> = {
  id: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
  /** The job's retry limit: the attempt with `retryCount >= retryLimit` is the last one. */
  retryLimit: number;
  /** The X-Request-Id of the request that queued the work (carried in the payload), for the job's log lines. */
  requestId: string | null;
};

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

export type WorkOptions = {
  /** How often an idle worker looks for jobs (seconds, at least 0.5; default 2). */
  pollingIntervalSeconds?: number;
  /** Workers of this queue in this process (default 1). */
  concurrency?: number;
  /**
   * Jobs each worker takes per fetch and runs at once (default 1). Above 1 a busy queue is fetched
   * again as soon as a batch is done instead of after the polling interval.
   */
  batchSize?: number;
};

/** The JobQueue port: durable background work on the same PostgreSQL (pg-boss behind it). */
export interface JobQueue {
  send<T extends object>(queue: QueueName, data: T, options?: SendOptions): Promise<string | null>;
  /** Runs `handler` for each job; a throw fails the attempt and the queue's policy retries it. */
  work<T extends object>(queue: QueueName, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /**
   * Tells this process's workers of `queue` to look for jobs now instead of at their next poll. Call
   * it after the transaction that queued a job has committed; a no-op where no worker runs.
   */
  wake(queue: QueueName): void;
  /**
   * Sends a job to `queue` on a cron schedule (UTC), from whichever process runs workers; registering
   * again replaces the schedule. Needs a queue started with `worker: true`.
   */
  schedule(queue: QueueName, cron: string, data?: object): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The queue as a request sees it (issue 26): every job it sends carries the request's id in its
 * payload (`requestId`), so the job's log lines, and the jobs it queues in turn, name the request.
 */
export function withRequestId(queue: JobQueue, requestId: string): JobQueue {
  return {
    send: (name, data, options) => queue.send(name, { requestId, ...data }, options),
    work: (name, handler, options) => queue.work(name, handler, options),
    wake: (name) => queue.wake(name),
    schedule: (name, cron, data) => queue.schedule(name, cron, data),
    stop: () => queue.stop(),
  };
}

/** The request id a job's payload carries, or null. */
export function requestIdOfPayload(data: unknown): string | null {
  const id = data && typeof data === 'object' ? (data as { requestId?: unknown }).requestId : null;
  return typeof id === 'string' && id.length > 0 && id.length <= 128 ? id : null;
}

/** True on the attempt after which the queue will not retry. */
export const isLastAttempt = (job: Pick<Job<unknown>, 'retryCount' | 'retryLimit'>) => job.retryCount >= job.retryLimit;
