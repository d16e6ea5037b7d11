import pg from 'pg';
import type { DemoStore } from '../../modules/shared/index.ts';

type Row = { data: unknown };

const LIVE = '(expires_at is null or expires_at > now())';

/**
 * The DemoStore in PostgreSQL: one row per object in `demo.objects` (kind, id, data jsonb,
 * expires_at). It has a small pool of its own, as the services it stands in for (Stripe, Square) are
 * reached apart from the app's database work: a request holding the app's connection in a
 * transaction (the billing lock, ADR 072) can still reach the fake without waiting for a second
 * connection of the app's pool. `update` locks the row (select … for update) in a transaction; `take`
 * is one `delete … returning`, so it succeeds once whatever the number of instances.
 */
export class PgDemoStore implements DemoStore {
  private readonly pool: pg.Pool;

  constructor(options: { databaseUrl: string; max?: number; onIdleError?: (error: Error) => void }) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.max ?? 3 });
    // An idle connection the server dropped (a restart, a failover) is reported here and replaced on
    // the next query; unheard, the pool's 'error' event would end the process.
    this.pool.on('error', (error) => options.onIdleError?.(error));
  }

  async get<T>(kind: string, id: string): Promise<T | null> {
    const { rows } = await this.pool.query<Row>(`select data from demo.objects where kind = $1 and id = $2 and ${LIVE}`, [kind, id]);
    return (rows[0]?.data as T | undefined) ?? null;
  }

  async insert<T>(kind: string, id: string, data: T, options: { expiresAt?: Date } = {}): Promise<boolean> {
    // An expired object with this id makes room for the new one.
    await this.pool.query(`delete from demo.objects where kind = $1 and id = $2 and expires_at <= now()`, [kind, id]);
    const { rowCount } = await this.pool.query(
      `insert into demo.objects (kind, id, data, expires_at) values ($1, $2, $3::jsonb, $4) on conflict (kind, id) do nothing`,
      [kind, id, JSON.stringify(data), options.expiresAt ?? null],
    );
    return (rowCount ?? 0) > 0;
  }

  async update<T>(kind: string, id: string, change: (current: T) => T): Promise<T | null> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<Row>(`select data from demo.objects where kind = $1 and id = $2 and ${LIVE} for update`, [kind, id]);
      if (!rows[0]) {
        await client.query('rollback');
        return null;
      }
      const next = change(rows[0].data as T);
      await client.query(`update demo.objects set data = $3::jsonb where kind = $1 and id = $2`, [kind, id, JSON.stringify(next)]);
      await client.query('commit');
      return next;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async take<T>(kind: string, id: string): Promise<T | null> {
    const { rows } = await this.pool.query<Row & { live: boolean }>(`delete from demo.objects where kind = $1 and id = $2 returning data, ${LIVE} as live`, [kind, id]);
    return rows[0]?.live ? (rows[0].data as T) : null;
  }

  async findBy<T>(kind: string, field: string, value: string): Promise<T[]> {
    const { rows } = await this.pool.query<Row>(`select data from demo.objects where kind = $1 and data ->> $2 = $3 and ${LIVE} order by created_at, id`, [kind, field, value]);
    return rows.map((r) => r.data as T);
  }

  async latest<T>(kind: string, limit: number): Promise<T[]> {
    const { rows } = await this.pool.query<Row>(`select data from demo.objects where kind = $1 and ${LIVE} order by created_at desc, id desc limit $2`, [kind, limit]);
    return rows.map((r) => r.data as T);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
