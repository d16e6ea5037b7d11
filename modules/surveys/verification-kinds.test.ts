import { describe, expect, it } from 'vitest';
import { allQuestions } from './questions.ts';
import {
  isBlock,
  isSharing,
  QUESTION_TYPES,
  SHARING_TYPES,
  TEMPLATES,
  VERIFICATION_KIND_BY_TYPE,
  VERIFICATION_KINDS,
  verificationKindOf,
  type Question,
} from './template.ts';

describe('the one table from question type to verification kind (issue 11)', () => {
  it('maps a review block to review, a follow block to follow and a tag block to tag', () => {
    expect(VERIFICATION_KIND_BY_TYPE).toEqual({ review_submission: 'review', social_submission: 'follow', social_tag_submission: 'tag' });
    expect(Object.values(VERIFICATION_KIND_BY_TYPE).sort()).toEqual([...VERIFICATION_KINDS].sort());
  });

  it('names the sharing types, and only question types that exist', () => {
    expect(SHARING_TYPES).toEqual(['review_submission', 'social_submission', 'social_tag_submission']);
    for (const type of SHARING_TYPES) expect(QUESTION_TYPES).toContain(type);
  });

  it('gives every part-3 block of every template a kind, on its platform, and nothing else a kind', () => {
    for (const template of Object.values(TEMPLATES)) {
      const questions = allQuestions(template);
      const blocks = questions.filter(isBlock);
      expect(blocks.length).toBeGreaterThan(0);
      for (const q of blocks) {
        expect(verificationKindOf(q)).toBe(VERIFICATION_KIND_BY_TYPE[q.type]);
        expect(q.platform).toBeTruthy();
      }
      for (const q of questions.filter((x) => !isBlock(x))) expect(verificationKindOf(q)).toBeNull();
    }
    const google = allQuestions(TEMPLATES.restaurant_cafe_bakery!).filter(isBlock);
    expect(Object.fromEntries(google.map((q) => [q.id, verificationKindOf(q)]))).toMatchObject({ review_google: 'review', social_instagram: 'follow', tag_us_x: 'tag' });
  });

  it('is not fooled by inherited keys or a sharing question without a platform', () => {
    const odd = (type: string) => ({ id: 'q', type, text: 't', points: 0, required: false }) as unknown as Question;
    expect(verificationKindOf(odd('toString'))).toBeNull();
    expect(isSharing(odd('constructor'))).toBe(false);
    expect(isSharing(odd('review_submission'))).toBe(true);
    expect(isBlock(odd('review_submission'))).toBe(false);
    expect(isBlock({ ...odd('social_submission'), platform: 'x' })).toBe(true);
  });
});
