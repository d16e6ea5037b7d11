/**
 * The PosConnector port (issue 5): how RewardLoop connects a business's point-of-sale account.
 * Adapters: `SquarePos` (Square's OAuth and Locations API through the `square` SDK) and `DemoPos`
 * (a local consent page, random opaque tokens, two demo locations; no keys, not for production).
 * Plain types only: no SDK, no ORM.
 */
import { DomainError } from '../shared/errors.ts';

/** A point-of-sale location, in the spec's client shape (section 3, "Point-of-sale location"). */
export type PosLocation = {
  id: string;
  name: string;
  /** ACTIVE or another status (Square: INACTIVE). */
  status: string;
  business_name: string | null;
  address: {
    address_line_1: string | null;
    address_line_2: string | null;
    locality: string | null;
    administrative_district_level_1: string | null;
    postal_code: string | null;
  };
};

/** What an authorization code or a refresh token buys: the plain tokens (encrypt before storing). */
export type PosTokens = {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working (Square: 30 days after it was issued); null if not told. */
  expiresAt: Date | null;
  merchantId: string;
};

export interface PosConnector {
  /** `square` or `demo`: which adapter this is. */
  readonly id: 'square' | 'demo';
  /** Where to send the owner's browser to grant access; `state` comes back to the callback unchanged. */
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  /** Redeems a one-time authorization code. Throws PosError `rejected` for an unknown, expired or used code. */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<PosTokens>;
  /** A new access token before the old one expires. Throws PosError `rejected` when the grant was revoked. */
  refresh(refreshToken: string): Promise<PosTokens>;
  /** Ends the grant at the provider (every token of this application for that merchant). */
  revoke(accessToken: string): Promise<void>;
  /** The merchant's locations. Throws PosError `unauthorized` when the token no longer works. */
  listLocations(accessToken: string): Promise<PosLocation[]>;
  /** The demo's local consent page (POS=demo only). */
  readonly demoConsent?: DemoConsent;
}

/**
 * `rejected`: the provider refused a code or refresh token (unknown, used, expired, revoked);
 * `unauthorized`: an access token no longer works; `unavailable`: timeouts, 5xx, 429, network.
 * Messages never carry a token.
 */
export type PosErrorCode = 'rejected' | 'unauthorized' | 'unavailable';

export class PosError extends DomainError {
  static override readonly kind = 'PosError';
  readonly code: PosErrorCode;
  /** The provider's HTTP status, when there was one. */
  readonly status: number | null;
  constructor(code: PosErrorCode, message: string, status: number | null = null) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** The demo connector's consent page hands out codes through this (only `DemoPos` has it). */
export interface DemoConsent {
  /** A one-time authorization code for the demo merchant, valid for a few minutes. */
  issueCode(): Promise<string>;
}

/**
 * What the Square OAuth grant asks for: the merchant profile (which also covers ListLocations) and
 * gift cards (create, activate, read). The rewards module issues gift cards with the same token.
 */
export const POS_SCOPES = ['MERCHANT_PROFILE_READ', 'GIFTCARDS_READ', 'GIFTCARDS_WRITE'] as const;
