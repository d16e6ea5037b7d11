import type { Logger } from 'pino';
import type { SquareClient } from 'square';
import { POS_SCOPES, PosError, type PosConnector, type PosLocation, type PosTokens } from '../../modules/pos/index.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

type SquareModule = typeof import('square');

export type SquarePosOptions = {
  applicationId: string;
  applicationSecret: string;
  environment: 'sandbox' | 'production';
  logger: Logger;
  /** Seconds per call to Square (default 15). */
  timeoutSeconds?: number;
};

let sdk: Promise<SquareModule> | null = null;
/** The SDK takes over a second to load: only a process that talks to Square pays for it. */
const loadSdk = () => (sdk ??= import('square'));

/**
 * Square's OAuth code flow and Locations API through the `square` SDK (v46). The authorize URL is
 * built here (the SDK has no helper for it). Every call has a timeout; only the locations call is
 * retried (once, by the SDK, on 429 and 5xx). Errors become PosError without Square's message, which
 * is logged by error code only. Tokens are never logged.
 */
export class SquarePos implements PosConnector {
  readonly id = 'square' as const;
  private readonly options: SquarePosOptions;
  private readonly baseUrl: string;

  constructor(options: SquarePosOptions) {
    this.options = options;
    this.baseUrl = options.environment === 'production' ? 'https://connect.squareup.com' : 'https://connect.squareupsandbox.com';
  }

  authorizeUrl({ state, redirectUri }: { state: string; redirectUri: string }): string {
    const query = new URLSearchParams({
      client_id: this.options.applicationId,
      scope: POS_SCOPES.join(' '),
      session: 'false',
      state,
      redirect_uri: redirectUri,
    });
    return `${this.baseUrl}/oauth2/authorize?${query}`;
  }

  async exchangeCode({ code, redirectUri }: { code: string; redirectUri: string }): Promise<PosTokens> {
    return this.obtain('exchange', { code, redirectUri, grantType: 'authorization_code' });
  }

  async refresh(refreshToken: string): Promise<PosTokens> {
    return this.obtain('refresh', { refreshToken, grantType: 'refresh_token' });
  }

  async revoke(accessToken: string): Promise<void> {
    const client = await this.client(false);
    try {
      // Square wants `Authorization: Client <application secret>` here, not a bearer token.
      await client.oAuth.revokeToken(
        { clientId: this.options.applicationId, accessToken },
        { headers: { Authorization: `Client ${this.options.applicationSecret}` } },
      );
    } catch (error) {
      throw await this.toPosError('revoke', error, 'unauthorized');
    }
  }

  async listLocations(accessToken: string): Promise<PosLocation[]> {
    const client = await this.client(accessToken);
    try {
      const response = await client.locations.list();
      return (response.locations ?? []).filter((l) => l.id).map(toPosLocation);
    } catch (error) {
      throw await this.toPosError('locations', error, 'unauthorized');
    }
  }

  private async obtain(
    action: 'exchange' | 'refresh',
    grant: { grantType: 'authorization_code'; code: string; redirectUri: string } | { grantType: 'refresh_token'; refreshToken: string },
  ): Promise<PosTokens> {
    const client = await this.client(false);
    let response;
    try {
      response = await client.oAuth.obtainToken({ clientId: this.options.applicationId, clientSecret: this.options.applicationSecret, ...grant });
    } catch (error) {
      throw await this.toPosError(action, error, 'rejected');
    }
    if (!response.accessToken || !response.refreshToken || !response.merchantId) {
      this.options.logger.warn({ action }, 'square token response without a token or merchant id');
      throw new PosError('unavailable', 'Square answered without the tokens.');
    }
    const expiresAt = response.expiresAt ? new Date(response.expiresAt) : null;
    return {
      accessToken: response.accessToken,
      refreshToken: response.refreshToken,
      expiresAt: expiresAt && !Number.isNaN(expiresAt.getTime()) ? expiresAt : null,
      merchantId: response.merchantId,
    };
  }

  /**
   * `false`: no bearer token (the OAuth endpoints authenticate with the application's own
   * credentials). No SDK retries there: a code is single-use, and a refresh is retried by its job.
   * Locations are read-only and get one retry.
   */
  private async client(token: string | false): Promise<SquareClient> {
    const { SquareClient } = await loadSdk();
    return new SquareClient({
      baseUrl: this.baseUrl,
      ...(token === false ? { auth: false as const } : { token }),
      timeoutInSeconds: this.options.timeoutSeconds ?? 15,
      maxRetries: token === false ? 0 : 1,
    });
  }

  /** A 4xx becomes `refusal` (rejected or unauthorized); anything else (429, 5xx, timeout, network) is `unavailable`. */
  private async toPosError(action: string, error: unknown, refusal: 'rejected' | 'unauthorized'): Promise<PosError> {
    const { SquareError } = await loadSdk();
    const status = error instanceof SquareError ? (error.statusCode ?? null) : null;
    const codes = error instanceof SquareError ? error.errors.map((e) => `${e.category}/${e.code}`) : [];
    this.options.logger.warn({ action, status, squareErrors: codes, errorName: error instanceof Error ? error.name : typeof error }, 'square call failed');
    if (status !== null && status >= 400 && status < 500 && status !== 429 && status !== 408) {
      return new PosError(refusal, refusal === 'rejected' ? 'Square did not accept the authorization.' : 'Square did not accept the access token.', status);
    }
    return new PosError('unavailable', 'Square could not be reached.', status);
  }
}

function toPosLocation(l: NonNullable<Awaited<ReturnType<SquareClient['locations']['list']>>['locations']>[number]): PosLocation {
  return {
    id: l.id!,
    name: l.name ?? l.id!,
    status: l.status ?? 'INACTIVE',
    business_name: l.businessName ?? null,
    address: {
      address_line_1: l.address?.addressLine1 ?? null,
      address_line_2: l.address?.addressLine2 ?? null,
      locality: l.address?.locality ?? null,
      administrative_district_level_1: l.address?.administrativeDistrictLevel1 ?? null,
      postal_code: l.address?.postalCode ?? null,
    },
  };
}

/** POS=square (ADR 055): Square's OAuth with the application's id and secret. */
export const provider = defineProvider({
  id: 'square',
  options: z
    .object({
      SQUARE_APPLICATION_ID: z.string({ error: 'is required with POS=square' }),
      SQUARE_APPLICATION_SECRET: z.string({ error: 'is required with POS=square' }),
      SQUARE_ENVIRONMENT: z.enum(['sandbox', 'production']),
    })
    .transform((c) => ({ applicationId: c.SQUARE_APPLICATION_ID, applicationSecret: c.SQUARE_APPLICATION_SECRET, environment: c.SQUARE_ENVIRONMENT })),
  create: (options, deps: { logger: Logger }) => new SquarePos({ ...options, logger: deps.logger }),
});
