import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { BarChart, ChartFigure } from '../analytics-charts.tsx';
import { Card } from '../ui.tsx';
import { formatDay, formatCount } from './shared.tsx';

/** The analytics page's Funnel tab: page views, starts, sections reached, submitted, rewarded and redeemed, with the drop-off per step. (Split from analytics.tsx by tab, issue 28 item 4.) */

export function FunnelTab({ data }: { data: AnalyticsPageData }) {
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
