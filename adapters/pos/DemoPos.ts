import { randomBytes } from 'node:crypto';
import { PosError, type DemoConsent, type PosConnector, type PosLocation, type PosTokens } from '../../modules/pos/index.ts';
import { z } from 'zod';
import type { Logger } from 'pino';
import { defineProvider, type DemoStore } from '../../modules/shared/index.ts';

const CODE_TTL_MS = 5 * 60 * 1000;
/** The kind of the consent page's one-time codes in the DemoStore. */
const CODE_KIND = 'pos-demo-code';
const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const DEMO_MERCHANT_ID = 'DEMO-MERCHANT';

/** The demo merchant's two locations, shaped like Square's. */
export const DEMO_LOCATIONS: PosLocation[] = [
  {
    id: 'DEMO-MAIN-STREET',
    name: 'Main Street Cafe',
    status: 'ACTIVE',
    business_name: 'Demo Coffee Co.',
    address: { address_line_1: '12 Main Street', address_line_2: null, locality: 'Springfield', administrative_district_level_1: 'IL', postal_code: '62701' },
  },
  {
    id: 'DEMO-RIVERSIDE',
    name: 'Riverside Kiosk',
    status: 'ACTIVE',
    business_name: 'Demo Coffee Co.',
    address: { address_line_1: '3 River Walk', address_line_2: 'Kiosk 4', locality: 'Springfield', administrative_district_level_1: 'IL', postal_code: '62704' },
  },
];

const ACCESS = /^demo-access-[0-9a-f]{48}$/;
const REFRESH = /^demo-refresh-[0-9a-f]{48}$/;
const token = (kind: 'access' | 'refresh') => `demo-${kind}-${randomBytes(24).toString('hex')}`;

/**
 * The point of sale without Square (POS=demo; refused in production unless ALLOW_DEMO_ADAPTERS):
 * the authorize URL is our own consent page (`/square-connect/demo`), whose Allow button asks
 * `issueCode()` for a one-time code. Tokens are random opaque strings in Square's rhythm (30 days),
 * recognised by their shape, so a connection survives a server restart. Codes live in the DemoStore
 * (the database, issue 26) for five minutes and are redeemed once, by whichever instance the
 * browser comes back to.
 */
export class DemoPos implements PosConnector, DemoConsent {
  readonly id = 'demo' as const;
  /** Its consent page is its own. */
  readonly demoConsent: DemoConsent = this;
  private readonly store: DemoStore;
  private readonly now: () => Date;

  constructor(options: { store: DemoStore; now?: () => Date }) {
    this.store = options.store;
    this.now = options.now ?? (() => new Date());
  }

  authorizeUrl({ state }: { state: string; redirectUri: string }): string {
    // The consent page always returns to our own callback: it never follows a redirect URI it is given.
    return `/square-connect/demo?${new URLSearchParams({ state })}`;
  }

  async issueCode(): Promise<string> {
    const code = `demo-code-${randomBytes(16).toString('hex')}`;
    await this.store.insert(CODE_KIND, code, { issuedAt: this.now().toISOString() }, { expiresAt: new Date(this.now().getTime() + CODE_TTL_MS) });
    return code;
  }

  async exchangeCode({ code }: { code: string; redirectUri: string }): Promise<PosTokens> {
    // Taken once, in any instance; an expired code is taken too and refused.
    const issued = /^demo-code-[0-9a-f]{32}$/.test(code) ? await this.store.take(CODE_KIND, code) : null;
    if (!issued) throw new PosError('rejected', 'The authorization code is unknown, expired or already used.', 401);
    return this.tokens(token('refresh'));
  }

  async refresh(refreshToken: string): Promise<PosTokens> {
    if (!REFRESH.test(refreshToken)) throw new PosError('rejected', 'The refresh token is not valid.', 401);
    return this.tokens(refreshToken);
  }

  async revoke(accessToken: string): Promise<void> {
    if (!ACCESS.test(accessToken)) throw new PosError('unauthorized', 'The access token is not valid.', 401);
  }

  async listLocations(accessToken: string): Promise<PosLocation[]> {
    if (!ACCESS.test(accessToken)) throw new PosError('unauthorized', 'The access token is not valid.', 401);
    return DEMO_LOCATIONS.map((l) => ({ ...l, address: { ...l.address } }));
  }

  private tokens(refreshToken: string): PosTokens {
    return { accessToken: token('access'), refreshToken, expiresAt: new Date(this.now().getTime() + TOKEN_TTL_MS), merchantId: DEMO_MERCHANT_ID };
  }
}

/** POS=demo (ADR 055): the local consent page; the pos service also uses it as the demo consent. */
export const provider = defineProvider({
  id: 'demo',
  demo: 'demo point of sale (POS=demo)',
  options: z.object({}),
  create: (_options, deps: { logger: Logger; demoStore: DemoStore }) => new DemoPos({ store: deps.demoStore }),
});
