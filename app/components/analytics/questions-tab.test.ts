import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MIN_POINTS_FOR_A_TREND } from '../analytics-charts.tsx';
import { WeeklyRatings } from './questions-tab.tsx';

/** The weekly ratings chart below the threshold says 'Not enough data yet' instead of a lone dot (issue 27, docs/design.md). */

type Weeks = Parameters<typeof WeeklyRatings>[0]['weeks'];
const week = (day: string, averageRating: number | null, responses = 1) => ({ week: `${day}T00:00:00.000Z`, responses, averageRating });
const render = (weeks: Weeks) => renderToStaticMarkup(createElement(WeeklyRatings, { weeks }));

describe('WeeklyRatings', () => {
  it('draws no chart for one week of data: it says not enough data yet, and the table keeps the numbers', () => {
    const html = render([week('2026-11-23', 4.5, 2)]);
    expect(MIN_POINTS_FOR_A_TREND).toBe(3);
    expect(html).toContain('Not enough data yet');
    expect(html).toContain('The chart appears once 3 weeks have data (1 so far).');
    expect(html).not.toContain('data-chart="Ratings over time"');
    expect(html).toContain('data-testid="weekly-table"');
    expect(html).toContain('4.5');
  });

  it('counts only weeks with a rating: two rated weeks and an empty one are still not enough', () => {
    const html = render([week('2026-11-09', 4), week('2026-11-16', null, 0), week('2026-11-23', 3)]);
    expect(html).toContain('Not enough data yet');
    expect(html).toContain('(2 so far)');
  });

  it('draws the line from three rated weeks on', () => {
    const html = render([week('2026-11-09', 4), week('2026-11-16', 3.5), week('2026-11-23', 5)]);
    expect(html).not.toContain('Not enough data yet');
    expect(html).toContain('data-chart="Ratings over time"');
    expect(html).toContain('<polyline');
  });

  it('shows nothing at all before the first rating', () => {
    expect(render([])).toBe('');
  });
});
