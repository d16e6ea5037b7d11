/**
 * Names as people write them (issue 31, part 0; ADR 076): a claim typed without its accents matches
 * the screen's accented name and the reverse, for names of many origins; a different name still
 * fails; OCR look-alikes still merge after folding; and a review whose name does not match has its
 * candidate lines read again with the models of accented letters before it is rejected.
 */
import { describe, expect, it, vi } from 'vitest';
import { findName, nameCandidateLines } from './judge/names.ts';
import { ocrFromText, type OcrText } from './judge/ocr.ts';
import { judgeReview } from './judge/review.ts';
import { EMPTY_VERIFICATION_HISTORY } from './history.ts';
import { fold, ocrKey, substringDistance, umlautSpelling } from './text.ts';
import { verifyReviewWith, type ScreenshotReader, type ScreenshotReading } from './verify.ts';

const ocr = ocrFromText;
const review = (name: string) => `< Crumb & Co Bakery\nGoogle reviews\n${name}\nLocal Guide - 18 reviews\n2 days ago\nThe sourdough is the best in town and the buns sell out by ten.\nLike Share`;

describe('folding', () => {
  it.each([
    ['Łukasz Wróbel', 'lukasz wrobel'],
    ['MAŁGORZATA ŚLIWIŃSKA', 'malgorzata sliwinska'],
    ['Jürgen Weiß', 'jurgen weiss'],
    ['João Gonçalves', 'joao goncalves'],
    ['Şükrü Çelik', 'sukru celik'],
    ['İlkay Gündoğan', 'ilkay gundogan'],
    ['Yıldız Aydın', 'yildiz aydin'],
    ['Nguyễn Thị Hương', 'nguyen thi huong'],
    ['Đặng Văn Đức', 'dang van duc'],
    ['Søren Ærø', 'soren aero'],
    ['Œdipe Þórsson', 'oedipe thorsson'],
    ['Seán O’Brien', "sean o'brien"],
    ['Jose\u0301 Mun\u0303oz', 'jose munoz'], // decomposed accents, as some keyboards send them
  ])('fold(%s) = %s', (input, expected) => expect(fold(input)).toBe(expected));

  it('spells umlauts and ø in two letters as a second spelling', () => {
    expect(umlautSpelling('Jürgen Müller')).toBe('Juergen Mueller');
    expect(umlautSpelling('Søren Ölund')).toBe('Soeren Oelund');
    expect(umlautSpelling('Ana Pereira')).toBeNull();
  });

  it('keeps OCR look-alikes merged after folding', () => {
    expect(ocrKey('Carnille Lefèvre')).toBe(ocrKey('Camille Lefevre'));
    expect(ocrKey('Łukasz Wr0bel')).toBe(ocrKey('Lukasz Wrobel'));
    expect(ocrKey('İlkay')).toBe(ocrKey('Ilkay'));
  });

  it('measures an approximate substring', () => {
    expect(substringDistance('lfukaszwrobelo', 'lukaszwrobel')).toBe(1);
    expect(substringDistance('anapereira', 'pereira')).toBe(0);
    expect(substringDistance('abc', 'xyzxyz', 2)).toBe(3);
  });
});

