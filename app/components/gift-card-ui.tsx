import type { ReactNode } from 'react';
import { formatCents } from '../../modules/scoring/index.ts';
import type { TierName } from '../../modules/surveys/index.ts';
import { tierStyle } from './survey-ui.tsx';

/** The pieces the owner's gift card and response tables share (/rewards and analytics). */

export const pill = 'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap';

/** A reward tier in its colours; a response that reached no tier reads "No tier". */
export function TierBadge({ tier }: { tier: string | null }) {
  if (!tier) return <span className={`${pill} border-slate-300 bg-slate-50 text-slate-700`}>No tier</span>;
  return <span className={`${pill} ${tierStyle[tier as TierName] ?? 'border-slate-300 bg-slate-100 text-slate-700'}`}>{tier}</span>;
}

/** Square for a real card, Test for a card issued without Square (it has no value). */
export function CardTypeBadge({ square }: { square: boolean }) {
  return square ? (
    <span className={`${pill} border-emerald-200 bg-emerald-50 text-emerald-800`}>Square</span>
  ) : (
    <span className={`${pill} border-amber-300 bg-amber-50 text-amber-900`} title="A Test card has no value">
      Test
    </span>
  );
}

/** A customer's name (when they gave one) over their email. */
export function Customer({ name, email }: { name: string | null; email: string | null }) {
  return (
    <div className="min-w-0">
      {name ? <p className="font-medium break-words">{name}</p> : null}
      <p className={`break-all ${name ? 'text-sm text-slate-600' : 'font-medium'}`}>{email ?? 'No email'}</p>
    </div>
  );
}

/** One cell: a table cell on wide screens; on a phone a labelled line of its row's card. */
export function Cell({ label, children, className = '' }: { label: string; children: ReactNode; className?: string }) {
  return (
    <td className="px-3 py-3 align-top max-md:grid max-md:grid-cols-[6.5rem_minmax(0,1fr)] max-md:items-center max-md:gap-2 max-md:px-0 max-md:py-1">
      <span className="text-sm text-slate-600 md:hidden">{label}</span>
      <div className={`min-w-0 ${className}`}>{children}</div>
    </td>
  );
}

/** An issued card as both tables show it. */
export type IssuedCardRow = {
  customerName: string | null;
  customerEmail: string | null;
  giftCardNumber: string;
  rewardValue: number;
  rewardTier: string | null;
  isSquareGiftCard: boolean;
};

/** The cells an issued gift card has in every table: issued (as the table dates it), customer, number, value, tier, card type. */
export function IssuedCardCells({ card, issued }: { card: IssuedCardRow; issued: ReactNode }) {
  return (
    <>
      <Cell label="Issued" className="text-sm whitespace-nowrap text-slate-700">
        {issued}
      </Cell>
      <Cell label="Customer">
        <Customer name={card.customerName} email={card.customerEmail} />
      </Cell>
      <Cell label="Card number">
        <span className="font-mono text-sm break-all">{card.giftCardNumber}</span>
      </Cell>
      <Cell label="Value" className="font-semibold whitespace-nowrap">
        {formatCents(card.rewardValue)}
      </Cell>
      <Cell label="Tier">
        <TierBadge tier={card.rewardTier} />
      </Cell>
      <Cell label="Card">
        <CardTypeBadge square={card.isSquareGiftCard} />
      </Cell>
    </>
  );
}
