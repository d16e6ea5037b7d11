import { describe, expect, it } from 'vitest';
import { FACEBOOK_PRIYA, GOOGLE_ANA, GOOGLE_JOSE, INSTAGRAM_PROFILE, YELP_MARCUS } from '../../../tests/fixtures/screenshot-readings.ts';
import { findHandle, findHandles } from './handles.ts';
import { findBusinessName, findName } from './names.ts';
import { ocrFromText } from './ocr.ts';
import { judgeSocial } from './social.ts';

const ocr = ocrFromText;


describe('findName', () => {
  it.each([
    ['Ana Pereira', GOOGLE_ANA],
    ['ana pereira', GOOGLE_ANA],
    ['ANA PEREIRA', GOOGLE_ANA],
    ['Ana P.', GOOGLE_ANA],
    ['Ana P', GOOGLE_ANA],
    ['Ana Pereira', 'AnaPereira'], // word break lost
    ['Ana Pereira', 'Ana Pe reira'], // word break added
    ['Ana Pereira', 'Ana P.'], // the screen shows an initial
    ['ana pereira', 'AnaP.'], // Yelp's initial with the space lost
    ['Marcus L.', 'MarcusL.\nChicago, IL'],
    ['Thandiwe Nkosi', 'Thandiwe NKkosi'], // OCR doubled a capital as capital and small letter
    ['Jose Alvarez', GOOGLE_JOSE],
    ['José Álvarez', GOOGLE_JOSE],
    ["Liam O'Brien", 'Liam O’Brien\n4 reviews'],
    ['Liam OBrien', "Liam O'Brien"],
    ['Marcus Lee', YELP_MARCUS],
    ['Fátima El Idrissi', 'FatimaI.\nAustin, TX'], // Yelp: the first name and the last name's initial (ADR 096)
    ['Nguyen Thi Lan', 'Nguyén L.\nPortland, OR'],
    ['Tomás Ó Briain', 'Tomas B.'],
    ['Priya Shah', FACEBOOK_PRIYA],
  ])('finds %j', (name, text) => expect(findName(ocr(text), name)).not.toBeNull());

  it.each([
    ['Ana Pereira', GOOGLE_JOSE],
    ['Ana Silva', GOOGLE_ANA],
    ['Ana', 'Fresh banana bread every morning'],
    ['Al', 'Ali Khan'],
    ['Ana Pereira', 'a p b c'], // initials alone never match
    ['A. P.', GOOGLE_ANA],
    ['', GOOGLE_ANA],
    ['   ', GOOGLE_ANA],
    ['Marcus Lee', GOOGLE_ANA],
    ['Ana Ferreira', GOOGLE_ANA], // another person: two letters apart
    ['Anna Pereira', 'Ana Ferreira'],
    ['Ana Pereira', 'AnaFerreira'],
    ['Ana Pereira', 'AnaF.'], // another initial, space lost
    ['Aron Silva', 'Aaron Silva'], // a real double letter at the start is another name
    ['Thandiwe Nkosi', 'Thandiwe NKkkosi'],
    ['Sofia Rossa', 'Sofia Rossi'], // another person one letter away
    ['Ana Pereira', 'Ana Pereia\nLocal Guide'], // a letter lost: not forgiven (OCR look-alikes only)
    ['Fatima Zahra El Idrissi', 'Fatima Zahra El Itrissi'], // its first words apart are not its initials glued
    ['Nguyen Thi Lan', 'Nguyen T.'], // the last name's initial, not a middle one
    ['Nguyen Thi Lan', 'Nguyen Lam'], // a whole word is not an initial
  ])('does not find %j', (name, text) => expect(findName(ocr(text), name)).toBeNull());

  it('reports the line where the name is', () => {
    expect(findName(ocr(GOOGLE_ANA), 'Ana Pereira')?.line).toBe(7);
  });
});

