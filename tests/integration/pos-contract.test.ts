import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoPos } from '../../adapters/pos/DemoPos.ts';
import { SquarePos } from '../../adapters/pos/SquarePos.ts';
import { PosError, type PosConnector } from '../../modules/pos/port.ts';
import { createLogger } from '../../modules/shared/logger.ts';
import { createSquareMock, SQUARE_APP_ID, SQUARE_APP_SECRET } from '../mocks/square.ts';
import { deferredDemoStore } from '../setup/demo-store.ts';

const square = createSquareMock();
square.merchant('M-CONTRACT', [
  { id: 'L1', name: 'One', status: 'ACTIVE', business_name: 'Biz', address: { address_line_1: '1 A St', locality: 'Town', postal_code: '1000' } },
  { id: 'L2', name: 'Two', status: 'ACTIVE', business_name: 'Biz' },
]);
const server = setupServer(...square.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

// The demo's one-time codes live in the DemoStore (ADR 073): a database of its own.
const demoStore = deferredDemoStore();
beforeAll(() => demoStore.open(), 60_000);
afterAll(() => demoStore.close());
const demo = new DemoPos({ store: demoStore.store });
const adapters: Array<{ name: string; connector: PosConnector; code: () => string | Promise<string> }> = [
  {
    name: 'SquarePos (msw)',
    connector: new SquarePos({ applicationId: SQUARE_APP_ID, applicationSecret: SQUARE_APP_SECRET, environment: 'sandbox', logger: createLogger({ level: 'silent' }) }),
    code: () => square.issueCode('M-CONTRACT'),
  },
  { name: 'DemoPos', connector: demo, code: () => demo.issueCode() },
];

/** One contract for both connectors, so the demo one cannot drift from Square's behaviour. */
describe.each(adapters)('PosConnector contract: $name', ({ connector, code }) => {
  it('builds an authorize URL that carries the state', () => {
    const url = new URL(connector.authorizeUrl({ state: 'st-123', redirectUri: 'http://localhost:3000/api/square/callback' }), 'http://localhost:3000');
    expect(url.searchParams.get('state')).toBe('st-123');
  });

  it('redeems a code once, for tokens that expire in about 30 days', async () => {
    const c = await code();
    const tokens = await connector.exchangeCode({ code: c, redirectUri: 'http://localhost:3000/api/square/callback' });
    expect(tokens.accessToken).toEqual(expect.any(String));
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.accessToken).not.toBe(tokens.refreshToken);
    expect(tokens.merchantId).toEqual(expect.any(String));
    expect(tokens.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const again = connector.exchangeCode({ code: c, redirectUri: 'http://localhost:3000/api/square/callback' });
    await expect(again).rejects.toBeInstanceOf(PosError);
    await expect(again).rejects.toMatchObject({ code: 'rejected' });
    await expect(connector.exchangeCode({ code: 'never-issued', redirectUri: 'x' })).rejects.toMatchObject({ code: 'rejected' });
  });

  it('refreshes: a new access token, the same refresh token and merchant; an unknown refresh token is rejected', async () => {
    const first = await connector.exchangeCode({ code: await code(), redirectUri: 'http://localhost:3000/api/square/callback' });
    const next = await connector.refresh(first.refreshToken);
    expect(next.accessToken).not.toBe(first.accessToken);
    expect(next.refreshToken).toBe(first.refreshToken);
    expect(next.merchantId).toBe(first.merchantId);
    await expect(connector.refresh('not-a-refresh-token')).rejects.toMatchObject({ code: 'rejected' });
  });

  it('lists locations in the spec shape; a bad token is unauthorized; revoke succeeds', async () => {
    const t = await connector.exchangeCode({ code: await code(), redirectUri: 'http://localhost:3000/api/square/callback' });
    const locations = await connector.listLocations(t.accessToken);
    expect(locations.length).toBe(2);
    for (const l of locations) {
      expect(Object.keys(l).sort()).toEqual(['address', 'business_name', 'id', 'name', 'status']);
      expect(Object.keys(l.address).sort()).toEqual(['address_line_1', 'address_line_2', 'administrative_district_level_1', 'locality', 'postal_code']);
      expect(l.status).toBe('ACTIVE');
    }
    await expect(connector.listLocations('bad-token')).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(connector.revoke(t.accessToken)).resolves.toBeUndefined();
  });
});

describe('SquarePos when Square is down', () => {
  it('answers unavailable on 5xx and 429, never rejected', async () => {
    const pos = adapters[0]!.connector;
    square.failNext('/oauth2/token', 500);
    await expect(pos.exchangeCode({ code: square.issueCode('M-CONTRACT'), redirectUri: 'x' })).rejects.toMatchObject({ code: 'unavailable', status: 500 });
    square.failNext('/oauth2/token', 429);
    await expect(pos.refresh('whatever')).rejects.toMatchObject({ code: 'unavailable', status: 429 });
    const t = await pos.exchangeCode({ code: square.issueCode('M-CONTRACT'), redirectUri: 'x' });
    square.failNext('/v2/locations', 503, 2); // one retry, then it gives up
    await expect(pos.listLocations(t.accessToken)).rejects.toMatchObject({ code: 'unavailable' });
    square.failNext('/v2/locations', 503, 1); // the retry succeeds
    await expect(pos.listLocations(t.accessToken)).resolves.toHaveLength(2);
  });
});
