import { describe, expect, it } from 'vitest';
import type { ReviewPlatform } from '../port.ts';
import { FACEBOOK_PRIYA, GOOGLE_ANA, GOOGLE_JOSE, YELP_MARCUS } from '../../../tests/fixtures/screenshot-readings.ts';
import { reviewPlatformScores } from './markers.ts';
import { ocrFromText } from './ocr.ts';
import { hasText } from './verdicts.ts';

const ocr = ocrFromText;


describe('platform markers', () => {
  it.each<[string, string, ReviewPlatform]>([
    ['Google', GOOGLE_ANA, 'google'],
    ['Google without the word Google', GOOGLE_JOSE, 'google'],
    ['Yelp', YELP_MARCUS, 'yelp'],
    ['Facebook', FACEBOOK_PRIYA, 'facebook'],
  ])('a %s review scores highest for its platform', (_label, text, platform) => {
    const scores = reviewPlatformScores(ocr(text));
    const best = (Object.entries(scores) as Array<[ReviewPlatform, number]>).sort((a, b) => b[1] - a[1])[0]![0];
    expect(best).toBe(platform);
    expect(scores[platform]).toBeGreaterThanOrEqual(3);
  });

  it('a star row counts as a Google or Yelp marker', () => {
    const text = ocr('Ana Pereira\n2 days ago');
    expect(reviewPlatformScores(text, [{ y: 10, filled: 5 }]).google).toBe(reviewPlatformScores(text).google + 1);
  });

  it.each([
    ['', false],
    ['al @m 9:41', false],
    ['|| -- ~ ,, ..', false],
    ['Ana Pereira reviewed', true],
  ])('hasText(%j) = %s', (text, expected) => expect(hasText(ocr(text))).toBe(expected));
});
