import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { BarChart, ChartFigure } from '../analytics-charts.tsx';
import { Card, noticeClass } from '../ui.tsx';
import { formatCount } from './shared.tsx';

/** The analytics page's Reward Distribution tab: count and percent per tier, as bars and a table. (Split from analytics.tsx by tab, issue 28 item 4.) */

export const TIER_FILL: Record<string, string> = { Bronze: 'fill-bronze', Silver: 'fill-silver', Gold: 'fill-gold' };

export function DistributionTab({ data }: { data: AnalyticsPageData }) {
  const { total, tiers } = data.distribution!;
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="text-lg font-semibold">
        Reward Distribution
      </h2>
      {total === 0 ? (
        <p className={noticeClass.empty}>No responses in this period.</p>
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
