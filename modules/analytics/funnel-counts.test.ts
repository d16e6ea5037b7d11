import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFunnelCounts, type FunnelCounts, type FunnelRow } from './funnel-counts.ts';

const logger = { warn: vi.fn() };
const survey = { businessId: 'b1', surveyId: 's1' };
const opened: FunnelCounts[] = [];

function counts(write: (rows: FunnelRow[]) => Promise<void>, now = () => new Date('2026-11-27T10:00:00Z'), intervalMs = 60_000) {
  const c = createFunnelCounts({ write, logger, now, intervalMs });
  opened.push(c);
  return c;
}

afterEach(async () => {
  for (const c of opened.splice(0)) await c.close().catch(() => undefined);
  vi.useRealTimers();
});

describe('funnel counts (ADR 081)', () => {
  it('adds events up per survey, day and step and writes them in one call', async () => {
    const writes: FunnelRow[][] = [];
    const c = counts(async (rows) => void writes.push(rows));
    for (let i = 0; i < 5; i++) c.add({ ...survey, events: [{ step: 'view' }] });
    c.add({ ...survey, events: [{ step: 'start' }, { step: 'section', section: 2 }] });
    c.add({ businessId: 'b2', surveyId: 's2', events: [{ step: 'view' }] });
    await c.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toEqual([
      { surveyId: 's1', businessId: 'b1', day: '2026-11-27', step: 'view', count: 5 },
      { surveyId: 's1', businessId: 'b1', day: '2026-11-27', step: 'start', count: 1 },
      { surveyId: 's1', businessId: 'b1', day: '2026-11-27', step: 'section:2', count: 1 },
      { surveyId: 's2', businessId: 'b2', day: '2026-11-27', step: 'view', count: 1 },
    ]);
    // Written once: a second flush has nothing to write.
    await c.flush();
    expect(writes).toHaveLength(1);
  });

  it('counts each view on the UTC day it happened', async () => {
    const writes: FunnelRow[] = [];
    let at = new Date('2026-11-27T23:59:59Z');
    const c = counts(async (rows) => void writes.push(...rows), () => at);
    c.add({ ...survey, events: [{ step: 'view' }] });
    at = new Date('2026-11-28T00:00:01Z');
    c.add({ ...survey, events: [{ step: 'view' }] });
    await c.flush();
    expect(writes.map((r) => [r.day, r.count])).toEqual([
      ['2026-11-27', 1],
      ['2026-11-28', 1],
    ]);
  });

  it('keeps what a failed write held and writes it, once, with what came after', async () => {
    const writes: FunnelRow[][] = [];
    let down = true;
    const c = counts(async (rows) => {
      if (down) throw new Error('database restarting');
      writes.push(rows);
    });
    c.add({ ...survey, events: [{ step: 'view' }, { step: 'view' }] });
    await expect(c.flush()).rejects.toThrow('database restarting');
    c.add({ ...survey, events: [{ step: 'view' }] });
    down = false;
    await c.flush();
    expect(writes).toEqual([[{ surveyId: 's1', businessId: 'b1', day: '2026-11-27', step: 'view', count: 3 }]]);
  });

  it('never writes a count twice when flushes overlap, and loses none added during a write', async () => {
    const writes: FunnelRow[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let first = true;
    const c = counts(async (rows) => {
      if (first) {
        first = false;
        await gate;
      }
      writes.push(rows);
    });
    c.add({ ...survey, events: [{ step: 'view' }] });
    const one = c.flush();
    c.add({ ...survey, events: [{ step: 'view' }, { step: 'view' }] });
    const two = c.flush();
    release();
    await Promise.all([one, two]);
    expect(writes.map((rows) => rows.map((r) => r.count))).toEqual([[1], [2]]);
  });

  it('writes on its own every interval, and what is left on close', async () => {
    vi.useFakeTimers();
    const writes: FunnelRow[] = [];
    const c = createFunnelCounts({ write: async (rows) => void writes.push(...rows), logger, intervalMs: 2_000, now: () => new Date('2026-11-27T10:00:00Z') });
    c.add({ ...survey, events: [{ step: 'view' }] });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes.map((r) => r.count)).toEqual([1]);
    c.add({ ...survey, events: [{ step: 'start' }] });
    await c.close();
    expect(writes.map((r) => r.step)).toEqual(['view', 'start']);
    // Closed: the timer writes nothing more.
    c.add({ ...survey, events: [{ step: 'view' }] });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(writes).toHaveLength(2);
  });
});
