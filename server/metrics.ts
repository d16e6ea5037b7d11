import cluster from 'node:cluster';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type pg from 'pg';
import client from 'prom-client';
import { loggablePath } from '../modules/shared/index.ts';
import type { Root } from './root.ts';

/**
 * Prometheus metrics at `/metrics` (issue 26, item 5), with prom-client. Counted in each process:
 * the HTTP request durations by route and status, screenshot verification time, the database pool
 * (connections in use, idle and waited for) and the process's own metrics; with WEB_CONCURRENCY > 1
 * the worker that answers asks the cluster's primary, which sums every worker's figures (prom-client's
 * AggregatorRegistry). Read from the database at each scrape, once, by the worker that answers, so
 * every instance reports the same deployment-wide figures: the job queues' depth and oldest job's
 * age, rewards issued, failed and held, and screenshot verifications by verdict. Behind
 * `METRICS_TOKEN` (a Bearer token): 404 when no token is configured, 401 with a wrong or missing one.
 */
export type Metrics = {
  /** Times every request (mounted first in the pipeline). */
  middleware: (req: Request, res: Response, next: NextFunction) => void;
  /** GET /metrics. */
  handler: (req: Request, res: Response) => Promise<void>;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A request's route for a metric label, with few enough values to keep the series bounded: the
 * one-time link secrets written as `:token`, ids (UUIDs, long or numeric segments) as `:id`, built
 * assets as one route, and at most four segments.
 */
export function routeLabel(path: string): string {
  if (path.startsWith('/assets/')) return '/assets/:file';
  const segments = loggablePath(path)
    .split('/')
    .filter(Boolean)
    .slice(0, 4)
    .map((s) => (s === ':token' ? s : UUID.test(s) || /\d{3,}/.test(s) || s.length > 40 ? ':id' : s.replace(/[^\w.-]/g, '_')));
  return `/${segments.join('/')}`;
}

function sameToken(expected: string, header: string | undefined): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const ASK = 'rewardloop:metrics-request';
const ANSWER = 'rewardloop:metrics-answer';
type Answer = { type: typeof ANSWER; id: string; text?: string; error?: string };

/**
 * In the cluster's primary (WEB_CONCURRENCY > 1): answers a worker's request for the cluster's
 * metrics with every worker's per-process figures, summed (histograms and counters) by prom-client.
 */
export function serveClusterMetrics(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK) return;
    const reply = (answer: Omit<Answer, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** In a cluster worker: the cluster's summed per-process metrics, through the primary. */
function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', listen);
      reject(new Error('the cluster primary did not answer with the metrics within 6 s'));
    }, 6_000);
    const listen = (message: Answer) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', listen);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.text ?? '');
    };
    process.on('message', listen);
    process.send!({ type: ASK, id });
  });
}

