import { describe, expect, it } from 'vitest';
import { weekOf } from './index.ts';

describe('weekOf: the calendar week (UTC, from Monday 00:00) the owner’s home counts', () => {
  it.each([
    ['2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z'], // Monday at midnight: its own week
    ['2026-11-27T13:30:00.000Z', '2026-11-23T00:00:00.000Z'], // Friday
    ['2026-11-29T23:59:59.999Z', '2026-11-23T00:00:00.000Z'], // Sunday night: still the same week
    ['2026-03-01T08:00:00.000Z', '2026-02-23T00:00:00.000Z'], // across a month end
  ])('%s is in the week from %s', (now, monday) => {
    const { from, to } = weekOf(new Date(now));
    expect(from.toISOString()).toBe(monday);
    expect(to.getTime() - from.getTime()).toBe(7 * 86_400_000);
  });
});
