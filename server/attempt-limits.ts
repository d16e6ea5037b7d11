import pg from 'pg';
import type { Logger } from 'pino';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { AttemptLimiter, RateRule, ThrottleStore } from '../modules/accounts/index.ts';

/**
 * The account doors' attempt counters in PostgreSQL (issue 26: every instance and every worker counts
 * together). Fixed windows by rate-limiter-flexible's RateLimiterPostgres on the edge's table
 * (`edge.rate_limits`), one limiter per rule, each with an in-memory stand-in while the database
 * does not answer; the sign-in throttle's failures in `edge.sign_in_failures`, counted by one upsert.
 * A small pool of their own, as the edge limiter has.
 */
export function createAttemptLimits(options: { databaseUrl: string; logger: Logger }): { limiter: AttemptLimiter; throttleStore: ThrottleStore; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on('error', (err) => options.logger.warn({ err }, 'attempt limits: database connection error'));
  const limiters = new Map<string, RateLimiterPostgres>();
  const limiterFor = (rule: RateRule) => {
    const duration = Math.max(1, Math.ceil(rule.windowMs / 1000));
    const keyPrefix = `attempts:${rule.limit}:${duration}`;
    let limiter = limiters.get(keyPrefix);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        schemaName: 'edge',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix,
        points: rule.limit,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: rule.limit, duration }),
      });
      limiters.set(keyPrefix, limiter);
    }
    return limiter;
  };

  const limiter: AttemptLimiter = {
    async hit(keys) {
      const settled = await Promise.allSettled(keys.map(([key, rule]) => limiterFor(rule).consume(key)));
      let wait = 0;
      for (const result of settled) {
        if (result.status === 'fulfilled') continue;
        if (result.reason instanceof RateLimiterRes) wait = Math.max(wait, Math.ceil(result.reason.msBeforeNext / 1000));
        else options.logger.warn({ err: result.reason }, 'attempt limiter failed; attempt allowed');
      }
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },
  };

  const throttleStore: ThrottleStore = {
    async get(key) {
      const { rows } = await pool.query<{ count: number; last_at: string; until: string }>('select count, last_at, until from edge.sign_in_failures where key = $1', [key]);
      const row = rows[0];
      return row ? { count: row.count, lastAt: Number(row.last_at), until: Number(row.until) } : null;
    },
    async recordFailure(key, now, forgetMs) {
      const { rows } = await pool.query<{ count: number }>(
        `insert into edge.sign_in_failures as f (key, count, last_at, until) values ($1, 1, $2, 0)
         on conflict (key) do update set
           count = case when f.last_at < $2 - $3 then 1 else f.count + 1 end,
           until = case when f.last_at < $2 - $3 then 0 else f.until end,
           last_at = $2
         returning count`,
        [key, now, forgetMs],
      );
      // Now and then, the keys nobody failed for a long time go.
      if (Math.random() < 0.01) await pool.query('delete from edge.sign_in_failures where last_at < $1', [now - forgetMs]);
      return rows[0]!.count;
    },
    async setUntil(key, until) {
      await pool.query('update edge.sign_in_failures set until = greatest(until, $2) where key = $1', [key, until]);
    },
    async clear(key) {
      await pool.query('delete from edge.sign_in_failures where key = $1', [key]);
    },
  };

  return { limiter, throttleStore, close: () => pool.end() };
}