describe('findName: names of many origins', () => {
  it.each([
    // Spanish, both ways, and two surnames
    ['Jose Munoz', 'José Muñoz'],
    ['José Muñoz', 'Jose Munoz'],
    ['Ines Pena', 'INÉS PEÑA'],
    ['Ana Garcia Lopez', 'Ana García-López'],
    ['Ana García-López', 'Ana Garcia Lopez'],
    ['Ana Garcia', 'Ana García-López'],
    ['Ana Garcia', 'Ana García López'],
    // Portuguese
    ['Joao Goncalves', 'João Gonçalves'],
    ['João Gonçalves', 'Joao Goncalves'],
    // French
    ['Francois Lefevre', 'François Lefèvre'],
    ['Zoe Lefebvre', 'Zoë Lefebvre'],
    ['Jean-Luc Picard', 'Jean Luc Picard'],
    ['jean luc picard', 'Jean-Luc Picard'],
    // German: ü as u or ue, ß as ss, both ways
    ['Jurgen Weiss', 'Jürgen Weiß'],
    ['Juergen Weiss', 'Jürgen Weiß'],
    ['Jürgen Weiß', 'Juergen Weiss'],
    ['Jürgen Weiß', 'Jurgen Weiss'],
    ['Anna Mueller', 'Anna Müller'],
    // Polish
    ['Lukasz Wrobel', 'Łukasz Wróbel'],
    ['Łukasz Wróbel', 'Lukasz Wrobel'],
    ['Malgorzata Sliwinska', 'MAŁGORZATA ŚLIWIŃSKA'],
    ['Lukasz Wrobel', 'Łukasz Wr0bel'], // an OCR look-alike after folding
    // Turkish
    ['Sukru Celik', 'Şükrü Çelik'],
    ['Ilkay Gundogan', 'İlkay Gündoğan'],
    ['Yildiz Aydin', 'Yıldız Aydın'],
    // Vietnamese in Latin script
    ['Nguyen Thi Huong', 'Nguyễn Thị Hương'],
    ['Dang Van Duc', 'Đặng Văn Đức'],
    // Nordic
    ['Soren Kierkegaard', 'Søren Kierkegaard'],
    ['Soeren Kierkegaard', 'Søren Kierkegaard'],
    // Irish O' and Mc, apostrophes
    ["Sean O'Brien", 'Seán O’Brien'],
    ['Siobhan OConnor', "Siobhán O'Connor"],
    ["Siobhán O'Connor", 'Siobhan O Connor'],
    ['Aoife McCarthy', 'Aoife Mc Carthy'],
    ["D'Angelo Russo", 'DAngelo Russo'],
    ['Camille Lefevre', 'Carnille Lefèvre'], // rn read for m, after folding
  ])('%j is found in %j', (name, text) => expect(findName(ocr(review(text)), name)).not.toBeNull());

  it.each([
    ['Jose Munoz', 'Josué Muñoz'],
    ['Lukasz Wrobel', 'Łukasz Wróblewski'],
    ['Jurgen Weiss', 'Jürgen Weise'],
    ['Anna Muller', 'Anna Möller'],
    ['Anna Mueller', 'Anna Muller'], // 'ue' is ü's spelling, not u's
    ['Ana Garcia', 'Ana Garcés'],
    ['Ines Pena', 'Inés Peral'],
    ['Sean OBrien', 'Seán Obregón'],
    ['Lopez Ana', 'Ana López'],
    ['Nguyen Thi Huong', 'Nguyễn Thị Hằng'],
  ])('%j is not found in %j', (name, text) => expect(findName(ocr(review(text)), name)).toBeNull());

  it('judges a review by an accented name typed without its accents, and the reverse', () => {
    const input = { platform: 'google' as const, businessName: 'Crumb & Co Bakery' };
    expect(judgeReview({ ...input, reviewerName: 'Lukasz Wrobel' }, ocr(review('Łukasz Wróbel')))).toMatchObject({ ok: true });
    expect(judgeReview({ ...input, reviewerName: 'Łukasz Wróbel' }, ocr(review('Lukasz Wrobel')))).toMatchObject({ ok: true });
    expect(judgeReview({ ...input, reviewerName: 'Lukas Wrobel' }, ocr(review('Łukasz Wróbel')))).toMatchObject({ ok: false, code: 'name_mismatch' });
  });
});

describe('nameCandidateLines', () => {
  it("picks the lines where OCR's English model misread the name's letters, closest first", () => {
    const read = ocr(review('(1 Fukasz Wrobel 0'));
    expect(nameCandidateLines(read, 'Łukasz Wróbel')).toEqual([2]);
    expect(nameCandidateLines(ocr(review('Jiirgen WeiB')), 'Jurgen Weiss')).toEqual([2]);
    expect(nameCandidateLines(ocr(review('Joao Gongalves')), 'João Gonçalves')).toEqual([2]);
    // Yelp's first name and last initial, on a line of its own ('Seren K.' read for Søren K.).
    expect(nameCandidateLines(ocr('Recommended Reviews\nSeren K.\nLisbon, Portugal'), 'Soren Kjaergaard')).toEqual([1]);
  });

  it('picks nothing where no line is near the name, and at most three lines', () => {
    expect(nameCandidateLines(ocr(review('Marcus Lee')), 'Łukasz Wróbel')).toEqual([]);
    expect(nameCandidateLines(ocr('Ana Perera\nAna Pereiro\nAna Pereirra\nAna Pereora'), 'Ana Pereira')).toHaveLength(3);
  });
});