export function createMetrics(root: Root): Metrics {
  // This process's figures (summed over the workers of a cluster) and the deployment's (read once).
  const registry = new client.Registry();
  const deployment = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'rewardloop_' });
  registry.registerMetric(root.instruments.verificationSeconds);
  const inCluster = cluster.isWorker && typeof process.send === 'function';
  if (inCluster) {
    // prom-client's worker side: the primary's AggregatorRegistry collects this registry.
    client.AggregatorRegistry.setRegistries([registry]);
    new client.AggregatorRegistry();
  }
  const sql = <T>(query: string) => root.db.orm.em.getConnection().execute<T[]>(query);

  let pool: pg.Pool | null = null;
  const poolStat = (name: string, help: string, read: (p: pg.Pool) => number) =>
    new client.Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        pool ??= await (root.db.orm.em.getConnection() as unknown as PostgreSqlConnection).getNativeClient();
        this.set(read(pool));
      },
    });
  poolStat('rewardloop_db_pool_connections_in_use', 'Connections of the database pool lent to a query or a transaction.', (p) => p.totalCount - p.idleCount);
  poolStat('rewardloop_db_pool_connections_idle', 'Open connections of the database pool waiting to be lent.', (p) => p.idleCount);
  poolStat('rewardloop_db_pool_waiting', 'Queries and transactions waiting for a connection of the database pool.', (p) => p.waitingCount);

  const httpDuration = new client.Histogram({
    name: 'rewardloop_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new client.Gauge({
    name: 'rewardloop_job_queue_depth',
    help: 'Jobs waiting to run (created or waiting for a retry), per queue.',
    labelNames: ['queue'] as const,
    registers: [deployment],
    async collect() {
      const rows = await sql<{ name: string; depth: number; oldest: number | null }>(
        `select name, count(*)::int as depth, extract(epoch from now() - min(created_on))::float8 as oldest
           from pgboss.job where state in ('created', 'retry') group by name`,
      ).catch(() => []);
      this.reset();
      for (const r of rows) this.set({ queue: r.name }, r.depth);
      oldestJob.reset();
      for (const r of rows) oldestJob.set({ queue: r.name }, r.oldest ?? 0);
    },
  });
  const oldestJob = new client.Gauge({
    name: 'rewardloop_job_queue_oldest_age_seconds',
    help: 'Age of the oldest job waiting to run, per queue (set with the depth).',
    labelNames: ['queue'] as const,
    registers: [deployment],
  });

  new client.Gauge({
    name: 'rewardloop_rewards',
    help: 'Rewards by state, deployment-wide: issued (a card exists), failed (after every retry), held (waiting for the owner or the customer).',
    labelNames: ['state'] as const,
    registers: [deployment],
    async collect() {
      const [row] = await sql<{ issued: number; failed: number; held: number }>(
        `select (select count(*)::int from gift_card_issuances) as issued,
                (select count(*)::int from gift_card_requests where failed_at is not null) as failed,
                (select count(*)::int from reward_holds where status in ('held', 'awaiting_email')) as held`,
      );
      this.set({ state: 'issued' }, row?.issued ?? 0);
      this.set({ state: 'failed' }, row?.failed ?? 0);
      this.set({ state: 'held' }, row?.held ?? 0);
    },
  });

  new client.Gauge({
    name: 'rewardloop_screenshot_verifications',
    help: 'Screenshot verifications by verdict (accepted, needs_review, or the rejection code), deployment-wide.',
    labelNames: ['verdict'] as const,
    registers: [deployment],
    async collect() {
      const rows = await sql<{ verdict: string; n: number }>(
        `select case when verdict = 'needs_review' then 'needs_review' when is_valid then 'accepted' else coalesce(rejection_code, 'rejected') end as verdict, count(*)::int as n
           from screenshot_verifications group by 1`,
      );
      this.reset();
      for (const r of rows) this.set({ verdict: r.verdict }, r.n);
    },
  });

  return {
    middleware(req, res, next) {
      const end = httpDuration.startTimer();
      res.on('finish', () => end({ method: req.method, route: routeLabel(req.path), status: String(res.statusCode) }));
      next();
    },
    async handler(req, res) {
      const token = root.config.METRICS_TOKEN;
      if (!token) {
        res.status(404).json({ message: 'Not Found' });
        return;
      }
      if (!sameToken(token, req.headers.authorization)) {
        res.status(401).setHeader('WWW-Authenticate', 'Bearer').json({ message: 'A valid metrics token is required.' });
        return;
      }
      try {
        // The pool is read before the scrape's own queries borrow from it.
        const own = await (inCluster ? askPrimary() : registry.metrics());
        const shared = await deployment.metrics();
        res.status(200).type(registry.contentType).send(`${own.trimEnd()}\n${shared}`);
      } catch (error) {
        root.logger.error({ err: error }, 'metrics could not be collected');
        res.status(503).json({ message: 'The metrics could not be collected; the database may not be answering.' });
      }
    },
  };
}