describe('findBusinessName and findHandle', () => {
  it.each([
    ['Crumb & Co Bakery', GOOGLE_ANA],
    ['Crumb and Co Bakery', 'Crumb & Co Bakery'], // '&' typed as 'and'... folded away on both sides
    ['crumb & co bakery', 'CRUMB & CO BAKERY'],
    ['Crumb & Co Bakery', 'Crumb & Co'], // the screen drops the generic word
    ['Crumb & Co Bakery', 'Crurnb & Co Bakery'], // rn for m
    ['Pierogarnia Złota Kaczka', 'Pierogarnia Ztota Kaczka'], // 'ł' as OCR reads it (ADR 096)
  ])('business %j is found', (name, text) => expect(findBusinessName(ocr(text), name)).not.toBeNull());

  it.each([
    ['Crumb & Co Bakery', 'Golden Wok Noodle House'],
    ['Crumb & Co Bakery', 'Bakery'], // only the generic word
    ['The Bakery', 'Bakery'],
    ['Pierogarnia Zlota Kaczka', 'Pierogarnia Ztota Kaczka'], // only a name that has 'ł' is read so
  ])('business %j is not found in %j', (name, text) => expect(findBusinessName(ocr(text), name)).toBeNull());

  it.each([
    ['crumbandco', 'crumbandco', false],
    ['@crumbandco', '& crumbandco', false],
    ['crumb.and.co', 'crumb.and.co', false],
    ['crumbandco', 'oat latte at @crumbandco', true],
    ['crumbandco', 'oat latte at ©crumbandco', true],
    ['crumbandco', 'oat latte at @crurnbandco', true],
    ['https://www.instagram.com/crumbandco/', 'at @crumbandco!', true],
  ])('handle %j in %j (mention: %s)', (handle, text, mention) => expect(findHandle(ocr(text), handle, { mention })).not.toBeNull());

  it.each([
    ['crumbandco', 'Crumb & Co Bakery', false],
    ['crumbandco', 'Crumb & Co Bakery', true],
    ['crumbandco', 'crumbandco', true], // no @: not a mention
    ['goldenwokpdx', INSTAGRAM_PROFILE('Following Message'), false],
    ['', 'crumbandco', false],
    ['crumbandco', 'crumbandgo2', false],
  ])('handle %j not in %j (mention: %s)', (handle, text, mention) => expect(findHandle(ocr(text), handle, { mention })).toBeNull());
});

describe('handles split by OCR', () => {
  const tagged = (words: Array<[string, number, number]>) => {
    const ocrText = ocr('danielkim.eats\nx\n20 nov');
    ocrText.lines[1] = {
      text: words.map(([w]) => w).join(' '),
      confidence: 90,
      bbox: { x0: words[0]![1], y0: 50, x1: words.at(-1)![2], y1: 90 },
      words: words.map(([text, x0, x1]) => ({ text, confidence: 90, bbox: { x0, y0: 50, x1, y1: 90 } })),
    };
    return ocrText;
  };
  const tag = { platform: 'tiktok' as const, businessName: 'Sunrise Bagels', businessHandle: 'sunrisebagels', userHandle: '@danielkim.eats', verificationType: 'tag' as const };

  it('glues a tight split after a dot: @sunrisebagels.p is another account', () => {
    const verdict = judgeSocial(tag, tagged([['Could', 0, 100], ['eat', 115, 180], ['@sunrisebagels.', 195, 500], ['p', 502, 520], ['every', 540, 640]]));
    expect(verdict).toMatchObject({ ok: false, code: 'wrong_account' });
    expect(findHandles(tagged([['@sunrisebagels.', 195, 500], ['p', 502, 520]]), 'sunrisebagels')).toEqual([]);
  });

  it('keeps a sentence end: "@sunrisebagels. pretty" mentions the business', () => {
    expect(findHandles(tagged([['@sunrisebagels.', 195, 500], ['pretty', 515, 620]]), 'sunrisebagels')).toHaveLength(1);
  });
});

describe('business names cut short by OCR', () => {
  it("'Ember & Oak Gril' (the last letter lost) names Ember & Oak Grill; another word after the name does not", () => {
    expect(findBusinessName(ocr('X Ember & Oak Gril\nGoogle reviews'), 'Ember & Oak Grill')).not.toBeNull();
    expect(findBusinessName(ocr('X Ember & Oak Tavern\nGoogle reviews'), 'Ember & Oak Grill')).toBeNull();
  });
});
