import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import { Business } from '../accounts/server.ts';
import { PosError, type DemoConsent, type PosConnector, type PosLocation } from './port.ts';
import { posStatus } from '../accounts/index.ts';
import { decryptToken, encryptToken } from './token-crypto.ts';

/** How long a started connection may take: from "Connect with Square" to the callback. */
export const CONNECT_STATE_TTL_MS = 10 * 60 * 1000;

export const POS_MESSAGES = {
  badState: 'This Square connection could not be verified: it was started in another session, expired or was already used. Please connect again.',
  denied: 'You declined the connection in Square. You can connect any time from the dashboard.',
  noCode: 'Square did not send an authorization code. Please connect again.',
  codeRejected: 'Square did not accept the authorization code: it may have expired or been used already. Please connect again.',
  unavailable: 'Square could not be reached. Please try again in a few minutes.',
  notConnected: 'Square is not connected.',
  tokenInvalid: 'Square no longer accepts the saved connection. Please connect Square again.',
  chooseLocation: 'Please choose a location.',
  locationNotFound: 'That location is not one of your active Square locations.',
} as const;

/** A started connection, kept in the owner's server-side session until the callback takes it. */
export type PendingConnect = { state: string; businessId: string; expiresAt: number };

/** The owner's session, as the service needs it: one pending connection, taken (read and removed) once. */
export interface ConnectStateStore {
  save(pending: PendingConnect): Promise<void>;
  take(): Promise<unknown>;
}

export type PosFailure = { ok: false; status: 400 | 409 | 502; message: string };

export type CallbackParams = { code?: string | null; state?: string | null; error?: string | null };

export type LocationList = { locations: PosLocation[]; currentLocationId: string | null; currentLocationName: string | null };

export type PosDeps = {
  em: EntityManager;
  connector: PosConnector;
  /** Present with the demo connector only: its consent page mints codes through it. */
  demoConsent?: DemoConsent | null;
  /** TOKEN_ENCRYPTION_KEY (base64 of 32 bytes). */
  keyBase64: string;
  /** Absolute URL of GET /api/square/callback (registered with Square as the redirect URL). */
  callbackUrl: string;
  logger: Logger;
  now?: () => Date;
};

type Owner = Pick<Business, 'id'>;

