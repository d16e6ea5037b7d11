import { describe, expect, it } from 'vitest';
import { allowedEdits, fold, levenshtein, normaliseHandle, normaliseReviewText, ocrKey, words } from './text.ts';


describe('text helpers', () => {
  it.each([
    ['José Álvarez', 'jose alvarez'],
    ['STRAßE', 'strasse'],
    ['Ørsted’s', "orsted's"],
  ])('fold(%s) = %s', (input, expected) => expect(fold(input)).toBe(expected));

  it.each([
    ["Liam O'Brien", ['liam', 'obrien']],
    ['Ana P.', ['ana', 'p']],
    ['  Crumb & Co  ', ['crumb', 'co']],
  ])('words(%s)', (input, expected) => expect(words(input)).toEqual(expected));

  it.each([
    ['Crurnb', 'crumb'],
    ['C0ffee', 'coffee'],
    ['Wi1l', 'will'],
    ['|', 'l'],
    ['vvok', 'wok'],
  ])('ocrKey(%s) = %s', (input, expected) => expect(ocrKey(input)).toBe(ocrKey(expected)));

  it('levenshtein gives up past the limit', () => {
    expect(levenshtein('pereira', 'pereia')).toBe(1);
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
  });

  it.each([
    [3, 0],
    [4, 1],
    [8, 1],
    [9, 2],
    [16, 2],
    [24, 3],
  ])('allowedEdits(%i) = %i', (length, edits) => expect(allowedEdits(length)).toBe(edits));

  it.each([
    ['@Ana.Pereira', 'ana.pereira'],
    ['crumbandco', 'crumbandco'],
    ['https://www.instagram.com/crumbandco/', 'crumbandco'],
    ['instagram.com/crumbandco?hl=en', 'crumbandco'],
    ['https://www.tiktok.com/@crumbandco', 'crumbandco'],
    ['x.com/crumbandco', 'crumbandco'],
    ['  @@crumb_and_co ', 'crumb_and_co'],
    ['', ''],
  ])('normaliseHandle(%s) = %s', (input, expected) => expect(normaliseHandle(input)).toBe(expected));

  it('normaliseReviewText merges what OCR confuses and ignores layout', () => {
    const a = normaliseReviewText('Lovely little bakery with a friendly team. I will be back for the sourdough.');
    const b = normaliseReviewText('Lovely little bakery with a friendly\nteam. | wi1l be back for the sourdough!');
    const c = normaliseReviewText('LOVELY  LITTLE BAKERY, WITH A FRIENDLY TEAM - I WILL BE BACK FOR THE SOURDOUGH');
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(normaliseReviewText('Lovely little bakery with a friendly team. I will be back for the croissants.')).not.toBe(a);
  });

  it('normaliseReviewText ignores texts too short to tell customers apart', () => {
    expect(normaliseReviewText('Great place, great coffee!')).toBeNull();
    expect(normaliseReviewText('')).toBeNull();
  });
});