describe('verifyReviewWith: the name line read again', () => {
  const request = { businessId: 'b', businessName: 'Crumb & Co Bakery', platform: 'google' as const, image: Buffer.from('x'), reviewLink: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf' };
  /** A reader whose first reading shows `first` as the name and whose reread of line 2 shows `again`. */
  const reader = (first: string, again: string) => {
    const reread = vi.fn(async (lines: readonly number[]): Promise<OcrText | null> => {
      const read = ocr(review(first));
      const replaced = ocr(review(again));
      return { ...read, lines: read.lines.map((l, i) => (lines.includes(i) ? replaced.lines[i]! : l)) };
    });
    const reading: ScreenshotReading = { kind: 'read', ocr: ocr(review(first)), starRows: [], reread };
    const r: ScreenshotReader = { open: async () => ({ imageHash: 'sha256:x', read: async () => reading }) };
    return { r, reread };
  };

  it('accepts when the line read again shows the name', async () => {
    const { r, reread } = reader('(1 Fukasz Wrobel 0', 'Łukasz Wróbel');
    const result = await verifyReviewWith(r, EMPTY_VERIFICATION_HISTORY, { ...request, reviewerName: 'Lukasz Wrobel' });
    expect(result).toMatchObject({ isValid: true });
    expect(reread).toHaveBeenCalledWith([2]);
  });

  it('still rejects another name (name_mismatch)', async () => {
    const { r } = reader('(1 Fukasz Wrobel 0', 'Łukasz Wróbel');
    expect(await verifyReviewWith(r, EMPTY_VERIFICATION_HISTORY, { ...request, reviewerName: 'Lukas Wrobel' })).toMatchObject({ isValid: false, rejectionCode: 'name_mismatch' });
  });

  it('reads nothing again when the name matches the first reading', async () => {
    const { r, reread } = reader('Łukasz Wróbel', 'Łukasz Wróbel');
    expect(await verifyReviewWith(r, EMPTY_VERIFICATION_HISTORY, { ...request, reviewerName: 'Lukasz Wrobel' })).toMatchObject({ isValid: true });
    expect(reread).not.toHaveBeenCalled();
  });
});

describe('verifyReviewWith: doubts about letters beyond English (issue 31)', () => {
  const request = { businessId: 'b', platform: 'google' as const, image: Buffer.from('x'), reviewLink: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf' };
  /** A reader of `first` whose reread of the given lines shows those lines of `again` instead. */
  const reader = (first: string, again: string) => {
    const reread = vi.fn(async (lines: readonly number[]): Promise<OcrText | null> => {
      const read = ocr(first);
      const replaced = ocr(again);
      return { ...read, lines: read.lines.map((l, i) => (lines.includes(i) ? replaced.lines[i]! : l)) };
    });
    const reading: ScreenshotReading = { kind: 'read', ocr: ocr(first), starRows: [], reread };
    const r: ScreenshotReader = { open: async () => ({ imageHash: 'sha256:x', read: async () => reading }) };
    return { r, reread };
  };
  const place = (business: string, name: string) => `< ${business}\nGoogle reviews\n${name}\nLocal Guide - 18 reviews\n2 days ago\nThe sourdough is the best in town and the buns sell out by ten.\nLike Share`;

  it("reads the business's name again when it has letters the English model misreads ('Miiller' for Müller)", async () => {
    const { r, reread } = reader(place('Kaffeehaus Miiller', 'Ana Pereira'), place('Kaffeehaus Müller', 'Ana Pereira'));
    expect(await verifyReviewWith(r, EMPTY_VERIFICATION_HISTORY, { ...request, businessName: 'Kaffeehaus Müller', reviewerName: 'Ana Pereira' })).toMatchObject({ verdict: 'accepted' });
    expect(reread).toHaveBeenCalledWith([0]);
  });

  it('still refuses another business read again, and reads nothing again for a name in plain English letters', async () => {
    const other = reader(place('Kaffeehaus Miiller', 'Ana Pereira'), place('Kaffeehaus Möller', 'Ana Pereira'));
    expect(await verifyReviewWith(other.r, EMPTY_VERIFICATION_HISTORY, { ...request, businessName: 'Kaffeehaus Müller', reviewerName: 'Ana Pereira' })).toMatchObject({ rejectionCode: 'wrong_business' });
    const plain = reader(place('Crumb & Go Bakery', 'Ana Pereira'), place('Crumb & Co Bakery', 'Ana Pereira'));
    expect(await verifyReviewWith(plain.r, EMPTY_VERIFICATION_HISTORY, { ...request, businessName: 'Crumb & Co Bakery', reviewerName: 'Ana Pereira' })).toMatchObject({ rejectionCode: 'wrong_business' });
    expect(plain.reread).not.toHaveBeenCalled();
  });

  it("sends an 'l' read as the look-alike of 'ł' to the owner, even when the other models read no better", async () => {
    const { r, reread } = reader(place('Crumb & Co Bakery', 'tukasz W.'), place('Crumb & Co Bakery', 'tukasz'));
    const result = await verifyReviewWith(r, EMPTY_VERIFICATION_HISTORY, { ...request, businessName: 'Crumb & Co Bakery', reviewerName: 'Lukasz W.' });
    expect(result).toMatchObject({ verdict: 'needs_review', isValid: true, reviewCode: 'unsure_name' });
    expect(reread).toHaveBeenCalled();
    // A name another letter away is still another person.
    const other = reader(place('Crumb & Co Bakery', 'Dukasz W.'), place('Crumb & Co Bakery', 'Dukasz W.'));
    expect(await verifyReviewWith(other.r, EMPTY_VERIFICATION_HISTORY, { ...request, businessName: 'Crumb & Co Bakery', reviewerName: 'Lukasz W.' })).toMatchObject({ rejectionCode: 'name_mismatch' });
  });
});
