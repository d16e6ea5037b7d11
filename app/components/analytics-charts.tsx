import type { ReactNode } from 'react';

/**
 * Server-rendered SVG charts for the analytics pages (issue 12). They need no JavaScript, and each is
 * drawn beside a table with the same numbers: the SVG is decoration for sighted readers
 * (aria-hidden), the table is what a screen reader reads. Bars are laid out in percentages and
 * labels in real pixels, so the text stays readable at 360 px.
 */

export type Bar = { label: string; value: number; display: string; fillClass: string };

/** Horizontal bars, one row each: the label and value above, the bar below (its width relative to the largest). */
export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 46;
  return (
    <svg width="100%" height={bars.length * row} role="presentation" aria-hidden="true" data-chart={title} className="block overflow-visible">
      {bars.map((b, i) => {
        const y = i * row;
        const width = (b.value / max) * 100;
        return (
          <g key={b.label}>
            <text x="0" y={y + 14} className="fill-slate-800 text-[13px] font-medium">
              {b.label}
            </text>
            <text x="100%" y={y + 14} textAnchor="end" className="fill-slate-700 text-[13px]">
              {b.display}
            </text>
            <rect x="0" y={y + 20} width="100%" height="16" rx="4" className="fill-slate-100" />
            {b.value > 0 ? <rect x="0" y={y + 20} width={`${Math.max(width, 0.8)}%`} height="16" rx="4" className={b.fillClass} /> : null}
          </g>
        );
      })}
    </svg>
  );
}

export type LinePoint = { label: string; value: number | null };

/**
 * A line needs this many points with a value before it says anything: one week is a lone dot, two a
 * line that a single customer can tip. Below it the chart's place says 'Not enough data yet'.
 */
export const MIN_POINTS_FOR_A_TREND = 3;

/** The points of a line that carry a value (a week without ratings is a gap, not a point). */
export const pointsWithValue = (points: LinePoint[]) => points.filter((p) => p.value !== null).length;

/**
 * The place of a chart that has too little to draw: the same height as the chart (the layout does
 * not jump when data arrives), what will appear and when.
 */
export function NotEnoughData({ title, have, need, unit }: { title: string; have: number; need: number; unit: string }) {
  return (
    <div data-chart-empty={title} className="flex h-40 flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 text-center">
      <p className="font-semibold text-slate-800">Not enough data yet</p>
      <p className="mt-1 text-sm text-slate-700">
        The chart appears once {need} {unit}s have data ({have} so far).
      </p>
    </div>
  );
}

/**
 * A line over time on a fixed scale (`min`..`max`, e.g. ratings 1-5), with grid lines. Drawn in a
 * stretched viewBox with non-scaling strokes; the axis labels are HTML, so they keep their size.
 */
export function LineChart({ points, min, max, ticks, title }: { points: LinePoint[]; min: number; max: number; ticks: number[]; title: string }) {
  const width = Math.max(1, points.length - 1);
  const height = 100;
  const y = (v: number) => height - ((v - min) / (max - min)) * height;
  const segments: string[][] = [];
  let current: string[] = [];
  points.forEach((p, i) => {
    if (p.value === null) {
      if (current.length) segments.push(current);
      current = [];
      return;
    }
    current.push(`${points.length === 1 ? 0.5 : i},${y(p.value).toFixed(2)}`);
  });
  if (current.length) segments.push(current);
  const first = points[0]?.label;
  const last = points[points.length - 1]?.label;
  return (
    <div aria-hidden="true" data-chart={title}>
      <div className="flex gap-2">
        <div className="relative h-40 w-6 shrink-0 text-right text-xs text-slate-600">
          {ticks.map((t) => (
            <span key={t} className="absolute right-0 -translate-y-1/2" style={{ top: `${(y(t) / height) * 100}%` }}>
              {t}
            </span>
          ))}
        </div>
        <svg viewBox={`0 0 ${points.length === 1 ? 1 : width} ${height}`} preserveAspectRatio="none" className="h-40 w-full overflow-visible">
          {ticks.map((t) => (
            <line key={t} x1="0" x2={points.length === 1 ? 1 : width} y1={y(t)} y2={y(t)} className="stroke-slate-200" strokeWidth="1" vectorEffect="non-scaling-stroke" />
          ))}
          {segments.map((s, i) =>
            s.length === 1 ? (
              <line
                key={i}
                x1={s[0]!.split(',')[0]}
                x2={s[0]!.split(',')[0]}
                y1={Number(s[0]!.split(',')[1]) - 1.5}
                y2={Number(s[0]!.split(',')[1]) + 1.5}
                className="stroke-brand-600"
                strokeWidth="6"
                strokeLinecap="round"
                vectorEffect="non-scaling-stroke"
              />
            ) : (
              <polyline key={i} points={s.join(' ')} fill="none" className="stroke-brand-600" strokeWidth="2.5" strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
            ),
          )}
        </svg>
      </div>
      <div className="mt-1 flex justify-between pl-8 text-xs text-slate-600">
        <span>{first}</span>
        {last !== first ? <span>{last}</span> : null}
      </div>
    </div>
  );
}

/** A chart with its data table: the figure's caption names both; the table can be opened below the chart. */
export function ChartFigure({ caption, chart, table, tableOpen = false }: { caption: string; chart: ReactNode; table: ReactNode; tableOpen?: boolean }) {
  return (
    <figure className="space-y-3">
      <figcaption className="font-semibold">{caption}</figcaption>
      {chart}
      {tableOpen ? (
        table
      ) : (
        <details>
          <summary className="inline-flex min-h-11 cursor-pointer items-center text-sm font-medium text-brand-700">Show the numbers as a table</summary>
          {table}
        </details>
      )}
    </figure>
  );
}
