/**
 * The funnel's first-party counts (ADR 026), added up in this process and written every few seconds
 * (ADR 081). Every customer page view used to be one upsert on its survey's row of the day: under
 * load all views of a survey queue on that one row's lock and on a commit each, so a second web
 * worker served no more pages than one. Counts are now summed in memory and written as one upsert per
 * (survey, day, step) every `intervalMs`, when this instance's own figures are read, and when the
 * process drains. Each instance adds its own deltas, so several instances on one database count
 * right; a process killed with SIGKILL loses at most `intervalMs` of page views, starts and sections
 * (anonymous analytics, never a response, a reward or money).
 */
import type { EntityManager } from '@mikro-orm/core';
import { stepName, type FunnelEvent } from './funnel.ts';

export type FunnelRow = { surveyId: string; businessId: string; day: string; step: string; count: number };

export type FunnelCounts = {
  /** Counts events of a live survey on today's row (UTC); written by the next flush. */
  add(input: { businessId: string; surveyId: string; events: Array<FunnelEvent | { step: 'view' }> }): void;
  /** Writes what was counted so far (one statement); concurrent calls share one write. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
};

type Logger = { warn(obj: object, msg: string): void };

/** Rows kept at most while the database cannot be written (then the newest are dropped, with a warning). */
const MAX_PENDING_ROWS = 10_000;

export function createFunnelCounts(deps: {
  write: (rows: FunnelRow[]) => Promise<void>;
  logger: Logger;
  intervalMs?: number;
  now?: () => Date;
}): FunnelCounts {
  const now = deps.now ?? (() => new Date());
  let pending = new Map<string, FunnelRow>();
  let writing: Promise<void> | null = null;
  let dropped = 0;

  function merge(row: FunnelRow) {
    const key = `${row.surveyId}|${row.day}|${row.step}`;
    const existing = pending.get(key);
    if (existing) existing.count += row.count;
    else if (pending.size < MAX_PENDING_ROWS) pending.set(key, { ...row });
    else dropped += row.count;
  }

  async function writeOnce(): Promise<void> {
    if (pending.size === 0) return;
    const rows = [...pending.values()];
    pending = new Map();
    try {
      await deps.write(rows);
    } catch (error) {
      // Kept for the next flush (the database may be restarting): counted once, whenever written.
      for (const row of rows) merge(row);
      throw error;
    } finally {
      if (dropped > 0) {
        deps.logger.warn({ dropped }, 'funnel counts dropped: the database could not be written for too long');
        dropped = 0;
      }
    }
  }

  async function flush(): Promise<void> {
    // One write at a time; a flush asked for while one runs writes after it (what was added meanwhile).
    while (writing) await writing.catch(() => undefined);
    writing = writeOnce().finally(() => {
      writing = null;
    });
    return writing;
  }

  const timer = setInterval(() => {
    flush().catch((err: unknown) => deps.logger.warn({ err }, 'funnel counts not written; kept for the next try'));
  }, deps.intervalMs ?? 2_000);
  timer.unref();

  return {
    add(input) {
      const day = now().toISOString().slice(0, 10);
      for (const event of input.events) merge({ surveyId: input.surveyId, businessId: input.businessId, day, step: stepName(event), count: 1 });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}

/**
 * The write of a flush: one upsert adding each row's count to the stored one. A survey deleted since
 * its views were counted is skipped (its counts went with it), so it never blocks the others.
 */
export function funnelCountsWriter(em: EntityManager): (rows: FunnelRow[]) => Promise<void> {
  return async (rows) => {
    if (rows.length === 0) return;
    const values = rows.map(() => '(?::uuid, ?::uuid, ?::date, ?::varchar(20), ?::int)').join(', ');
    await em.getConnection().execute(
      `insert into survey_funnel_counts (survey_config_id, business_id, day, step, count)
       select v.survey_config_id, v.business_id, v.day, v.step, v.count
         from (values ${values}) as v (survey_config_id, business_id, day, step, count)
         join survey_configs s on s.id = v.survey_config_id and s.business_id = v.business_id
       on conflict (survey_config_id, day, step) do update set count = survey_funnel_counts.count + excluded.count`,
      rows.flatMap((r) => [r.surveyId, r.businessId, r.day, r.step, r.count]),
      'run',
    );
  };
}
