import { describe, expect, it } from 'vitest';
import { InMemoryVerificationHistory } from './history.ts';
import { GOOGLE_ANA, INSTAGRAM_PROFILE, X_PROFILE } from '../../tests/fixtures/screenshot-readings.ts';
import { ocrFromText } from './judge/ocr.ts';
import type { SocialVerificationRequest, VerificationHistory } from './port.ts';
import { verifyReviewWith, verifySocialWith, type ScreenshotReader } from './verify.ts';

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

const ocr = ocrFromText;


describe('verifyReviewWith / verifySocialWith (order of checks, history)', () => {
  const reads: string[] = [];
  const reader = (text: string, hash = 'sha256:aaa'): ScreenshotReader => ({
    open: async () => ({
      imageHash: hash,
      read: async () => {
        reads.push(hash);
        return { kind: 'read', ocr: ocr(text), starRows: [] };
      },
    }),
  });
  const review = {
    businessId: 'b1',
    businessName: 'Crumb & Co Bakery',
    platform: 'google' as const,
    image: Buffer.from('x'),
    reviewerName: 'Ana Pereira',
    reviewLink: 'https://maps.app.goo.gl/abc',
  };

  it('returns the evidence of a valid review', async () => {
    const result = await verifyReviewWith(reader(GOOGLE_ANA), new InMemoryVerificationHistory(), review);
    expect(result).toMatchObject({ isValid: true, rejectionReason: null, rejectionCode: null, evidence: { imageHash: 'sha256:aaa', starRating: null } });
    expect(result.evidence.reviewText).toMatch(/^Best croissants/);
  });

  it('rejects a rewarded image before reading it', async () => {
    const history = new InMemoryVerificationHistory();
    history.markRewarded('b1', { imageHash: 'sha256:seen' });
    reads.length = 0;
    const result = await verifyReviewWith(reader(GOOGLE_ANA, 'sha256:seen'), history, review);
    expect(result).toMatchObject({ isValid: false, rejectionCode: 'duplicate' });
    expect(result.rejectionReason).toMatch(/already been used for a reward at Crumb & Co Bakery/);
    expect(reads).toEqual([]);
    // Another business may reward the same picture.
    expect((await verifyReviewWith(reader(GOOGLE_ANA, 'sha256:seen'), history, { ...review, businessId: 'b2' })).isValid).toBe(true);
  });

  it('rejects a rewarded review text under another image', async () => {
    const history = new InMemoryVerificationHistory();
    const first = await verifyReviewWith(reader(GOOGLE_ANA, 'sha256:one'), history, review);
    history.markRewarded('b1', first.evidence);
    const again = await verifyReviewWith(reader(GOOGLE_ANA.replace('9:41', '10:02'), 'sha256:two'), history, review);
    expect(again).toMatchObject({ isValid: false, rejectionCode: 'duplicate' });
    expect(again.rejectionReason).toMatch(/This review has already been used/);
    expect(again.evidence.reviewText).toBe(first.evidence.reviewText);
  });

  it.each([
    ['reviewerName', { reviewerName: ' ' }, 'name_mismatch', /enter your name/],
    ['reviewLink', { reviewLink: '' }, 'not_posted', /paste the link/],
    ['a link elsewhere', { reviewLink: 'https://example.com/r' }, 'wrong_platform', /example\.com/],
    ['a link to another business', { reviewLink: 'https://www.google.com/maps/place/Golden+Wok+Noodle+House/@45.5,-122.6' }, 'wrong_business', /another business/],
  ])('checks %s before reading', async (_label, patch, code, reason) => {
    reads.length = 0;
    const result = await verifyReviewWith(reader(GOOGLE_ANA), new InMemoryVerificationHistory(), { ...review, ...patch });
    expect(result).toMatchObject({ isValid: false, rejectionCode: code });
    expect(result.rejectionReason).toMatch(reason);
    expect(reads).toEqual([]);
  });

  it('reports an image that cannot be decoded, a timeout, and unknown platforms', async () => {
    const history = new InMemoryVerificationHistory();
    const undecodable: ScreenshotReader = { open: async () => ({ imageHash: 'sha256:x', read: null }) };
    expect(await verifyReviewWith(undecodable, history, review)).toMatchObject({ isValid: false, rejectionCode: 'unreadable' });
    const slow: ScreenshotReader = { open: async () => ({ imageHash: 'sha256:x', read: async () => ({ kind: 'timeout' }) }) };
    expect(await verifyReviewWith(slow, history, review)).toMatchObject({
      isValid: false,
      rejectionCode: 'unreadable',
      rejectionReason: "We couldn't read this screenshot in time. Please try again.",
    });
    await expect(verifyReviewWith(slow, history, { ...review, platform: 'tripadvisor' as never })).rejects.toThrow(TypeError);
  });

  it('judges a social screenshot and requires both handles', async () => {
    const social = {
      businessId: 'b1',
      businessName: 'Crumb & Co Bakery',
      platform: 'instagram' as const,
      image: Buffer.from('x'),
      userHandle: 'ana.pereira',
      businessHandle: 'crumbandco',
      verificationType: 'follow' as const,
    };
    const history = new InMemoryVerificationHistory();
    expect(await verifySocialWith(reader(INSTAGRAM_PROFILE('Following Message')), history, social)).toMatchObject({ isValid: true });
    expect(await verifySocialWith(reader(INSTAGRAM_PROFILE('Following Message')), history, { ...social, userHandle: '@' })).toMatchObject({
      isValid: false,
      rejectionCode: 'wrong_account',
    });
    expect(await verifySocialWith(reader(INSTAGRAM_PROFILE('Following Message')), history, { ...social, businessHandle: '' })).toMatchObject({
      isValid: false,
      rejectionCode: 'wrong_business',
    });
  });
});

