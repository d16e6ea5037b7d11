import { describe, expect, it } from 'vitest';
import { ocrFromText } from './judge.ts';
import type { SocialVerificationRequest, VerificationHistory } from './port.ts';
import { verifySocialWith, type ScreenshotReader } from './verify.ts';

/** A reader that "reads" the given text, with a fixed hash and fingerprint. */
const reader = (text: string): ScreenshotReader => ({
  open: async () => ({ imageHash: 'sha256:' + '0'.repeat(64), imageFingerprint: 'fp2:test', read: async () => ({ kind: 'read', ocr: ocrFromText(text), starRows: [] }) }),
});
const history = (same: boolean, similar: boolean): VerificationHistory => ({
  isImageRewarded: async () => same,
  isCopyRewarded: async () => similar,
  isReviewTextRewarded: async () => false,
});
const follow: SocialVerificationRequest = {
  businessId: 'b',
  businessName: 'Blue Door Café',
  platform: 'instagram',
  image: Buffer.from('x'),
  userHandle: 'ana',
  businessHandle: '@bluedoorcafe',
  verificationType: 'follow',
};
const profile = (button: string) => `< bluedoorcafe\n491 5,032 356\nposts followers following\nBlue Door Cafe\n${button} Message`;

describe('a screenshot found only by its fingerprint (ADR 074, 077)', () => {
  it("a follow that would be accepted goes to the owner's review; a rejection stands; the same pixels stay a duplicate", async () => {
    const fresh = await verifySocialWith(reader(profile('Following')), history(false, false), follow);
    expect(fresh).toMatchObject({ verdict: 'accepted', isValid: true, reviewCode: null });
    const similar = await verifySocialWith(reader(profile('Following')), history(false, true), follow);
    expect(similar).toMatchObject({ verdict: 'needs_review', isValid: true, rejectionCode: null, rejectionReason: null, reviewCode: 'similar_capture' });
    expect(similar.reviewReason).toContain('already rewarded at Blue Door Café');
    expect(await verifySocialWith(reader(profile('Follow')), history(false, true), follow)).toMatchObject({ verdict: 'rejected', isValid: false, rejectionCode: 'not_following' });
    expect(await verifySocialWith(reader(profile('Following')), history(true, true), follow)).toMatchObject({ verdict: 'rejected', rejectionCode: 'duplicate' });
  });

  it('a tag found only by its fingerprint stays a duplicate', async () => {
    const tag = { ...follow, userHandle: '@ana.pereira', verificationType: 'tag' as const };
    const post = 'ana.pereira\nana.pereira Best brunch in town @bluedoorcafe\n2 hours ago';
    expect(await verifySocialWith(reader(post), history(false, false), tag)).toMatchObject({ verdict: 'accepted' });
    expect(await verifySocialWith(reader(post), history(false, true), tag)).toMatchObject({ verdict: 'rejected', rejectionCode: 'duplicate' });
  });
});
