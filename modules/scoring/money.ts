/** Whole dollars for the customer's survey page (spec 9: cents / 100, rounded). */
export function wholeDollars(cents: number): number {
  return Math.round(cents / 100);
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Two decimals for the published page and flyer: 500 -> '$5.00', 150000 -> '$1,500.00'. */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`cents must be an integer, got ${cents}`);
  return usd.format(cents / 100);
}
