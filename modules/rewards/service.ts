import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { listFailures, listIssuances } from './queries.ts';
import { receiveSquareWebhook } from './webhooks.ts';

/** `context.rewards`: what the owner's pages and the Square webhook reach. One instance per request. */
export function createRewards(deps: { em: EntityManager; logger: Logger; appUrl: string; squareWebhookSignatureKey: string | null }) {
  return {
    /** The owner's issued cards, newest first (spec "Gift card issuance (client)" and the email's state). */
    issuances: async (businessId: string) => (await listIssuances(deps.em, { businessId })).map(({ businessId: _b, businessName: _n, ...view }) => view),
    /** The owner's rewards that failed after every retry. */
    failures: async (businessId: string) => (await listFailures(deps.em, { businessId })).map(({ businessId: _b, businessName: _n, ...failure }) => failure),
    receiveSquareWebhook: (input: { body: string; signature: string | null }) =>
      receiveSquareWebhook({ em: deps.em, signatureKey: deps.squareWebhookSignatureKey, appUrl: deps.appUrl, logger: deps.logger }, input),
  };
}

export type Rewards = ReturnType<typeof createRewards>;
