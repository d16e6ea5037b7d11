import { formatCents } from '../../../modules/scoring/index.ts';
import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { Cell, IssuedCardCells } from '../gift-card-ui.tsx';
import { formatWhen, formatCount, ResponsiveTable, rowClass, Stat, useHref, Pagination, ExportLink } from './shared.tsx';
import { noticeClass } from '../ui.tsx';

/** The analytics page's Issued Gift Cards tab: totals, Square redemptions and the cards, 25 a page. (Split from analytics.tsx by tab, issue 28 item 4.) */

export function GiftCardsTab({ data }: { data: AnalyticsPageData }) {
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
        <p className={noticeClass.empty}>No gift cards were issued in this period.</p>
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
