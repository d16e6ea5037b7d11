import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SquareGiftCards } from '../../adapters/giftcards/SquareGiftCards.ts';
import { TestGiftCards, testCardFor } from '../../adapters/giftcards/TestGiftCards.ts';
import { GiftCardError, idempotencyKeys, type GiftCardCredentials, type GiftCards } from '../../modules/rewards/port.ts';
import { createSquareGiftCardsMock, type SquareFault } from '../mocks/square-gift-cards.ts';

const square = createSquareGiftCardsMock({ lateAnswerMs: 600 });
const server = setupServer(...square.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());
beforeEach(() => square.reset());

const credentials: GiftCardCredentials = { accessToken: 'test-access-token', locationId: 'L-MAIN' };
let n = 0;
const rewardKey = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

/** One adapter and what the contract can observe at its provider. */
type Harness = {
  name: string;
  giftCards: GiftCards;
  isSquare: boolean;
  /** Cards that exist at the provider for these keys (TestGiftCards has no provider: what it returned). */
  cardsAtProvider(): number;
  isActive(giftCardId: string): boolean;
};

const issuedTest = new Set<string>();
const harnesses: Harness[] = [
  {
    name: 'SquareGiftCards (msw)',
    giftCards: new SquareGiftCards({ environment: 'sandbox', timeoutMs: 250 }),
    isSquare: true,
    cardsAtProvider: () => square.cards.size,
    isActive: (id) => square.cards.get(id)?.state === 'ACTIVE',
  },
  {
    name: 'TestGiftCards',
    giftCards: new TestGiftCards(),
    isSquare: false,
    cardsAtProvider: () => issuedTest.size,
    // A Test card holds no value at any provider: it is "active" once issued.
    isActive: (id) => issuedTest.has(id),
  },
];

describe.each(harnesses)('GiftCards contract: $name', (h) => {
  const issue = async (key: string, extra: Partial<Parameters<GiftCards['issue']>[0]> = {}) => {
    const card = await h.giftCards.issue({ rewardKey: key, amountCents: 500, currency: 'USD', credentials, ...extra });
    if (!h.isSquare) issuedTest.add(card.giftCardId);
    return card;
  };
  beforeEach(() => issuedTest.clear());

  it('issues a card with an id and a 16-character number, Square or Test as the spec shows', async () => {
    const card = await issue(rewardKey());
    expect(card.giftCardId).toEqual(expect.any(String));
    expect(card.gan).toMatch(h.isSquare ? /^\d{16}$/ : /^TEST\d{12}$/);
    expect(card.isSquareGiftCard).toBe(h.isSquare);
    expect(h.isActive(card.giftCardId)).toBe(true);
  });

  it('returns the same card for the same reward, however often it is asked, and never makes a second one', async () => {
    const key = rewardKey();
    const first = await issue(key);
    const again = await issue(key);
    const third = await issue(key);
    expect(again).toEqual(first);
    expect(third).toEqual(first);
    expect(h.cardsAtProvider()).toBe(1);
  });

  it('gives different rewards different cards', async () => {
    const a = await issue(rewardKey());
    const b = await issue(rewardKey());
    expect(a.gan).not.toBe(b.gan);
    expect(a.giftCardId).not.toBe(b.giftCardId);
  });

  it('hands the created card to onCreated once, before the card is active', async () => {
    const seen: Array<{ giftCardId: string; activeThen: boolean }> = [];
    const card = await issue(rewardKey(), {
      onCreated: async (created) => {
        seen.push({ giftCardId: created.giftCardId, activeThen: h.isSquare ? h.isActive(created.giftCardId) : false });
      },
    });
    expect(seen).toEqual([{ giftCardId: card.giftCardId, activeThen: false }]);
  });

  it('resumes from a saved card after a crash in onCreated: the same card, activated once', async () => {
    const key = rewardKey();
    let saved: { giftCardId: string; gan: string } | null = null;
    await expect(
      issue(key, {
        onCreated: async (created) => {
          saved = created;
          throw new Error('worker killed after saving the card');
        },
      }),
    ).rejects.toThrow('worker killed');
    expect(saved).not.toBeNull();
    let called = false;
    const card = await issue(key, { created: saved, onCreated: async () => void (called = true) });
    expect(card).toMatchObject(saved!);
    expect(called).toBe(false);
    expect(h.cardsAtProvider()).toBe(1);
    if (h.isSquare) expect(square.activations.filter((a) => a.giftCardId === card.giftCardId)).toHaveLength(1);
  });

  it('refuses an amount that is not a positive number of cents', async () => {
    await expect(issue(rewardKey(), { amountCents: 0 })).rejects.toThrow(RangeError);
    await expect(issue(rewardKey(), { amountCents: 2.5 })).rejects.toThrow(RangeError);
  });
});

describe('TestGiftCards', () => {
  it('derives the number from the reward key alone: another process gives the same card', async () => {
    const key = rewardKey();
    expect((await new TestGiftCards().issue({ rewardKey: key, amountCents: 100, currency: 'USD', credentials: null })).gan).toBe(testCardFor(key).gan);
  });
});

