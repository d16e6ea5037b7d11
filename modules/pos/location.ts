import type { PosLocation } from './port.ts';

/** A location's address on one line (spec: "joined address"), skipping empty parts. Pure: used by the page. */
export function joinedAddress(a: PosLocation['address']): string {
  return [a.address_line_1, a.address_line_2, a.locality, a.administrative_district_level_1, a.postal_code]
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .join(', ');
}
