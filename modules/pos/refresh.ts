import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import type { JobQueue } from '../jobs/index.ts';
import { PosError, type PosConnector } from './port.ts';
import { decryptToken, encryptToken } from './token-crypto.ts';

export const POS_TOKEN_REFRESH_QUEUE = 'pos-token-refresh' as const;
/** Every day at 03:17 UTC (pg-boss cron). */
export const POS_TOKEN_REFRESH_CRON = '17 3 * * *';
/** Square access tokens live 30 days; a token is renewed once it has 7 days or less left. */
export const REFRESH_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export type RefreshSummary = { due: number; refreshed: number; cleared: number; skipped: number; failed: number };

/**
 * Renews the tokens of every connection that expires within REFRESH_WINDOW_MS (or whose expiry is
 * unknown). Each write is conditional on the refresh token it started from, so an owner who
 * disconnects or reconnects meanwhile is never overwritten. A refresh token the provider rejects
 * (access revoked in Square) ends the connection, as a disconnect would; a provider that cannot be
 * reached counts as `failed`, to be tried again.
 */
export async function refreshExpiringTokens(deps: {
  em: EntityManager;
  connector: PosConnector;
  keyBase64: string;
  logger: Logger;
  now?: Date;
}): Promise<RefreshSummary> {
  const { em, connector, keyBase64, logger } = deps;
  const now = deps.now ?? new Date();
  const due = await em.find(
    Business,
    {
      squareRefreshToken: { $ne: null },
      $or: [{ squareTokenExpiresAt: null }, { squareTokenExpiresAt: { $lte: new Date(now.getTime() + REFRESH_WINDOW_MS) } }],
    },
    { fields: ['id', 'squareRefreshToken', 'squareMerchantId'], orderBy: { id: 'asc' } },
  );
  const summary: RefreshSummary = { due: due.length, refreshed: 0, cleared: 0, skipped: 0, failed: 0 };
  for (const b of due) {
    const stored = b.squareRefreshToken!;
    let refreshToken: string;
    try {
      refreshToken = decryptToken(stored, keyBase64, b.id);
    } catch {
      logger.warn({ businessId: b.id }, 'square refresh token does not decrypt (was TOKEN_ENCRYPTION_KEY changed?)');
      summary.skipped += 1;
      continue;
    }
    try {
      const tokens = await connector.refresh(refreshToken);
      const updated = await em.nativeUpdate(
        Business,
        { id: b.id, squareRefreshToken: stored },
        {
          squareAccessToken: encryptToken(tokens.accessToken, keyBase64, b.id),
          squareRefreshToken: encryptToken(tokens.refreshToken, keyBase64, b.id),
          squareTokenExpiresAt: tokens.expiresAt,
        },
      );
      if (updated === 1) summary.refreshed += 1;
      else summary.skipped += 1;
      if (tokens.merchantId !== b.squareMerchantId) logger.warn({ businessId: b.id }, 'square refresh answered for another merchant');
    } catch (error) {
      if (error instanceof PosError && error.code === 'rejected') {
        const cleared = await em.nativeUpdate(
          Business,
          { id: b.id, squareRefreshToken: stored },
          {
            squareAccessToken: null,
            squareRefreshToken: null,
            squareTokenExpiresAt: null,
            squareMerchantId: null,
            squareLocationId: null,
            squareLocationName: null,
          },
        );
        summary.cleared += cleared;
        logger.warn({ businessId: b.id, status: error.status }, 'square refused the refresh token; connection ended');
      } else {
        summary.failed += 1;
        const e = error instanceof PosError ? { code: error.code, status: error.status } : { name: (error as Error)?.name };
        logger.warn({ businessId: b.id, ...e }, 'square token refresh failed; will retry');
      }
    }
  }
  logger.info(summary, 'square token refresh run');
  return summary;
}

/**
 * Registers the daily `pos-token-refresh` job on the queue: a worker, and the cron schedule (one
 * row in pg-boss; re-registering replaces it). A run with unreachable-provider failures throws, so
 * pg-boss retries it; the businesses already renewed are no longer due.
 */
export async function registerPosTokenRefresh(
  jobs: JobQueue,
  deps: { em: EntityManager; connector: PosConnector; keyBase64: string; logger: Logger },
): Promise<void> {
  await jobs.work(POS_TOKEN_REFRESH_QUEUE, async () => {
    const summary = await refreshExpiringTokens({ ...deps, em: deps.em.fork() });
    if (summary.failed > 0) throw new Error(`${summary.failed} square token refresh(es) failed`);
  });
  await jobs.schedule(POS_TOKEN_REFRESH_QUEUE, POS_TOKEN_REFRESH_CRON);
}
