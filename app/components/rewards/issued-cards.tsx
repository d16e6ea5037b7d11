import { Cell, IssuedCardCells, pill } from '../gift-card-ui.tsx';
import type { IssuanceRow } from './rows.ts';
import { When } from './when.tsx';

const emailLabel = {
  sent: ['Sent', 'border-emerald-200 bg-emerald-50 text-emerald-800'],
  sending: ['Sending', 'border-slate-300 bg-slate-100 text-slate-700'],
  failed: ['Not sent', 'border-red-300 bg-red-50 text-red-800'],
} as const;

/** Every card issued (the latest of them), with its email's state. */
export function IssuedCards({ issuances, totals, local }: { issuances: IssuanceRow[]; totals: { cards: number }; local: boolean }) {
  return (
    <section aria-labelledby="issued-heading" className="space-y-3">
      <h2 id="issued-heading" className="text-lg font-semibold">
        Gift cards issued
      </h2>
      {issuances.length === 0 ? (
        <p className="text-slate-600">No cards issued yet. The rewards in progress appear here once their card exists.</p>
      ) : (
        <>
          <div className="md:rounded-card md:border md:border-slate-200 md:bg-white md:shadow-sm">
            <table className="w-full text-left max-md:block">
              <caption className="sr-only">Gift cards issued, newest first</caption>
              <thead className="border-b border-slate-200 text-sm text-slate-600 max-md:sr-only">
                <tr>
                  {['Issued', 'Customer', 'Gift card number', 'Value', 'Tier', 'Card', 'Email'].map((h) => (
                    <th key={h} scope="col" className="px-3 py-3 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 max-md:block max-md:space-y-3 max-md:divide-y-0">
                {issuances.map((i) => {
                  const [emailText, emailTone] = emailLabel[i.emailStatus];
                  return (
                    <tr
                      key={i.id}
                      data-testid="issuance"
                      className="max-md:block max-md:rounded-card max-md:border max-md:border-slate-200 max-md:bg-white max-md:p-4 max-md:shadow-sm"
                    >
                      <IssuedCardCells card={i} issued={<When iso={i.issuedAt} local={local} />} />
                      <Cell label="Email">
                        <span className={`${pill} ${emailTone}`}>{emailText}</span>
                      </Cell>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {totals.cards > issuances.length ? (
            <p className="text-sm text-slate-600">
              Showing the latest {issuances.length} of {totals.cards} cards.
            </p>
          ) : null}
          {issuances.some((i) => !i.isSquareGiftCard) ? (
            <p className="text-sm text-slate-600">
              Test cards have no value: they are issued while Square gift cards are not in use (Square not connected, or this server issues Test cards).
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
