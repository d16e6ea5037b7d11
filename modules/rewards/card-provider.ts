/**
 * The one "Square card or Test card" decision (ADR 018, ADR 055). Pure: the reward job pins it on a
 * reward's first attempt, and `reward-cli square status` and any page that says which card a
 * business's customers get ask the same function.
 */

/** Which provider issues a reward's card. */
export type CardProvider = 'square' | 'test';

export function giftCardProviderFor(
  /** This server issues Square cards (GIFT_CARDS=square). */
  server: { squareCards: boolean },
  /** The business's Square connection (`posStatus`, or the decrypted credentials the job holds). */
  business: { squareConnected: boolean; locationId: string | null },
): CardProvider {
  return server.squareCards && business.squareConnected && business.locationId ? 'square' : 'test';
}
