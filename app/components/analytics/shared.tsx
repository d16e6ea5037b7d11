import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { analyticsSearch, type AnalyticsQuery } from '../../../modules/analytics/index.ts';
import { PLATFORM_LABELS, type Platform } from '../../../modules/surveys/index.ts';
import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { buttonClass } from '../ui.tsx';

/** The analytics page's shared pieces: UTC date formats, the table that stacks into cards on a phone, stat cards, pagination and the CSV export link. (Split from analytics.tsx by tab, issue 28 item 4.) */

/** Dates are shown in UTC, as the figures are computed (weeks and months in UTC). */
export function formatDay(iso: string) {
  return new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}
export function formatWhen(iso: string) {
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}
export const formatCount = (n: number) => n.toLocaleString('en-US');

export const platformLabel = (p: string | null) => (p ? (PLATFORM_LABELS[p as Platform] ?? p) : null);


export function ResponsiveTable({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <div className="md:rounded-card md:border md:border-slate-200 md:bg-white md:shadow-sm">
      <table className="w-full text-left max-md:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-sm text-slate-600 max-md:sr-only">
          <tr>
            {headers.map((h) => (
              <th key={h} scope="col" className="px-3 py-3 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block max-md:space-y-3 max-md:divide-y-0">{children}</tbody>
      </table>
    </div>
  );
}

export const rowClass = 'max-md:block max-md:rounded-card max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-sm';

export function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-3xl font-bold">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** A link to another view of the same page: the survey, the tab and the dates are kept. */
export function useHref(data: AnalyticsPageData) {
  return (change: Partial<AnalyticsQuery>) => {
    const q = { ...data.query, ...change };
    return data.basePath + analyticsSearch({ survey: data.pickerValue, tab: q.tab, from: q.from, to: q.to, q: q.q, language: q.language, page: q.page });
  };
}

export function Pagination({ page, pageCount, total, pageSize, noun, href }: { page: number; pageCount: number; total: number; pageSize: number; noun: string; href: (page: number) => string }) {
  if (total === 0) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label={`${noun} pages`} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700">
        Showing {formatCount(first)}–{formatCount(last)} of {formatCount(total)} {noun}
        {pageCount > 1 ? ` · page ${formatCount(page)} of ${formatCount(pageCount)}` : ''}
      </p>
      {pageCount > 1 ? (
        <div className="flex gap-2">
          {page > 1 ? (
            <Link to={href(page - 1)} className={buttonClass.secondary} rel="prev">
              Previous
            </Link>
          ) : null}
          {page < pageCount ? (
            <Link to={href(page + 1)} className={buttonClass.secondary} rel="next">
              Next
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}

export function exportHref(data: AnalyticsPageData, kind: 'responses' | 'giftcards') {
  return `/survey-analytics/export/${kind}${analyticsSearch({ survey: data.survey?.id ?? null, from: data.query.from, to: data.query.to, q: kind === 'responses' ? data.query.q : '', language: kind === 'responses' ? data.query.language : '' })}`;
}

export function ExportLink({ data, kind }: { data: AnalyticsPageData; kind: 'responses' | 'giftcards' }) {
  return (
    <a href={exportHref(data, kind)} download className={buttonClass.secondary}>
      Export CSV
    </a>
  );
}
