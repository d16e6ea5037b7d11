/**
 * The GiftCards port: a gift card with a value for one reward. Adapters: SquareGiftCards (a DIGITAL
 * Square card at the business's location, created then activated) and TestGiftCards (no network;
 * a Test card). Both are idempotent per `rewardKey`: asked again for the same reward they return the
 * same card, never a second one (ADR 018).
 */
import { DomainError } from '../shared/errors.ts';

/** What the reward job knows of the business's Square account (modules/pos/credentials.ts). */
export type GiftCardCredentials = { accessToken: string; locationId: string };

/** A card that exists at the provider but may not hold its value yet (Square: state PENDING). */
export type CreatedCard = { giftCardId: string; gan: string };

export type IssueCardRequest = {
  /** Our id for the reward (the survey response's id): every idempotency key is derived from it. */
  rewardKey: string;
  amountCents: number;
  currency: 'USD';
  /** Square needs them; TestGiftCards ignores them. */
  credentials: GiftCardCredentials | null;
  /**
   * The card an earlier attempt created and the caller saved (`onCreated`): the adapter resumes from
   * it (checks it, activates it if it is not active yet) instead of creating one.
   */
  created?: CreatedCard | null;
  /**
   * Called once the card exists and before it is given its value. The caller persists it, so that a
   * crash between the two steps resumes with `created` (ADR 018). A throw stops the issue.
   */
  onCreated?: (card: CreatedCard) => Promise<void>;
};

export type IssuedCard = {
  giftCardId: string;
  /** The gift card number the customer redeems (Square's GAN). */
  gan: string;
  /** Spec `isSquareGiftCard`: true for Square, false for a Test card. */
  isSquareGiftCard: boolean;
};

export interface GiftCards {
  readonly id: 'square' | 'test';
  issue(request: IssueCardRequest): Promise<IssuedCard>;
}

/**
 * A provider failure. `retryable`: worth another attempt later (5xx, 429, timeouts, the network,
 * an expired token that a refresh may fix); otherwise retrying cannot help (a refused request).
 * The message never carries a token.
 */
export class GiftCardError extends DomainError {
  static override readonly kind = 'GiftCardError';
  readonly retryable: boolean;
  readonly code: string;
  readonly status: number | null;
  constructor(message: string, options: { retryable: boolean; code: string; status?: number | null; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.retryable = options.retryable;
    this.code = options.code;
    this.status = options.status ?? null;
  }
}

/**
 * Idempotency keys derived from our reward id, one per step: the same reward always sends the same
 * keys, so Square answers a repeated request with the first result instead of doing it again.
 * (Square allows up to 128 characters; a UUID reward key gives 51.)
 */
export function idempotencyKeys(rewardKey: string): { create: string; activate: string } {
  return { create: `rewardloop-card-${rewardKey}`, activate: `rewardloop-activate-${rewardKey}` };
}
