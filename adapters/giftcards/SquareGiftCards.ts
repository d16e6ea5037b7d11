import type { Square } from 'square';
import {
  GiftCardError,
  idempotencyKeys,
  type CreatedCard,
  type GiftCards,
  type IssueCardRequest,
  type IssuedCard,
} from '../../modules/rewards/index.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

/** Square names this in the activation as the instrument that "paid" for the card: a reward is pre-loaded. */
export const REWARD_PAYMENT_INSTRUMENT = 'rewardloop-reward';

export type SquareGiftCardsOptions = {
  /** `sandbox`, `production`, or a base URL. */
  environment: 'sandbox' | 'production' | (string & {});
  /** Per request; a request that takes longer counts as a retryable failure. Default 15 s. */
  timeoutMs?: number;
};

type SquareCard = Square.GiftCard;
type SquareModule = typeof import('square');

/** The SDK loads on the first card (about a second and 40 MB): processes that never issue one never pay for it. */
let sdk: Promise<SquareModule> | undefined;
const loadSdk = () => (sdk ??= import('square'));

const BASE_URLS = { production: 'https://connect.squareup.com', sandbox: 'https://connect.squareupsandbox.com' } as const;

/**
 * Square gift cards (Gift Cards API + Gift Card Activities API, `square` SDK): a DIGITAL card at the
 * business's chosen location, then an ACTIVATE activity with the reward's amount. Each step sends an
 * idempotency key derived from our reward id, so a repeated step returns the first result. The caller
 * saves the created card (`onCreated`) before activation; a later attempt passes it back as
 * `created`, and the card is read first: already ACTIVE means an earlier attempt activated it.
 *
 * The SDK retries nothing (`maxRetries: 0`): the job queue owns retries with backoff (ADR 018).
 */
export class SquareGiftCards implements GiftCards {
  readonly id = 'square' as const;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(options: SquareGiftCardsOptions) {
    const env = options.environment;
    this.baseUrl = env === 'production' ? BASE_URLS.production : env === 'sandbox' ? BASE_URLS.sandbox : env;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  async issue(request: IssueCardRequest): Promise<IssuedCard> {
    const { credentials } = request;
    if (!credentials) throw new GiftCardError('No Square account to issue the card with.', { retryable: false, code: 'NO_CREDENTIALS' });
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new RangeError(`A gift card needs a positive amount in cents, got ${request.amountCents}`);
    }
    const square = await loadSdk();
    const call = async <T,>(step: string, fn: () => Promise<T>): Promise<T> => {
      try {
        return await fn();
      } catch (error) {
        throw squareFailure(square, step, error);
      }
    };
    const client = new square.SquareClient({
      token: credentials.accessToken,
      environment: this.baseUrl,
      maxRetries: 0,
      timeoutInSeconds: this.timeoutMs / 1000,
    });
    const keys = idempotencyKeys(request.rewardKey);

    let card: SquareCard;
    if (request.created) {
      const found = await call('read the gift card', () => client.giftCards.get({ id: request.created!.giftCardId }));
      card = required(found.giftCard, 'read the gift card');
      if (card.gan !== request.created.gan) {
        throw new GiftCardError(`Square's gift card ${request.created.giftCardId} has another number than the one saved.`, { retryable: false, code: 'GAN_MISMATCH' });
      }
    } else {
      const created = await call('create a gift card', () =>
        client.giftCards.create({ idempotencyKey: keys.create, locationId: credentials.locationId, giftCard: { type: 'DIGITAL' } }),
      );
      card = required(created.giftCard, 'create a gift card');
      await request.onCreated?.(asCreated(card));
    }

    const { giftCardId, gan } = asCreated(card);
    // A repeated create returns the first card as it is now: an earlier attempt may have activated it.
    if (card.state === 'ACTIVE') return { giftCardId, gan, isSquareGiftCard: true };
    if (card.state !== 'PENDING') {
      throw new GiftCardError(`Square's gift card ${giftCardId} is ${card.state ?? 'in an unknown state'} and cannot be activated.`, { retryable: false, code: 'CARD_NOT_PENDING' });
    }
    await call('activate the gift card', () =>
      client.giftCards.activities.create({
        idempotencyKey: keys.activate,
        giftCardActivity: {
          type: 'ACTIVATE',
          locationId: credentials.locationId,
          giftCardId,
          activateActivityDetails: {
            amountMoney: { amount: BigInt(request.amountCents), currency: request.currency },
            buyerPaymentInstrumentIds: [REWARD_PAYMENT_INSTRUMENT],
            referenceId: request.rewardKey,
          },
        },
      }),
    );
    return { giftCardId, gan, isSquareGiftCard: true };
  }
}

function required(card: SquareCard | undefined, step: string): SquareCard {
  if (!card?.id || !card.gan) throw new GiftCardError(`Square's answer to ${step} has no gift card.`, { retryable: true, code: 'EMPTY_RESPONSE' });
  return card;
}

function asCreated(card: SquareCard): CreatedCard {
  return { giftCardId: card.id!, gan: card.gan! };
}

/**
 * Any failure of one Square call as a GiftCardError that says whether a retry can help.
 * 429, 5xx, no answer (timeout, network), 408, 409 (the same idempotency key still in flight) and
 * 401 (an expired token a refresh may fix) are worth retrying; other 4xx mean Square refused this
 * request and will refuse it again.
 */
export function squareFailure(square: Pick<SquareModule, 'SquareError' | 'SquareTimeoutError'>, step: string, error: unknown): GiftCardError {
  if (error instanceof square.SquareTimeoutError) {
    return new GiftCardError(`Square did not answer in time to ${step}.`, { retryable: true, code: 'TIMEOUT', cause: error });
  }
  if (error instanceof square.SquareError && error.statusCode !== undefined) {
    const status = error.statusCode;
    const first = error.errors[0];
    const code = first?.code ?? 'UNKNOWN';
    const detail = first?.detail ? `: ${first.detail.slice(0, 200)}` : '';
    const retryable = status === 429 || status >= 500 || status === 401 || status === 408 || status === 409;
    return new GiftCardError(`Square answered ${status} ${code} to ${step}${detail}`, { retryable, code, status, cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new GiftCardError(`Square could not be reached to ${step} (${reason.slice(0, 200)}).`, { retryable: true, code: 'NETWORK', cause: error });
}

/** GIFT_CARDS=square (ADR 055): Square cards for businesses connected with a location (Test cards for the others). */
export const provider = defineProvider({
  id: 'square',
  options: z.object({ SQUARE_ENVIRONMENT: z.enum(['sandbox', 'production']) }).transform((c) => ({ environment: c.SQUARE_ENVIRONMENT })),
  create: (options) => new SquareGiftCards(options),
});
