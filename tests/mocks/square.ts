import { randomBytes } from 'node:crypto';
import { http, HttpResponse } from 'msw';

export const SQUARE_SANDBOX = 'https://connect.squareupsandbox.com';
export const SQUARE_APP_ID = 'sandbox-sq0idb-rewardloop-test';
export const SQUARE_APP_SECRET = 'sandbox-sq0csb-test-secret-do-not-leak';

/** A location as Square's REST API writes it (snake_case). */
export type SquareApiLocation = {
  id: string;
  name: string;
  status: 'ACTIVE' | 'INACTIVE';
  business_name?: string;
  address?: { address_line_1?: string; address_line_2?: string; locality?: string; administrative_district_level_1?: string; postal_code?: string };
};

export type RecordedRequest = { method: string; path: string; headers: Record<string, string>; body: Record<string, unknown> | null };

type Grant = { merchantId: string; accessToken: string; refreshToken: string; revoked: boolean };

const squareError = (status: number, category: string, code: string, detail: string) =>
  HttpResponse.json({ errors: [{ category, code, detail }] }, { status });

/**
 * Square's OAuth and Locations endpoints at the network edge (sandbox host): POST /oauth2/token
 * (authorization_code and refresh_token grants), POST /oauth2/revoke, GET /v2/locations. Codes are
 * single-use, tokens are random, every request is recorded with its body for assertions, and
 * `failNext` makes the next call to a path answer an error.
 */
export function createSquareMock(options: { tokenLifetimeDays?: number } = {}) {
  const merchants = new Map<string, SquareApiLocation[]>();
  const codes = new Map<string, string>();
  const grants: Grant[] = [];
  const requests: RecordedRequest[] = [];
  const failures = new Map<string, Array<{ status: number }>>();
  let lifetimeDays = options.tokenLifetimeDays ?? 30;

  const record = async (request: Request) => {
    const text = request.method === 'GET' ? '' : await request.text();
    const entry: RecordedRequest = {
      method: request.method,
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    };
    requests.push(entry);
    return entry;
  };
  const injected = (path: string) => failures.get(path)?.shift();
  const newGrant = (merchantId: string, refreshToken?: string): Grant => {
    const grant = {
      merchantId,
      accessToken: `EAAAl${randomBytes(24).toString('hex')}`,
      refreshToken: refreshToken ?? `EQAAl${randomBytes(24).toString('hex')}`,
      revoked: false,
    };
    grants.push(grant);
    return grant;
  };
  const tokenResponse = (g: Grant) =>
    HttpResponse.json({
      access_token: g.accessToken,
      token_type: 'bearer',
      expires_at: new Date(Date.now() + lifetimeDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      merchant_id: g.merchantId,
      refresh_token: g.refreshToken,
      short_lived: false,
    });

  const handlers = [
    http.post(`${SQUARE_SANDBOX}/oauth2/token`, async ({ request }) => {
      const { body } = await record(request);
      const failure = injected('/oauth2/token');
      if (failure) return squareError(failure.status, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'Injected failure.');
      if (body?.client_id !== SQUARE_APP_ID || body?.client_secret !== SQUARE_APP_SECRET) {
        return squareError(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'Not Authorized');
      }
      if (body.grant_type === 'authorization_code') {
        const merchantId = codes.get(String(body.code));
        if (!merchantId) return squareError(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'Authorization code is already redeemed or expired');
        codes.delete(String(body.code));
        return tokenResponse(newGrant(merchantId));
      }
      if (body.grant_type === 'refresh_token') {
        const old = grants.find((g) => g.refreshToken === body.refresh_token && !g.revoked);
        if (!old) return squareError(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'Invalid refresh token');
        // Square's code flow keeps the refresh token and issues a new access token.
        return tokenResponse(newGrant(old.merchantId, old.refreshToken));
      }
      return squareError(400, 'INVALID_REQUEST_ERROR', 'BAD_REQUEST', 'Unsupported grant type');
    }),
    http.post(`${SQUARE_SANDBOX}/oauth2/revoke`, async ({ request }) => {
      const { body, headers } = await record(request);
      const failure = injected('/oauth2/revoke');
      if (failure) return squareError(failure.status, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'Injected failure.');
      if (headers.authorization !== `Client ${SQUARE_APP_SECRET}` || body?.client_id !== SQUARE_APP_ID) {
        return squareError(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'Not Authorized');
      }
      const grant = grants.find((g) => g.accessToken === body.access_token);
      if (!grant) return squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Access token not found');
      // Square revokes every token of the application for that merchant.
      for (const g of grants) if (g.merchantId === grant.merchantId) g.revoked = true;
      return HttpResponse.json({ success: true });
    }),
    http.get(`${SQUARE_SANDBOX}/v2/locations`, async ({ request }) => {
      const { headers } = await record(request);
      const failure = injected('/v2/locations');
      if (failure) return squareError(failure.status, 'API_ERROR', 'INTERNAL_SERVER_ERROR', 'Injected failure.');
      const token = (headers.authorization ?? '').replace(/^Bearer /, '');
      const grant = grants.find((g) => g.accessToken === token && !g.revoked);
      if (!grant) return squareError(401, 'AUTHENTICATION_ERROR', 'UNAUTHORIZED', 'This request could not be authorized.');
      return HttpResponse.json({ locations: merchants.get(grant.merchantId) ?? [] });
    }),
  ];

  return {
    handlers,
    requests,
    grants,
    /** A merchant with these locations. */
    merchant(merchantId: string, locations: SquareApiLocation[]) {
      merchants.set(merchantId, locations);
    },
    /** The code Square would hand back after the merchant clicked Allow. */
    issueCode(merchantId: string) {
      const code = `sq0cgp-${randomBytes(16).toString('hex')}`;
      codes.set(code, merchantId);
      return code;
    },
    failNext(path: '/oauth2/token' | '/oauth2/revoke' | '/v2/locations', status = 500, times = 1) {
      failures.set(path, [...(failures.get(path) ?? []), ...Array.from({ length: times }, () => ({ status }))]);
    },
    setTokenLifetimeDays(days: number) {
      lifetimeDays = days;
    },
    /** Every token this mock handed out (for "never shown, never logged" checks). */
    allTokens() {
      return grants.flatMap((g) => [g.accessToken, g.refreshToken]);
    },
    callsTo(path: string) {
      return requests.filter((r) => r.path === path);
    },
  };
}

export type SquareMock = ReturnType<typeof createSquareMock>;