describe('the closer reading (ADR 045)', () => {
  const follow = { businessId: 'b1', businessName: 'Crumb & Co Bakery', platform: 'instagram' as const, image: Buffer.from('x'), userHandle: '@ana.pereira', businessHandle: '@crumbandco', verificationType: 'follow' as const };
  const reader = (first: string, closer: string | null, asked: string[]): ScreenshotReader => ({
    open: async () => ({
      imageHash: 'sha256:c',
      read: async () => ({
        kind: 'read',
        ocr: ocr(first),
        starRows: [],
        ...(closer === null
          ? {}
          : {
              more: async () => {
                asked.push('more');
                return { kind: 'read' as const, ocr: ocr(closer), starRows: [] };
              },
            }),
      }),
    }),
  });

  it('is asked for when a rejection may turn on words the first pass missed, and its verdict stands', async () => {
    const asked: string[] = [];
    const missed = INSTAGRAM_PROFILE('');
    const result = await verifySocialWith(reader(missed, INSTAGRAM_PROFILE('Following'), asked), new InMemoryVerificationHistory(), follow);
    expect(result).toMatchObject({ isValid: true });
    expect(asked).toEqual(['more']);
    // It also stands when it rejects: it saw more.
    const still = await verifySocialWith(reader(missed, INSTAGRAM_PROFILE('Follow'), asked), new InMemoryVerificationHistory(), follow);
    expect(still).toMatchObject({ isValid: false, rejectionCode: 'not_following' });
  });

  it('is not asked for on an accepted screenshot or a rejection more words cannot turn', async () => {
    const asked: string[] = [];
    expect(await verifySocialWith(reader(INSTAGRAM_PROFILE('Following'), INSTAGRAM_PROFILE('Follow'), asked), new InMemoryVerificationHistory(), follow)).toMatchObject({ isValid: true });
    expect(await verifySocialWith(reader(X_PROFILE, INSTAGRAM_PROFILE('Following'), asked), new InMemoryVerificationHistory(), follow)).toMatchObject({ rejectionCode: 'wrong_platform' });
    expect(asked).toEqual([]);
  });
});
