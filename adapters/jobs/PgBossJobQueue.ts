import { createHash } from 'node:crypto';
import { CompiledQuery, type Transaction } from 'kysely';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import {
  DEFAULT_QUEUE_POLICIES,
  DEFAULT_QUEUE_POLICY,
  QUEUES,
  requestIdOfPayload,
  type JobHandler,
  type JobQueue,
  type QueueName,
  type QueuePolicy,
  type SendOptions,
  type WorkOptions,
} from '../../modules/jobs/index.ts';

/** A QueuePolicy in pg-boss's queue options. */
function queueOptions(policy: QueuePolicy) {
  return {
    retryLimit: policy.retryLimit,
    retryDelay: policy.retryDelaySeconds,
    retryBackoff: policy.retryBackoff,
    // pg-boss takes a maximum delay only with backoff.
    retryDelayMax: policy.retryBackoff ? (policy.retryDelayMaxSeconds ?? null) : null,
    expireInSeconds: policy.expireInSeconds,
    heartbeatSeconds: policy.heartbeatSeconds ?? null,
  };
}

/** A UUID derived from the queue and the key (name-based, like UUID v5 over SHA-256). */
export function jobId(queue: string, key: string): string {
  const h = createHash('sha256').update(`${queue}\u0000${key}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * pg-boss on the product's own PostgreSQL (the embedded one included). A job sent with `em` is
 * inserted through that EntityManager's open transaction (pg-boss's `db.executeSql`), so it is
 * committed or rolled back with the work (ADR 013).
 */
export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly logger: Logger;
  /** pg-boss worker ids of this process, per queue (for `wake`). */
  private readonly workers = new Map<QueueName, string[]>();

  private constructor(boss: PgBoss, logger: Logger) {
    this.boss = boss;
    this.logger = logger;
  }

  /**
   * Starts pg-boss, then creates or updates the queues of QUEUES to their policies. Where workers
   * run, pg-boss also supervises (retries jobs whose worker died, purges old jobs) and keeps the cron
   * schedules (schedule()).
   */
  static async start(options: {
    connectionString: string;
    logger: Logger;
    poolMax?: number;
    /** Supervise (retry jobs whose worker died, purge old jobs): where workers run. */
    worker?: boolean;
    /** Per-queue changes to DEFAULT_QUEUE_POLICIES (tests retry at once). */
    policies?: Partial<Record<QueueName, Partial<QueuePolicy>>>;
  }): Promise<PgBossJobQueue> {
    // The supervisor looks for dead attempts (stale heartbeats, expiry) every 5 s rather than every
    // 60 s: a supervise pass, and the per-queue monitor step it runs, are both on 5 s timers.
    const boss = new PgBoss({
      connectionString: options.connectionString,
      max: options.poolMax ?? 2,
      schema: 'pgboss',
      schedule: options.worker ?? false,
      supervise: options.worker ?? false,
      superviseIntervalSeconds: 5,
      monitorIntervalSeconds: 5,
    });
    boss.on('error', (err: unknown) => options.logger.error({ err }, 'job queue error'));
    await boss.start();
    for (const name of QUEUES) {
      const wanted = queueOptions({ ...DEFAULT_QUEUE_POLICY, ...DEFAULT_QUEUE_POLICIES[name], ...options.policies?.[name] });
      const existing = await boss.getQueue(name);
      if (!existing) {
        // pg-boss takes a missing option, not null, at creation.
        const created = Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== null)) as Omit<typeof wanted, 'retryDelayMax' | 'heartbeatSeconds'> & {
          retryDelayMax?: number;
          heartbeatSeconds?: number;
        };
        await boss.createQueue(name, created);
      } else if (Object.entries(wanted).some(([k, v]) => ((existing as unknown as Record<string, unknown>)[k] ?? null) !== v)) {
        await boss.updateQueue(name, wanted);
      }
    }
    return new PgBossJobQueue(boss, options.logger);
  }

  async send<T extends object>(queue: QueueName, data: T, options: SendOptions = {}): Promise<string | null> {
    const { em, key } = options;
    const ctx = em?.getTransactionContext<Transaction<unknown>>();
    if (em && !ctx) throw new Error('JobQueue.send with an EntityManager must be called inside em.transactional()');
    const db = ctx
      ? {
          executeSql: async (text: string, values?: unknown[]) => {
            const result = await ctx.executeQuery(CompiledQuery.raw(text, values ?? []));
            return { rows: result.rows as unknown[] };
          },
        }
      : undefined;
    return this.boss.send(queue, data, { ...(key ? { id: jobId(queue, key) } : {}), ...(db ? { db } : {}) });
  }

  /**
   * Each fetch takes up to `batchSize` jobs and runs them at once; each job succeeds or fails on its
   * own (pg-boss `perJobResults`: one failure never retries its neighbours). While fetches come back
   * full the worker fetches again at once (`burstWhenBatchFull`); otherwise it waits the polling
   * interval. With a batch of one, pg-boss would wait a whole interval after every job.
   */
  async work<T extends object>(queue: QueueName, handler: JobHandler<T>, options: WorkOptions = {}): Promise<void> {
    const batchSize = options.batchSize ?? 1;
    const concurrency = options.concurrency ?? 1;
    const workId = await this.boss.work<
      T,
      void,
      { includeMetadata: true; perJobResults: true; batchSize: number; burstWhenBatchFull: boolean; pollingIntervalSeconds: number; localConcurrency: number }
    >(
      queue,
      {
        includeMetadata: true,
        perJobResults: true,
        batchSize,
        burstWhenBatchFull: batchSize > 1,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        localConcurrency: concurrency,
      },
      async (jobs) =>
        Promise.all(
          jobs.map(async (job) => {
            try {
              await handler({ id: job.id, data: job.data, retryCount: job.retryCount, retryLimit: job.retryLimit, requestId: requestIdOfPayload(job.data) });
              return { id: job.id, status: 'completed' as const };
            } catch (error) {
              const failure = error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };
              return { id: job.id, status: 'failed' as const, output: failure };
            }
          }),
        ),
    );
    this.workers.set(queue, [...(this.workers.get(queue) ?? []), workId]);
  }

  wake(queue: QueueName): void {
    // pg-boss wakes the worker with this id (the first of its localConcurrency group).
    for (const id of this.workers.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  async schedule(queue: QueueName, cron: string, data: object = {}): Promise<void> {
    // missed 'once': a server that was down at the hour still runs the day's job when it comes back.
    await this.boss.schedule(queue, cron, data, { tz: 'UTC', missed: 'once' });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
    this.logger.debug('job queue stopped');
  }
}