function sameState(expected: string, received: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isPending(v: unknown): v is PendingConnect {
  const p = v as PendingConnect | null;
  return !!p && typeof p === 'object' && typeof p.state === 'string' && typeof p.businessId === 'string' && typeof p.expiresAt === 'number';
}

/**
 * The owner's point-of-sale connection (issue 5, ADR 017). Every method acts on the signed-in
 * owner's own business row, found by the id of the session: no input names a business. Tokens are
 * encrypted before they are stored and decrypted only to call the connector; none is returned or
 * logged. One instance per request, over the request's EntityManager.
 */
export function createPos(deps: PosDeps) {
  const { em, connector, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const business = (owner: Owner) => em.findOneOrFail(Business, { id: owner.id });

  function fail(status: PosFailure['status'], message: string): PosFailure {
    return { ok: false, status, message };
  }

  function fromPosError(error: unknown, businessId: string, action: string): PosFailure {
    if (error instanceof PosError) {
      logger.warn({ businessId, action, code: error.code, status: error.status }, 'point-of-sale call failed');
      if (error.code === 'rejected') return fail(400, POS_MESSAGES.codeRejected);
      if (error.code === 'unauthorized') return fail(409, POS_MESSAGES.tokenInvalid);
      return fail(502, POS_MESSAGES.unavailable);
    }
    throw error;
  }

  /** The decrypted access token of a connected business, or a failure. */
  function accessToken(b: Business): { ok: true; token: string } | PosFailure {
    if (!posStatus(b).isConnected) return fail(409, POS_MESSAGES.notConnected);
    try {
      return { ok: true, token: decryptToken(b.squareAccessToken!, deps.keyBase64, b.id) };
    } catch (error) {
      logger.warn({ businessId: b.id, err: { name: (error as Error).name } }, 'stored square token does not decrypt');
      return fail(409, POS_MESSAGES.tokenInvalid);
    }
  }

  async function listFor(b: Business): Promise<{ ok: true; locations: PosLocation[] } | PosFailure> {
    const token = accessToken(b);
    if (!token.ok) return token;
    try {
      return { ok: true, locations: await connector.listLocations(token.token) };
    } catch (error) {
      return fromPosError(error, b.id, 'locations');
    }
  }

  return {
    connectorId: connector.id,

    /** For the demo consent page: a one-time code, or null when the connector is not the demo one. */
    async issueDemoCode(): Promise<string | null> {
      return (await deps.demoConsent?.issueCode()) ?? null;
    },

    /** Starts OAuth: a fresh random state bound to this session and owner; returns where to send the browser. */
    async start(owner: Owner, store: ConnectStateStore): Promise<{ url: string }> {
      const state = randomBytes(32).toString('base64url');
      await store.save({ state, businessId: owner.id, expiresAt: now().getTime() + CONNECT_STATE_TTL_MS });
      return { url: connector.authorizeUrl({ state, redirectUri: deps.callbackUrl }) };
    },

    /**
     * The provider sent the owner back. The pending state is taken from the session first (so a
     * callback can be used once), then must match, belong to this owner and be unexpired; only then
     * is the code redeemed. Nothing is stored unless the exchange succeeds.
     */
    async callback(
      owner: Owner,
      params: CallbackParams,
      store: ConnectStateStore,
    ): Promise<{ ok: true; needsLocation: boolean; merchantChanged: boolean } | PosFailure> {
      const pending = await store.take();
      const received = params.state ?? '';
      const reason = !isPending(pending)
        ? 'no pending connection in this session'
        : pending.businessId !== owner.id
          ? 'pending connection of another owner'
          : pending.expiresAt <= now().getTime()
            ? 'pending connection expired'
            : !received || !sameState(pending.state, received)
              ? 'state mismatch'
              : null;
      if (reason) {
        logger.warn({ businessId: owner.id, reason }, 'square callback refused');
        return fail(400, POS_MESSAGES.badState);
      }
      if (params.error) {
        logger.info({ businessId: owner.id, error: String(params.error).slice(0, 60) }, 'square connection declined');
        return fail(400, POS_MESSAGES.denied);
      }
      if (!params.code) return fail(400, POS_MESSAGES.noCode);
      let tokens;
      try {
        tokens = await connector.exchangeCode({ code: params.code, redirectUri: deps.callbackUrl });
      } catch (error) {
        return fromPosError(error, owner.id, 'exchange');
      }
      const b = await business(owner);
      const merchantChanged = b.squareMerchantId !== tokens.merchantId;
      b.squareAccessToken = encryptToken(tokens.accessToken, deps.keyBase64, b.id);
      b.squareRefreshToken = encryptToken(tokens.refreshToken, deps.keyBase64, b.id);
      b.squareTokenExpiresAt = tokens.expiresAt;
      b.squareMerchantId = tokens.merchantId;
      if (merchantChanged) {
        // Another Square account: the chosen location belonged to the old one.
        b.squareLocationId = null;
        b.squareLocationName = null;
      }
      await em.flush();
      logger.info({ businessId: b.id, connector: connector.id, merchantChanged }, 'square connected');
      return { ok: true, needsLocation: !b.squareLocationId, merchantChanged };
    },

    async status(owner: Owner): Promise<{ isConnected: boolean }> {
      return { isConnected: posStatus(await business(owner)).isConnected };
    },

    /** Revokes at the provider, then clears the connection; a failed revoke is logged and the local connection still ends. */
    async disconnect(owner: Owner): Promise<{ ok: true; revoked: boolean } | PosFailure> {
      const b = await business(owner);
      if (!posStatus(b).isConnected) return fail(409, POS_MESSAGES.notConnected);
      let revoked = false;
      const token = accessToken(b);
      if (token.ok) {
        try {
          await connector.revoke(token.token);
          revoked = true;
        } catch (error) {
          const e = error instanceof PosError ? { code: error.code, status: error.status } : { name: (error as Error)?.name };
          logger.warn({ businessId: b.id, ...e }, 'square revoke failed; disconnected locally');
        }
      }
      b.squareAccessToken = null;
      b.squareRefreshToken = null;
      b.squareTokenExpiresAt = null;
      b.squareMerchantId = null;
      b.squareLocationId = null;
      b.squareLocationName = null;
      await em.flush();
      logger.info({ businessId: b.id, revoked }, 'square disconnected');
      return { ok: true, revoked };
    },

    /** The merchant's locations (spec shape) and the chosen one. */
    async locations(owner: Owner): Promise<({ ok: true } & LocationList) | PosFailure> {
      const b = await business(owner);
      const list = await listFor(b);
      if (!list.ok) return list;
      return { ok: true, locations: list.locations, currentLocationId: b.squareLocationId ?? null, currentLocationName: b.squareLocationName ?? null };
    },

    /** Chooses the location gift cards are issued at: it must be an ACTIVE location in the merchant's own list. */
    async setLocation(owner: Owner, input: { locationId: unknown }): Promise<{ ok: true; location: PosLocation } | PosFailure> {
      const locationId = typeof input.locationId === 'string' ? input.locationId.trim() : '';
      if (!locationId || locationId.length > 255) return fail(400, POS_MESSAGES.chooseLocation);
      const b = await business(owner);
      const list = await listFor(b);
      if (!list.ok) return list;
      const location = list.locations.find((l) => l.id === locationId && l.status === 'ACTIVE');
      if (!location) {
        logger.warn({ businessId: b.id }, 'location not in the merchant list');
        return fail(400, POS_MESSAGES.locationNotFound);
      }
      b.squareLocationId = location.id;
      b.squareLocationName = location.name.slice(0, 255);
      await em.flush();
      return { ok: true, location };
    },
  };
}

export type PosService = ReturnType<typeof createPos>;
