import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { posStatus, type PosStatus } from '../accounts/index.ts';

/** What support may see of a business's Square connection: never a token (`reward-cli square status`). */
export type PosConnectionReport = PosStatus & {
  businessId: string;
  displayName: string;
  merchantId: string | null;
  tokenExpiresAt: Date | null;
};

/** The operator's point-of-sale use cases, over any business (ADR 056); owners use `createPos`. */
export function createPosOperations(deps: { em: EntityManager }) {
  return {
    async connection(businessId: string): Promise<PosConnectionReport | null> {
      const business = await deps.em.fork().findOne(Business, { id: businessId });
      if (!business) return null;
      return {
        ...posStatus(business),
        businessId: business.id,
        displayName: business.displayName,
        merchantId: business.squareMerchantId ?? null,
        tokenExpiresAt: business.squareTokenExpiresAt ?? null,
      };
    },
  };
}
