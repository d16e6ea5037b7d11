import type { VerificationEvidence, VerificationHistory } from './port.ts';

/**
 * VerificationHistory in memory, for tests and demos: `markRewarded` records what a reward used,
 * as the submission module does in the database.
 */
export class InMemoryVerificationHistory implements VerificationHistory {
  private readonly images = new Set<string>();
  private readonly texts = new Set<string>();

  markRewarded(businessId: string, evidence: Partial<Pick<VerificationEvidence, 'imageHash' | 'normalisedReviewText'>>): void {
    if (evidence.imageHash) this.images.add(`${businessId}\u0000${evidence.imageHash}`);
    if (evidence.normalisedReviewText) this.texts.add(`${businessId}\u0000${evidence.normalisedReviewText}`);
  }

  async isImageRewarded(businessId: string, imageHash: string): Promise<boolean> {
    return this.images.has(`${businessId}\u0000${imageHash}`);
  }

  async isReviewTextRewarded(businessId: string, normalisedText: string): Promise<boolean> {
    return this.texts.has(`${businessId}\u0000${normalisedText}`);
  }

  clear(): void {
    this.images.clear();
    this.texts.clear();
  }
}

/** A history in which nothing was ever rewarded. */
export const EMPTY_VERIFICATION_HISTORY: VerificationHistory = {
  isImageRewarded: async () => false,
  isReviewTextRewarded: async () => false,
};
