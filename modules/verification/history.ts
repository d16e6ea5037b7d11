import { isCopyOfAny } from './fingerprint.ts';
import type { VerificationEvidence, VerificationHistory } from './port.ts';

/**
 * VerificationHistory in memory, for tests and demos: `markRewarded` records what a reward used,
 * as the submission module does in the database.
 */
export class InMemoryVerificationHistory implements VerificationHistory {
  private readonly images = new Set<string>();
  private readonly texts = new Set<string>();
  private readonly fingerprints = new Map<string, string[]>();

  markRewarded(businessId: string, evidence: Partial<Pick<VerificationEvidence, 'imageHash' | 'imageFingerprint' | 'normalisedReviewText'>>): void {
    if (evidence.imageHash) this.images.add(`${businessId}\u0000${evidence.imageHash}`);
    if (evidence.imageFingerprint) this.fingerprints.set(businessId, [...(this.fingerprints.get(businessId) ?? []), evidence.imageFingerprint]);
    if (evidence.normalisedReviewText) this.texts.add(`${businessId}\u0000${evidence.normalisedReviewText}`);
  }

  async isImageRewarded(businessId: string, imageHash: string): Promise<boolean> {
    return this.images.has(`${businessId}\u0000${imageHash}`);
  }

  async isCopyRewarded(businessId: string, imageFingerprint: string): Promise<boolean> {
    return isCopyOfAny(imageFingerprint, this.fingerprints.get(businessId) ?? []);
  }

  async isReviewTextRewarded(businessId: string, normalisedText: string): Promise<boolean> {
    return this.texts.has(`${businessId}\u0000${normalisedText}`);
  }

  clear(): void {
    this.images.clear();
    this.texts.clear();
    this.fingerprints.clear();
  }
}

/** A history in which nothing was ever rewarded. */
export const EMPTY_VERIFICATION_HISTORY: VerificationHistory = {
  isImageRewarded: async () => false,
  isCopyRewarded: async () => false,
  isReviewTextRewarded: async () => false,
};
