import { Form, Link, useSubmit } from '@remix-run/react';
import type { ReactNode } from 'react';
import { analyticsSearch, REWARD_STATUS_LABELS, TAB_LABELS, TABS, type AnalyticsQuery, type RewardStatus, type Tab } from '../../modules/analytics/index.ts';
import { formatCents } from '../../modules/scoring/index.ts';
import { PLATFORM_LABELS, type Platform } from '../../modules/surveys/index.ts';
import type { AnalyticsPageData } from '../utils/analytics.server.ts';
import { BarChart, ChartFigure, LineChart } from './analytics-charts.tsx';
import { Cell, Customer, IssuedCardCells, pill, TierBadge } from './gift-card-ui.tsx';
import { buttonClass, Card, useHydrated } from './ui.tsx';

/** The survey analytics page (spec section 2), for /survey-analytics and /survey-analytics/{id}. Server-rendered; every control is a link or a GET form. */


/** Dates are shown in UTC, as the figures are computed (weeks and months in UTC). */
export function formatDay(iso: string) {
  return new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
}
export function formatWhen(iso: string) {
  return `${new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;
}
const formatCount = (n: number) => n.toLocaleString('en-US');

export const platformLabel = (p: string | null) => (p ? (PLATFORM_LABELS[p as Platform] ?? p) : null);


function ResponsiveTable({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
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

const rowClass = 'max-md:block max-md:rounded-card max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-sm';

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="rounded-card border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-3xl font-bold">{value}</dd>
      {note ? <dd className="mt-1 text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** A link to another view of the same page: the survey, the tab and the dates are kept. */
function useHref(data: AnalyticsPageData) {
  return (change: Partial<AnalyticsQuery>) => {
    const q = { ...data.query, ...change };
    return data.basePath + analyticsSearch({ survey: data.pickerValue, tab: q.tab, from: q.from, to: q.to, q: q.q, page: q.page });
  };
}

function Pagination({ page, pageCount, total, pageSize, noun, href }: { page: number; pageCount: number; total: number; pageSize: number; noun: string; href: (page: number) => string }) {
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

function SurveyPicker({ data }: { data: AnalyticsPageData }) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  if (!data.picker) return null;
  return (
    <Form method="get" action="/survey-analytics" className="flex flex-wrap items-end gap-2" onChange={(e) => submit(e.currentTarget)}>
      <div>
        <label htmlFor="survey-picker" className="mb-1 block text-sm font-medium text-slate-800">
          Survey
        </label>
        <select
          id="survey-picker"
          name="survey"
          defaultValue={data.pickerValue ?? 'all'}
          className="block min-h-11 w-full max-w-xs rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm sm:w-72"
        >
          <option value="all">All Surveys</option>
          {data.picker.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      {data.query.tab !== 'responses' ? <input type="hidden" name="tab" value={data.query.tab} /> : null}
      {data.query.from ? <input type="hidden" name="from" value={data.query.from} /> : null}
      {data.query.to ? <input type="hidden" name="to" value={data.query.to} /> : null}
      {hydrated ? null : (
        <button type="submit" className={buttonClass.secondary}>
          Show
        </button>
      )}
    </Form>
  );
}

function DateFilter({ data }: { data: AnalyticsPageData }) {
  const error = data.error && (data.error.field === 'from' || data.error.field === 'to') ? data.error : null;
  const clear = data.basePath + analyticsSearch({ survey: data.pickerValue, tab: data.query.tab });
  return (
    <Form method="get" action={data.basePath} className="flex flex-wrap items-end gap-2" aria-describedby={error ? 'date-error' : undefined}>
      {data.pickerValue ? <input type="hidden" name="survey" value={data.pickerValue} /> : null}
      {data.query.tab !== 'responses' ? <input type="hidden" name="tab" value={data.query.tab} /> : null}
      {data.query.q ? <input type="hidden" name="q" value={data.query.q} /> : null}
      <div>
        <label htmlFor="from" className="mb-1 block text-sm font-medium text-slate-800">
          From
        </label>
        <input
          id="from"
          name="from"
          type="date"
          defaultValue={data.query.from}
          aria-invalid={error?.field === 'from' || undefined}
          aria-describedby={error?.field === 'from' ? 'date-error' : undefined}
          className="block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
        />
      </div>
      <div>
        <label htmlFor="to" className="mb-1 block text-sm font-medium text-slate-800">
          To
        </label>
        <input
          id="to"
          name="to"
          type="date"
          defaultValue={data.query.to}
          aria-invalid={error?.field === 'to' || undefined}
          aria-describedby={error?.field === 'to' ? 'date-error' : undefined}
          className="block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
        />
      </div>
      <button type="submit" className={buttonClass.secondary}>
        Apply dates
      </button>
      {data.query.from || data.query.to ? (
        <Link to={clear} className="inline-flex min-h-11 items-center px-2 font-medium text-brand-700 underline-offset-2 hover:underline">
          All dates
        </Link>
      ) : null}
      {error ? (
        <p id="date-error" role="alert" className="basis-full text-sm font-medium text-red-700">
          {error.message}
        </p>
      ) : null}
    </Form>
  );
}

function Tabs({ data }: { data: AnalyticsPageData }) {
  const href = useHref(data);
  return (
    <nav aria-label="Analytics sections">
      <ul className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {TABS.map((tab) => {
          const active = data.query.tab === tab;
          return (
            <li key={tab}>
              <Link
                to={href({ tab, page: 1, q: '' })}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center border-b-2 px-3 font-medium whitespace-nowrap ${
                  active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900'
                }`}
              >
                {TAB_LABELS[tab]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Stars({ rating }: { rating: number }) {
  return (
    <span aria-label={`${rating} of 5 stars`} className="text-gold">
      {'★'.repeat(Math.max(0, Math.min(5, rating)))}
      <span className="text-slate-300">{'★'.repeat(Math.max(0, 5 - rating))}</span>
    </span>
  );
}

function ReviewData({ row }: { row: NonNullable<AnalyticsPageData['responses']>['rows'][number] }) {
  return (
    <div className="space-y-1 text-sm">
      {row.overallRating !== null ? (
        <p>
          Rated <Stars rating={row.overallRating} />
        </p>
      ) : null}
      {row.reviewPlatform ? (
        <p className="text-slate-700">
          {platformLabel(row.reviewPlatform)} review{row.reviewStarRating !== null ? ` (${row.reviewStarRating}★)` : ''}
          {row.reviewerName ? ` by ${row.reviewerName}` : ''}
        </p>
      ) : (
        <p className="text-slate-600">No review shared</p>
      )}
    </div>
  );
}

/** A response's reward with where it stands: a rejected one struck through and marked, a held one marked (issue 27 item 4). */
function RewardCell({ value, status }: { value: number | null; status: RewardStatus }) {
  if (!value) return <span className="font-semibold">—</span>;
  const marked = status === 'rejected' || status === 'held';
  return (
    <span className="flex flex-col items-start gap-1">
      <span className={`font-semibold ${status === 'rejected' ? 'text-slate-500 line-through' : ''}`}>{formatCents(value)}</span>
      {marked ? (
        <span
          data-testid="reward-status"
          className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${status === 'rejected' ? 'border-red-300 bg-red-50 text-red-800' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
        >
          {REWARD_STATUS_LABELS[status]}
        </span>
      ) : null}
    </span>
  );
}

/** The CSV of what the tab shows (survey, dates and, for responses, the search). A plain download link. */
function exportHref(data: AnalyticsPageData, kind: 'responses' | 'giftcards') {
  return `/survey-analytics/export/${kind}${analyticsSearch({ survey: data.survey?.id ?? null, from: data.query.from, to: data.query.to, q: kind === 'responses' ? data.query.q : '' })}`;
}

function ExportLink({ data, kind }: { data: AnalyticsPageData; kind: 'responses' | 'giftcards' }) {
  return (
    <a href={exportHref(data, kind)} download className={buttonClass.secondary}>
      Export CSV
    </a>
  );
}

function ResponsesTab({ data }: { data: AnalyticsPageData }) {
  const responses = data.responses!;
  const href = useHref(data);
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="sr-only">
        All Responses
      </h2>
      <Form method="get" action={data.basePath} role="search" className="flex flex-wrap items-end gap-2">
        {data.pickerValue ? <input type="hidden" name="survey" value={data.pickerValue} /> : null}
        {data.query.from ? <input type="hidden" name="from" value={data.query.from} /> : null}
        {data.query.to ? <input type="hidden" name="to" value={data.query.to} /> : null}
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <label htmlFor="search" className="mb-1 block text-sm font-medium text-slate-800">
            Search by email or name
          </label>
          <input
            id="search"
            name="q"
            type="search"
            maxLength={100}
            defaultValue={data.query.q}
            className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
          />
        </div>
        <button type="submit" className={buttonClass.secondary}>
          Search
        </button>
        {data.query.q ? (
          <Link to={href({ q: '', page: 1 })} className="inline-flex min-h-11 items-center px-2 font-medium text-brand-700 underline-offset-2 hover:underline">
            Clear search
          </Link>
        ) : null}
        {responses.total > 0 ? (
          <div className="sm:ml-auto">
            <ExportLink data={data} kind="responses" />
          </div>
        ) : null}
      </Form>
      {responses.total === 0 ? (
        <p className="rounded-card border border-slate-200 bg-white p-6 text-slate-700">
          {data.query.q ? `No response matches "${data.query.q}".` : 'No responses in this period.'}
        </p>
      ) : (
        <>
          <ResponsiveTable caption="Survey responses, newest first" headers={['Customer', 'Review data', 'Points', 'Tier', 'Reward', 'Submitted', '']}>
            {responses.rows.map((r) => (
              <tr key={r.id} data-testid="response-row" className={rowClass}>
                <Cell label="Customer">
                  <Customer name={r.customerName} email={r.customerEmail} />
                </Cell>
                <Cell label="Review data">
                  <ReviewData row={r} />
                </Cell>
                <Cell label="Points" className="font-semibold">
                  {r.totalPoints}
                </Cell>
                <Cell label="Tier">
                  <TierBadge tier={r.rewardTier} />
                </Cell>
                <Cell label="Reward" className="whitespace-nowrap">
                  <RewardCell value={r.rewardValue} status={r.rewardStatus} />
                </Cell>
                <Cell label="Submitted" className="text-sm whitespace-nowrap text-slate-700">
                  <time dateTime={r.submittedAt}>{formatWhen(r.submittedAt)}</time>
                  {!data.survey && r.surveyTitle ? <p className="text-xs whitespace-normal text-slate-600">{r.surveyTitle}</p> : null}
                </Cell>
                <Cell label="">
                  <Link to={`/survey-analytics/responses/${r.id}`} className="inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-2 hover:underline">
                    View<span className="sr-only"> the response of {r.customerName ?? r.customerEmail ?? 'this customer'}</span>
                  </Link>
                </Cell>
              </tr>
            ))}
          </ResponsiveTable>
          <Pagination page={responses.page} pageCount={responses.pageCount} total={responses.total} pageSize={responses.pageSize} noun="responses" href={(page) => href({ page })} />
        </>
      )}
    </section>
  );
}

const TIER_FILL: Record<string, string> = { Bronze: 'fill-bronze', Silver: 'fill-silver', Gold: 'fill-gold' };

function DistributionTab({ data }: { data: AnalyticsPageData }) {
  const { total, tiers } = data.distribution!;
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="text-lg font-semibold">
        Reward Distribution
      </h2>
      {total === 0 ? (
        <p className="rounded-card border border-slate-200 bg-white p-6 text-slate-700">No responses in this period.</p>
      ) : (
        <Card>
          <ChartFigure
            caption={`Responses per reward tier (${formatCount(total)} responses)`}
            tableOpen
            chart={
              <BarChart
                title="Reward distribution"
                bars={tiers.map((t) => ({ label: t.tier, value: t.count, display: `${formatCount(t.count)} · ${t.percent}%`, fillClass: TIER_FILL[t.tier] ?? 'fill-slate-400' }))}
              />
            }
            table={
              <table className="w-full text-left text-sm" data-testid="distribution-table">
                <caption className="sr-only">Responses per reward tier</caption>
                <thead className="border-b border-slate-200 text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Tier
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right font-medium">
                      Responses
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      Percent
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {tiers.map((t) => (
                    <tr key={t.tier}>
                      <th scope="row" className="py-2 pr-3 font-medium">
                        {t.tier}
                      </th>
                      <td className="py-2 pr-3 text-right">{formatCount(t.count)}</td>
                      <td className="py-2 text-right">{t.percent}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          />
        </Card>
      )}
    </section>
  );
}

function WeeklyRatings({ weeks }: { weeks: NonNullable<AnalyticsPageData['questions']>['weeks'] }) {
  if (weeks.length === 0) return null;
  return (
    <Card>
      <ChartFigure
        caption="Average overall rating per week (weeks start on Monday, UTC)"
        chart={<LineChart title="Ratings over time" points={weeks.map((w) => ({ label: formatDay(w.week), value: w.averageRating }))} min={1} max={5} ticks={[1, 2, 3, 4, 5]} />}
        table={
          <table className="mt-2 w-full text-left text-sm" data-testid="weekly-table">
            <caption className="sr-only">Average overall rating per week</caption>
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Week of
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Responses
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Average rating
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {weeks.map((w) => (
                <tr key={w.week}>
                  <th scope="row" className="py-1.5 pr-3 font-normal">
                    {formatDay(w.week)}
                  </th>
                  <td className="py-1.5 pr-3 text-right">{formatCount(w.responses)}</td>
                  <td className="py-1.5 text-right">{w.averageRating ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </Card>
  );
}

function Sentiment({ s }: { s: { positive: number; neutral: number; negative: number } }) {
  const total = s.positive + s.neutral + s.negative;
  const pct = (n: number) => (total ? (n / total) * 100 : 0);
  return (
    <div className="space-y-2">
      {total > 0 ? (
        <svg width="100%" height="12" aria-hidden="true" className="block overflow-hidden rounded">
          <rect x="0" width={`${pct(s.positive)}%`} height="12" className="fill-emerald-600" />
          <rect x={`${pct(s.positive)}%`} width={`${pct(s.neutral)}%`} height="12" className="fill-amber-400" />
          <rect x={`${pct(s.positive) + pct(s.neutral)}%`} width={`${pct(s.negative)}%`} height="12" className="fill-red-600" />
        </svg>
      ) : null}
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-emerald-800">Positive (4+)</dt>
          <dd className="font-semibold">{formatCount(s.positive)}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-amber-900">Neutral (3)</dt>
          <dd className="font-semibold">{formatCount(s.neutral)}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-red-800">Negative (below 3)</dt>
          <dd className="font-semibold">{formatCount(s.negative)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** Yes/no answers are stored in lower case; shown capitalised. */
const shown = (type: string, answer: string) => (type === 'yes_no' ? answer.charAt(0).toUpperCase() + answer.slice(1) : answer);

function QuestionsTab({ data }: { data: AnalyticsPageData }) {
  const analysis = data.questions;
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="text-lg font-semibold">
        Question Analysis
      </h2>
      {!analysis ? (
        <div role="alert" className="rounded-card border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">Error</p>
          <p>The question analysis could not be computed. Please reload the page to try again.</p>
        </div>
      ) : analysis.questions.every((q) => q.count === 0) ? (
        <p className="rounded-card border border-slate-200 bg-white p-6 text-slate-700">No answers in this period.</p>
      ) : (
        <>
          <WeeklyRatings weeks={analysis.weeks} />
          <ul className="grid gap-4 lg:grid-cols-2">
            {analysis.questions.map((q) => (
              <li key={q.key} data-testid="question" className="rounded-card border border-slate-200 bg-white p-5 shadow-sm">
                <h3 className="font-semibold">{q.label}</h3>
                {q.askedAs?.length ? <p className="text-sm text-slate-600">Earlier asked as: {q.askedAs.map((t) => `“${t}”`).join(', ')}</p> : null}
                <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
                  <div>
                    <dt className="text-sm text-slate-600">Answers</dt>
                    <dd className="text-2xl font-bold">{formatCount(q.count)}</dd>
                  </div>
                  {q.sentiment ? (
                    <div>
                      <dt className="text-sm text-slate-600">Average rating</dt>
                      <dd className="text-2xl font-bold">{q.averageRating ?? '—'}</dd>
                    </div>
                  ) : null}
                </dl>
                {q.count === 0 ? (
                  <p className="mt-2 text-sm text-slate-600">No answers in this period.</p>
                ) : (
                  <>
                    {q.sentiment ? (
                      <div className="mt-3">
                        <Sentiment s={q.sentiment} />
                      </div>
                    ) : null}
                    <div className="mt-4 grid gap-4 sm:grid-cols-2">
                      <div>
                        <h4 className="text-sm font-semibold text-slate-700">Most common answers</h4>
                        <ol className="mt-1 space-y-1 text-sm">
                          {q.top.map((t) => (
                            <li key={t.answer} className="flex justify-between gap-3">
                              <span className="min-w-0 break-words">{shown(q.type, t.answer)}</span>
                              <span className="shrink-0 text-slate-600">{formatCount(t.count)}</span>
                            </li>
                          ))}
                        </ol>
                      </div>
                      <div>
                        <h4 className="text-sm font-semibold text-slate-700">Recent answers</h4>
                        <ul className="mt-1 space-y-1 text-sm">
                          {q.recent.map((r, i) => (
                            <li key={i} className="min-w-0">
                              <span className="break-words">{shown(q.type, r.answer)}</span> <span className="text-xs whitespace-nowrap text-slate-600">{formatDay(r.submittedAt)}</span>
                            </li>
                          ))}
                        </ul>
                      </div>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function GiftCardsTab({ data }: { data: AnalyticsPageData }) {
  const cards = data.giftCards!;
  const t = cards.totals;
  const href = useHref(data);
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="tab-heading" className="text-lg font-semibold">
          Issued Gift Cards
        </h2>
        {t.cards > 0 ? <ExportLink data={data} kind="giftcards" /> : null}
      </div>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label="Gift Cards Issued" value={formatCount(t.cards)} note={`${formatCount(t.squareCards)} Square · ${formatCount(t.testCards)} Test`} />
        <Stat label="Value Issued" value={formatCents(t.cents)} note={t.testCards ? `${formatCents(t.testCents)} on Test cards, which have no value` : undefined} />
        <Stat label="Square Money Issued" value={formatCents(t.squareCents)} note={`${formatCount(t.squareCards)} Square cards`} />
        <Stat
          label="Redeemed at Square"
          value={formatCents(t.redeemedCents)}
          note={
            t.squareCards === 0
              ? 'Test cards cannot be redeemed'
              : `${formatCount(t.redeemedCards)} of ${formatCount(t.squareCards)} cards used${t.squareCents ? ` · ${Math.round((t.redeemedCents / t.squareCents) * 100)}% of the value` : ''}`
          }
        />
      </dl>
      {t.squareCards > 0 && t.trackedCards < t.squareCards ? (
        <p className="text-sm text-slate-600">
          Redemptions come from Square's gift card activity notifications; {formatCount(t.squareCards - t.trackedCards)} cards have had no update from Square yet.
        </p>
      ) : null}
      {t.cards === 0 ? (
        <p className="rounded-card border border-slate-200 bg-white p-6 text-slate-700">No gift cards were issued in this period.</p>
      ) : (
        <>
          <ResponsiveTable caption="Gift cards issued, newest first" headers={['Issued', 'Customer', 'Gift card number', 'Value', 'Tier', 'Card', 'Balance']}>
            {cards.rows.map((c) => (
              <tr key={c.id} data-testid="gift-card-row" className={rowClass}>
                <IssuedCardCells card={c} issued={<time dateTime={c.issuedAt}>{formatWhen(c.issuedAt)}</time>} />
                <Cell label="Balance" className="text-sm whitespace-nowrap">
                  {c.isSquareGiftCard ? (c.cardBalanceCents !== null ? formatCents(c.cardBalanceCents) : 'Not reported yet') : '—'}
                </Cell>
              </tr>
            ))}
          </ResponsiveTable>
          <Pagination page={cards.page} pageCount={cards.pageCount} total={cards.total} pageSize={cards.pageSize} noun="gift cards" href={(page) => href({ page })} />
        </>
      )}
    </section>
  );
}

function FunnelTab({ data }: { data: AnalyticsPageData }) {
  const { steps, countingSince } = data.funnel!;
  const views = steps[0]!.count;
  const pctOf = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 1000) / 10}%` : '—');
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="text-lg font-semibold">
        Funnel
      </h2>
      <p className="max-w-3xl text-sm text-slate-700">
        From opening the survey to spending the gift card. Page views, starts and sections are counted anonymously on our own server: no cookies, no
        third-party trackers, nothing about the customer. Submitted, rewarded and redeemed come from the responses, the cards and Square.
        {countingSince ? ` Counting began on ${formatDay(`${countingSince}T00:00:00Z`)}.` : ' Nothing has been counted yet.'}
      </p>
      <Card>
        <ChartFigure
          caption="Customers at each step"
          tableOpen
          chart={
            <BarChart
              title="Funnel"
              bars={steps.map((st) => ({ label: st.label, value: st.count, display: formatCount(st.count), fillClass: st.key === 'redeemed' ? 'fill-emerald-600' : 'fill-brand-600' }))}
            />
          }
          table={
            <table className="w-full text-left text-sm" data-testid="funnel-table">
              <caption className="sr-only">Customers at each step of the funnel, with the drop-off from the step before</caption>
              <thead className="border-b border-slate-200 text-slate-600">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Step
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Count
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Of page views
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Drop-off
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {steps.map((st, i) => {
                  const before = i > 0 ? steps[i - 1]!.count : null;
                  const lost = before !== null ? before - st.count : null;
                  return (
                    <tr key={st.key}>
                      <th scope="row" className="py-2 pr-3 font-medium">
                        {st.label}
                      </th>
                      <td className="py-2 pr-3 text-right">{formatCount(st.count)}</td>
                      <td className="py-2 pr-3 text-right">{pctOf(st.count, views)}</td>
                      <td className="py-2 text-right">{lost === null || before === 0 ? '—' : lost >= 0 ? `${formatCount(lost)} (${pctOf(lost, before!)})` : 'more than counted'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          }
        />
      </Card>
    </section>
  );
}

export function AnalyticsView({ data }: { data: AnalyticsPageData }) {
  const title = data.survey ? data.survey.title : 'All Surveys';
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">Survey Analytics</p>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{title}</h1>
          {data.survey ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <span className={`${pill} ${data.survey.isActive ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : 'border-slate-300 bg-slate-100 text-slate-700'}`}>
                {data.survey.isActive ? 'Active' : 'Inactive'}
              </span>
            </div>
          ) : (
            <p className="text-slate-600">
              {data.surveyCount === 1 ? 'Your survey' : `All ${formatCount(data.surveyCount)} of your surveys`}, together.
            </p>
          )}
        </div>
        <Link to="/survey-management" className={buttonClass.secondary}>
          Back to Management
        </Link>
      </div>

      {data.surveyCount === 0 ? (
        <Card className="py-12 text-center">
          <h2 className="text-xl font-semibold">No surveys yet</h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">Responses, ratings and rewards appear here once you publish a survey and customers answer it.</p>
          <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
            Build New Survey
          </Link>
        </Card>
      ) : (
        <>
          <div className="flex flex-wrap items-end justify-between gap-4">
            <SurveyPicker data={data} />
            <DateFilter data={data} />
          </div>
          {data.error && data.error.field !== 'from' && data.error.field !== 'to' ? (
            <div role="alert" className="rounded-card border border-red-300 bg-red-50 p-4 text-red-900">
              <p className="font-semibold">These figures cannot be shown</p>
              <p>{data.error.message}</p>
            </div>
          ) : null}
          {data.stats ? (
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Stat label="Total Responses" value={formatCount(data.stats.totalResponses)} />
              <Stat label="Average Points" value={data.stats.averagePoints === null ? '—' : String(data.stats.averagePoints)} />
              <Stat label="Gold Tier" value={formatCount(data.stats.goldCount)} />
              <Stat label="This Month" value={formatCount(data.stats.thisMonth)} note="Submitted this calendar month (UTC)" />
            </dl>
          ) : null}
          {data.stats && data.stats.totalResponses === 0 && !data.query.from && !data.query.to ? (
            <Card className="text-center">
              <h2 className="text-lg font-semibold">No responses yet</h2>
              <p className="mx-auto mt-1 max-w-md text-slate-600">Share your survey's link or QR code: each customer's answers, points and reward appear here.</p>
              <Link to={data.survey ? `/survey-published/${data.survey.id}` : '/survey-management'} className={`${buttonClass.primary} mt-4`}>
                Share Your Survey
              </Link>
            </Card>
          ) : null}
          {data.error ? null : (
            <>
              <Tabs data={data} />
              {data.query.tab === 'responses' && data.responses ? <ResponsesTab data={data} /> : null}
              {data.query.tab === 'distribution' && data.distribution ? <DistributionTab data={data} /> : null}
              {data.query.tab === 'questions' ? <QuestionsTab data={data} /> : null}
              {data.query.tab === 'giftcards' && data.giftCards ? <GiftCardsTab data={data} /> : null}
              {data.query.tab === 'funnel' && data.funnel ? <FunnelTab data={data} /> : null}
            </>
          )}
        </>
      )}
    </main>
  );
}

export type { Tab };
