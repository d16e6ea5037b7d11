import { createHash } from 'node:crypto';
import type { GiftCards, IssueCardRequest, IssuedCard } from '../../modules/rewards/index.ts';
import { z } from 'zod';
import { defineProvider } from '../../modules/shared/index.ts';

/**
 * Test cards when a business has no Square account with a location (or GIFT_CARDS=test): no
 * network, no value. The number is deterministic per reward, 'TEST' and 12 digits (16 characters,
 * like a Square GAN), so a retry returns the same card; `isSquareGiftCard` is false and the email
 * and the owner's list label it Test.
 */
export class TestGiftCards implements GiftCards {
  readonly id = 'test' as const;

  async issue(request: IssueCardRequest): Promise<IssuedCard> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new RangeError(`A gift card needs a positive amount in cents, got ${request.amountCents}`);
    }
    if (request.created) return { ...request.created, isSquareGiftCard: false };
    const card = testCardFor(request.rewardKey);
    await request.onCreated?.(card);
    return { ...card, isSquareGiftCard: false };
  }
}

/** The Test card of a reward: the same key always gives the same number. */
export function testCardFor(rewardKey: string): { giftCardId: string; gan: string } {
  const digest = createHash('sha256').update(`rewardloop test gift card\u0000${rewardKey}`).digest();
  // 12 decimal digits from the first 8 bytes (2^64 > 10^12: every digit string is reachable).
  const digits = (digest.readBigUInt64BE(0) % 10n ** 12n).toString().padStart(12, '0');
  return { giftCardId: `test-${digest.subarray(8, 20).toString('hex')}`, gan: `TEST${digits}` };
}

/** GIFT_CARDS=test (ADR 055): Test cards for every business. */
export const provider = defineProvider({
  id: 'test',
  demo: 'test gift cards (GIFT_CARDS=test)',
  options: z.object({}),
  create: () => new TestGiftCards(),
});
