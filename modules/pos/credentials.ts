import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { decryptToken } from './token-crypto.ts';

/** What the gift card job needs to act for a business on Square: its decrypted access token and chosen location. */
export type PosCredentials = { accessToken: string; merchantId: string; locationId: string; locationName: string | null };

/**
 * The business's point-of-sale credentials, or null when it has no connection or no chosen location
 * (its rewards are then Test cards). Tokens are stored encrypted (`token-crypto.ts`).
 */
export async function posCredentials(em: EntityManager, businessId: string, keyBase64: string): Promise<PosCredentials | null> {
  const business = await em.findOne(Business, { id: businessId }, { fields: ['id', 'squareAccessToken', 'squareMerchantId', 'squareLocationId', 'squareLocationName'] });
  if (!business?.squareAccessToken || !business.squareMerchantId || !business.squareLocationId) return null;
  return {
    accessToken: decryptToken(business.squareAccessToken, keyBase64, business.id),
    merchantId: business.squareMerchantId,
    locationId: business.squareLocationId,
    locationName: business.squareLocationName ?? null,
  };
}
