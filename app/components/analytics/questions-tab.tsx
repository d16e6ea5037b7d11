import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { ChartFigure, LineChart, MIN_POINTS_FOR_A_TREND, NotEnoughData, pointsWithValue } from '../analytics-charts.tsx';
import { Card, noticeClass } from '../ui.tsx';
import { formatDay, formatCount } from './shared.tsx';

/** The analytics page's Question Analysis tab: per question answers, mean rating and sentiment, and the weekly overall rating. (Split from analytics.tsx by tab, issue 28 item 4.) */

export function WeeklyRatings({ weeks }: { weeks: NonNullable<AnalyticsPageData['questions']>['weeks'] }) {
  if (weeks.length === 0) return null;
  const points = weeks.map((w) => ({ label: formatDay(w.week), value: w.averageRating }));
  const have = pointsWithValue(points);
  return (
    <Card>
      <ChartFigure
        caption="Average overall rating per week (weeks start on Monday, UTC)"
        chart={
          have < MIN_POINTS_FOR_A_TREND ? (
            <NotEnoughData title="Ratings over time" have={have} need={MIN_POINTS_FOR_A_TREND} unit="week" />
          ) : (
            <LineChart title="Ratings over time" points={points} min={1} max={5} ticks={[1, 2, 3, 4, 5]} />
          )
        }
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

export function Sentiment({ s }: { s: { positive: number; neutral: number; negative: number } }) {
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
export const shown = (type: string, answer: string) => (type === 'yes_no' ? answer.charAt(0).toUpperCase() + answer.slice(1) : answer);

export function QuestionsTab({ data }: { data: AnalyticsPageData }) {
  const analysis = data.questions;
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="text-lg font-semibold">
        Question Analysis
      </h2>
      {!analysis ? (
        <div role="alert" className={noticeClass.error}>
          <p className="font-semibold">Error</p>
          <p>The question analysis could not be computed. Please reload the page to try again.</p>
        </div>
      ) : analysis.questions.every((q) => q.count === 0) ? (
        <p className={noticeClass.empty}>No answers in this period.</p>
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
