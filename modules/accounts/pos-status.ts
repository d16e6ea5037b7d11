/**
 * Point-of-sale connection as the dashboard reads it, from the Business row's Square columns (this
 * module's entity; modules/pos fills them and re-exports this from its face, so accounts never
 * imports pos).
 */
export type PosFields = {
  squareAccessToken?: string | null;
  squareMerchantId?: string | null;
  squareLocationId?: string | null;
  squareLocationName?: string | null;
};

export type PosStatus = {
  isConnected: boolean;
  locationId: string | null;
  locationName: string | null;
  needsLocation: boolean;
};

export function posStatus(b: PosFields): PosStatus {
  const isConnected = Boolean(b.squareAccessToken && b.squareMerchantId);
  return {
    isConnected,
    locationId: b.squareLocationId ?? null,
    locationName: b.squareLocationName ?? null,
    needsLocation: isConnected && !b.squareLocationId,
  };
}