describe('SquareGiftCards at the network edge', () => {
  const giftCards = new SquareGiftCards({ environment: 'sandbox', timeoutMs: 250 });
  const issue = (key: string, extra: Partial<Parameters<GiftCards['issue']>[0]> = {}) =>
    giftCards.issue({ rewardKey: key, amountCents: 800, currency: 'USD', credentials, ...extra });

  it('creates a DIGITAL card at the location, then activates it with the amount, each with a key derived from our id', async () => {
    const key = rewardKey();
    const card = await issue(key);
    expect(square.requests.map((r) => r.endpoint)).toEqual(['create', 'activate']);
    const [create, activate] = square.requests;
    for (const r of square.requests) {
      expect(r.authorization).toBe('Bearer test-access-token');
      expect(r.squareVersion).toBe('2026-09-16');
    }
    expect(create!.body).toEqual({ idempotency_key: `rewardloop-card-${key}`, location_id: 'L-MAIN', gift_card: { type: 'DIGITAL' } });
    expect(activate!.body).toEqual({
      idempotency_key: `rewardloop-activate-${key}`,
      gift_card_activity: {
        type: 'ACTIVATE',
        location_id: 'L-MAIN',
        gift_card_id: card.giftCardId,
        activate_activity_details: {
          amount_money: { amount: 800, currency: 'USD' },
          buyer_payment_instrument_ids: ['rewardloop-reward'],
          reference_id: key,
        },
      },
    });
    expect(idempotencyKeys(key)).toEqual({ create: `rewardloop-card-${key}`, activate: `rewardloop-activate-${key}` });
    expect(square.cards.get(card.giftCardId)).toMatchObject({ state: 'ACTIVE', balance: 800, locationId: 'L-MAIN', gan: card.gan });
  });

  it('resuming a saved card reads it first and does not create another', async () => {
    const key = rewardKey();
    let saved: { giftCardId: string; gan: string } | null = null;
    square.inject('activate', 'network');
    await expect(issue(key, { onCreated: async (c) => void (saved = c) })).rejects.toBeInstanceOf(GiftCardError);
    square.requests.length = 0;
    const card = await issue(key, { created: saved });
    expect(square.requests.map((r) => r.endpoint)).toEqual(['get', 'activate']);
    expect(card.giftCardId).toBe(saved!.giftCardId);
    expect(square.cards.size).toBe(1);
  });

  it('does not activate again a saved card that an earlier attempt already activated (answer lost)', async () => {
    const key = rewardKey();
    let saved: { giftCardId: string; gan: string } | null = null;
    square.inject('activate', 'after-network');
    await expect(issue(key, { onCreated: async (c) => void (saved = c) })).rejects.toBeInstanceOf(GiftCardError);
    expect(square.cards.get(saved!.giftCardId)?.state).toBe('ACTIVE');
    square.requests.length = 0;
    await issue(key, { created: saved });
    expect(square.requests.map((r) => r.endpoint)).toEqual(['get']);
    expect(square.activations).toHaveLength(1);
  });

  it('a card created but never heard of (killed between create and activate) is found again by its idempotency key', async () => {
    const key = rewardKey();
    square.inject('create', 'after-network');
    await expect(issue(key)).rejects.toMatchObject({ retryable: true, code: 'NETWORK' });
    expect(square.cards.size).toBe(1);
    const card = await issue(key);
    expect(square.cards.size).toBe(1);
    expect(square.activations).toEqual([{ giftCardId: card.giftCardId, amount: 800, currency: 'USD', idempotencyKey: `rewardloop-activate-${key}` }]);
  });

  it.each<[SquareFault, 'create' | 'activate', Record<string, unknown>]>([
    ['500', 'create', { retryable: true, status: 500, code: 'INTERNAL_SERVER_ERROR' }],
    ['429', 'create', { retryable: true, status: 429, code: 'RATE_LIMITED' }],
    ['timeout', 'create', { retryable: true }],
    ['network', 'activate', { retryable: true, code: 'NETWORK' }],
    ['after-timeout', 'activate', { retryable: true }],
    ['after-500', 'activate', { retryable: true, status: 500 }],
  ])('%s on %s is a retryable GiftCardError, and the retry ends with one active card', async (fault, endpoint, expected) => {
    const key = rewardKey();
    square.inject(endpoint, fault);
    const failure = await issue(key).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GiftCardError);
    expect(failure).toMatchObject(expected);
    const card = await issue(key);
    expect(square.cards.size).toBe(1);
    expect(square.activations.filter((a) => a.giftCardId === card.giftCardId)).toHaveLength(1);
    expect(square.cards.get(card.giftCardId)).toMatchObject({ state: 'ACTIVE', balance: 800 });
  });

  it('a refused request is not retryable, and the token never appears in the error', async () => {
    const refused = await issue(rewardKey(), { credentials: { accessToken: 'test-access-token', locationId: '' } }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ retryable: false, status: 400 });
    const unauthorized = await issue(rewardKey(), { credentials: { accessToken: 'sq0atp-SECRET-TOKEN', locationId: 'L-MAIN' } }).catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ status: 401, code: 'UNAUTHORIZED', retryable: true });
    expect(String((unauthorized as Error).message)).not.toContain('SECRET');
    await expect(issue(rewardKey(), { credentials: null })).rejects.toMatchObject({ retryable: false, code: 'NO_CREDENTIALS' });
  });
});
