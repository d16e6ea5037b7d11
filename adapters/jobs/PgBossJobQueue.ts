import { createHash } from 'node:crypto';
import { CompiledQuery, type Transaction } from 'kysely';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { QUEUES, type JobHandler, type JobQueue, type QueueName, type SendOptions } from '../../modules/jobs/port.ts';

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
 * inserted through that EntityManager's open transaction (pg-boss's `db.executeSql`), never
 * through pg-boss's own pool: on the embedded database a second connection would wait for the
 * transaction to end while the transaction waits for it.
 */
export class PgBossJobQueue implements JobQueue {
  private readonly boss: PgBoss;
  private readonly logger: Logger;

  private constructor(boss: PgBoss, logger: Logger) {
    this.boss = boss;
    this.logger = logger;
  }

  /**
   * Creates the queues, then starts the instance that is used: pg-boss fills its queue cache at
   * start, so no `send` ever needs its pool to look a queue up (which inside an open transaction
   * on the embedded database would deadlock).
   */
  static async start(options: { connectionString: string; logger: Logger; poolMax?: number; worker?: boolean }): Promise<PgBossJobQueue> {
    const base = { connectionString: options.connectionString, max: options.poolMax ?? 2, schema: 'pgboss' };
    const setup = new PgBoss({ ...base, schedule: false, supervise: false });
    setup.on('error', (err: unknown) => options.logger.error({ err }, 'job queue setup error'));
    await setup.start();
    for (const name of QUEUES) {
      if (!(await setup.getQueue(name))) await setup.createQueue(name);
    }
    await setup.stop({ graceful: false });
    const boss = new PgBoss({ ...base, schedule: false, supervise: options.worker ?? false });
    boss.on('error', (err: unknown) => options.logger.error({ err }, 'job queue error'));
    await boss.start();
    return new PgBossJobQueue(boss, options.logger);
  }

  async send<T extends object>(queue: QueueName, data: T, options: SendOptions = {}): Promise<string | null> {
    const { em, key, ...jobOptions } = options;
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
    return this.boss.send(queue, data, { ...jobOptions, ...(key ? { id: jobId(queue, key) } : {}), ...(db ? { db } : {}) });
  }

  async work<T extends object>(queue: QueueName, handler: JobHandler<T>): Promise<void> {
    await this.boss.work<T>(queue, async (jobs) => {
      for (const job of jobs) {
        await handler({ id: job.id, data: job.data, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
      }
    });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
    this.logger.debug('job queue stopped');
  }
}
