import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixtureImage } from '../../tests/fixtures/screenshots/cases.ts';
import { colouredMentions, joinRows, mergeReadings, readInkRow } from './merge-readings.ts';
import { tsvToOcrText, withoutIconNoise } from './ocr-text.ts';
import { WHITE_ROW_SCALE } from './closer-reading.ts';
import { outlinedLabels, withoutStars } from './ink-rows.ts';
import { stretchContrast } from './pixels.ts';
import { bytesHash, decodeScreenshot, openScreenshot } from './preprocess.ts';
import { screenRegion } from './screen-finder.ts';
import { colouredTextMask, lightTextMask, whiteTextMask } from './text-masks.ts';
import { isFilledButton } from '../../modules/verification/judge.ts';

describe('decodeScreenshot', () => {
  const png = fixtureImage('google-review-ana.png');

  it('hashes pixels: a lossless re-encode or added metadata keeps the hash, any pixel change does not', async () => {
    const original = await decodeScreenshot(png);
    const resaved = await decodeScreenshot(fixtureImage('google-review-ana-resaved.png'));
    const webp = await decodeScreenshot(await sharp(png).webp({ lossless: true }).toBuffer());
    const rgba = await decodeScreenshot(await sharp(png).ensureAlpha().png({ compressionLevel: 0 }).toBuffer());
    const jpeg = await decodeScreenshot(await sharp(png).jpeg({ quality: 95 }).toBuffer());
    const cropped = await decodeScreenshot(await sharp(png).extract({ left: 0, top: 1, width: 1080, height: 1639 }).toBuffer());
    expect(original?.imageHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(bytesHash(png)).not.toBe(bytesHash(fixtureImage('google-review-ana-resaved.png')));
    expect(resaved?.imageHash).toBe(original?.imageHash);
    expect(webp?.imageHash).toBe(original?.imageHash);
    expect(rgba?.imageHash).toBe(original?.imageHash);
    expect(jpeg?.imageHash).not.toBe(original?.imageHash);
    expect(cropped?.imageHash).not.toBe(original?.imageHash);
  });

  it('applies EXIF orientation before hashing', async () => {
    const rotated = await sharp(png).rotate(180).withMetadata({ orientation: 3 }).png().toBuffer();
    expect((await decodeScreenshot(rotated))?.imageHash).toBe((await decodeScreenshot(png))?.imageHash);
  });

  it('reads phone screenshots at full resolution, enlarges narrow ones, brings wide and very tall ones down', async () => {
    expect(await decodeScreenshot(fixtureImage('google-review-jose-small.png'))).toMatchObject({ ocrWidth: 1080 });
    expect(await decodeScreenshot(png)).toMatchObject({ ocrWidth: 1080, ocrHeight: 1640, flat: false });
    const blank = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await decodeScreenshot(await blank(1290, 2796))).toMatchObject({ ocrWidth: 1290, ocrHeight: 2796, flat: true });
    expect(await decodeScreenshot(await blank(2400, 1200))).toMatchObject({ ocrWidth: 1600, ocrHeight: 800 });
    expect(await decodeScreenshot(await blank(1080, 4800))).toMatchObject({ ocrWidth: 810, ocrHeight: 3600 });
  });

  it('returns null for bytes that are not an image', async () => {
    expect(await decodeScreenshot(Buffer.from('%PDF-1.7 not an image'))).toBeNull();
    expect(await decodeScreenshot(Buffer.alloc(0))).toBeNull();
    expect(await decodeScreenshot(png.subarray(0, 200))).toBeNull();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="50">Ana Pereira</text></svg>');
    expect(await decodeScreenshot(svg)).toBeNull();
    expect(await decodeScreenshot(await sharp(png).tiff().toBuffer())).toBeNull();
  });
});

describe('stretchContrast', () => {
  it('stretches grey levels and inverts dark screens', () => {
    const light = new Uint8Array(1000).fill(230);
    light.fill(90, 0, 100);
    expect(stretchContrast(light)).toEqual({ flat: false, dark: false });
    expect([light[0], light[999]]).toEqual([0, 255]);
    const dark = new Uint8Array(1000).fill(30);
    dark.fill(220, 0, 100);
    expect(stretchContrast(dark)).toEqual({ flat: false, dark: true });
    expect([dark[0], dark[999]]).toEqual([0, 255]); // light text became dark, the dark page light
    expect(stretchContrast(new Uint8Array(1000).fill(250)).flat).toBe(true);
  });
});

describe('tsvToOcrText', () => {
  it('groups words into lines with boxes', () => {
    const tsv = [
      'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
      '4\t1\t1\t1\t1\t0\t10\t20\t300\t40\t-1\t',
      '5\t1\t1\t1\t1\t1\t10\t20\t100\t40\t96.5\tAna',
      '5\t1\t1\t1\t1\t2\t120\t22\t190\t38\t91.0\tPereira',
      '5\t1\t1\t1\t2\t1\t10\t80\t120\t30\t88.0\tLocal',
      '5\t1\t1\t1\t2\t2\t140\t80\t10\t30\t10.0\t ',
    ].join('\n');
    const ocr = tsvToOcrText(tsv, 1080, 1640);
    expect(ocr.lines.map((l) => l.text)).toEqual(['Ana Pereira', 'Local']);
    expect(ocr.lines[0]).toMatchObject({ bbox: { x0: 10, y0: 20, x1: 310, y1: 60 }, confidence: 93.75 });
    expect(ocr).toMatchObject({ width: 1080, height: 1640 });
  });
});

describe('the closer reading (ADR 045)', () => {
  const word = (text: string, x0: number, y0: number, x1: number, y1: number, confidence = 90) => ({ text, confidence, bbox: { x0, y0, x1, y1 } });
  const line = (words: ReturnType<typeof word>[]) => ({
    text: words.map((w) => w.text).join(' '),
    confidence: words.reduce((s, w) => s + w.confidence, 0) / words.length,
    bbox: { x0: Math.min(...words.map((w) => w.bbox.x0)), y0: Math.min(...words.map((w) => w.bbox.y0)), x1: Math.max(...words.map((w) => w.bbox.x1)), y1: Math.max(...words.map((w) => w.bbox.y1)) },
    words,
  });

  it('joins sparse-text clusters of one row, and keeps rows apart', () => {
    const joined = joinRows({ width: 1080, height: 2000, lines: [line([word('Following', 500, 100, 700, 140)]), line([word('Message', 100, 102, 300, 140)]), line([word('@noahw', 40, 400, 200, 440)])] });
    // 'Message' and 'Following' are two buttons far apart: two lines.
    expect(joined.lines.map((l) => l.text).sort()).toEqual(['@noahw', 'Following', 'Message']);
    const far = joinRows({ width: 1080, height: 2000, lines: [line([word('Message', 100, 100, 300, 140)]), line([word('Following', 340, 102, 540, 140)])] });
    expect(far.lines.map((l) => l.text)).toEqual(['Message Following']);
  });

  it('reads a button row again per tile when read unsure, and as sparse text when that reads only scraps', async () => {
    const page = (lines: ReturnType<typeof line>[]) => ({ width: 1000, height: 70, lines });
    // A dark-mode Facebook page ('© Message ~~ Suivi)' at 33%): the per-tile threshold reads both buttons.
    const dark = [
      page([line([word('©', 40, 10, 70, 50, 36), word('Message', 90, 10, 300, 50, 86), word('~~', 320, 10, 340, 50, 12), word('Suivi)', 400, 10, 560, 50, 0)])]),
      page([line([word('Message', 90, 10, 300, 50, 96), word('Suivi(e)', 400, 10, 580, 50, 78)])]),
    ];
    const darkAsked: unknown[] = [];
    const read = await readInkRow(async (options) => (darkAsked.push(options), dark[darkAsked.length - 1]!));
    expect(read.lines.map((l) => l.text)).toEqual(['Message Suivi(e)']);
    expect(darkAsked).toHaveLength(2);
    // A light page's blue 'Message' slab beside a grey 'Following' button: nothing, then scraps, then clusters.
    const light = [
      page([]),
      page([line([word('|', 20, 10, 30, 50, 15), word('Ouessage', 90, 10, 300, 50, 0), word('JERVIS', 500, 10, 700, 50, 3)])]),
      page([line([word('eee', 900, 20, 960, 40, 52)]), line([word('v', 520, 10, 550, 50, 84), word('Following', 570, 10, 790, 50, 96)])]),
    ];
    const lightAsked: unknown[] = [];
    const sparse = await readInkRow(async (options) => (lightAsked.push(options), light[lightAsked.length - 1]!));
    expect(lightAsked).toEqual([{ pageSegMode: 7 }, { pageSegMode: 7, adaptiveThreshold: true }, { pageSegMode: 11 }]);
    expect(sparse.lines.map((l) => l.text)).toContain('v Following');
  });

  it("drops icons' unsure scraps from a button row read again, so it replaces a shorter reading of that row", () => {
    // A dark-mode Facebook page: the white-text mask read 'Message' alone; the row, read again with a
    // threshold per tile, read both buttons with their icons ('O' bubble, 'v' check, 'vee' dots).
    const row = line([word('O', 115, 1229, 150, 1264, 39), word('Message', 192, 1229, 377, 1264, 96), word('a', 400, 1229, 410, 1264, 0), word('v', 600, 1232, 630, 1262, 84), word('Following', 650, 1227, 831, 1265, 96), word('vee', 960, 1240, 1000, 1255, 47)]);
    const clean = withoutIconNoise({ width: 1080, height: 2402, lines: [row, line([word('a', 40, 1400, 60, 1430, 10)])] });
    expect(clean.lines.map((l) => l.text)).toEqual(['Message v Following']);
    expect(clean.lines[0]!.confidence).toBeGreaterThan(90);
    expect(clean.lines[0]!.bbox).toEqual({ x0: 192, y0: 1227, x1: 831, y1: 1265 });
    const first = { width: 1080, height: 2402, lines: [line([word('Golden', 43, 936, 400, 988), word('Wok', 420, 936, 600, 988)])] };
    const white = { width: 1080, height: 2402, lines: [line([word('Message', 192, 1229, 377, 1264, 88)])] };
    expect(mergeReadings(first, [white, clean]).lines.map((l) => l.text)).toEqual(['Golden Wok', 'Message v Following']);
    expect(mergeReadings(first, [white, { ...clean, lines: [row] }]).lines.map((l) => l.text)).toEqual(['Golden Wok', 'Message']);
  });

  it('adds what the first pass missed, replaces what it read poorly, and drops noise', () => {
    const first = { width: 1080, height: 2000, lines: [line([word('Little', 40, 100, 200, 150), word('Fig', 210, 100, 300, 150)]), line([word('@lapetichbeulzngerie', 60, 800, 900, 860, 18)])] };
    const extra = {
      width: 1080,
      height: 2000,
      lines: [
        line([word('Seguindo', 450, 300, 700, 340)]),
        line([word('@lapetiteboulangerie', 62, 802, 898, 858, 88)]),
        line([word('Little', 40, 100, 200, 150, 70)]),
        line([word('e', 900, 1200, 920, 1220, 95)]),
        line([word('Ww', 10, 1500, 60, 1540, 20)]),
      ],
    };
    const merged = mergeReadings(first, [extra]);
    expect(merged.lines.map((l) => l.text)).toEqual(['Little Fig', 'Seguindo', '@lapetiteboulangerie']);
  });

  it('replaces a confident first-pass line cut short with a longer reading of it, and shorter closer readings inside its span', () => {
    const first = { width: 1080, height: 2000, lines: [line([word('Coffee', 40, 100, 160, 140), word('date', 170, 100, 250, 140), word('at', 260, 100, 300, 140), word('@bluedoo', 310, 100, 480, 140)])] };
    const piece = { width: 1080, height: 2000, lines: [line([word('café', 680, 102, 760, 140, 96)])] };
    const whole = {
      width: 1080,
      height: 2000,
      lines: [line([word('Coffee', 40, 100, 160, 140, 93), word('date', 170, 100, 250, 140, 93), word('at', 260, 100, 300, 140, 93), word('@bluedoorcafe', 310, 100, 600, 140, 93), word('#café', 620, 100, 755, 140, 93)])],
    };
    expect(mergeReadings(first, [piece, whole]).lines.map((l) => l.text)).toEqual(['Coffee date at @bluedoorcafe #café']);
    // A longer line that does not contain the first reading does not replace it.
    const other = { width: 1080, height: 2000, lines: [line([word('Coffee', 40, 100, 160, 140, 93), word('time', 170, 100, 250, 140, 93), word('at', 260, 100, 300, 140, 93), word('@bluedoorcafe', 310, 100, 600, 140, 93)])] };
    expect(mergeReadings(first, [other]).lines.map((l) => l.text)).toEqual(['Coffee date at @bluedoo']);
  });

  it('replaces a confident line that ends in a misread stub with a longer reading of it', () => {
    const first = { width: 1080, height: 2000, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 87), word('tf', 360, 100, 400, 140, 71)])] };
    const whole = {
      width: 1080,
      height: 2000,
      lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 96), word('thank', 360, 100, 460, 140, 96), word('you', 470, 100, 530, 140, 93), word('@thecopperkettle', 540, 100, 800, 140, 89)])],
    };
    expect(mergeReadings(first, [whole]).lines.map((l) => l.text)).toEqual(['Best brunch spot, thank you @thecopperkettle']);
    // A line ending in a stub read whole may be longer by a single letter ('sam.obrie' in 'sam.obrien 3¢').
    const author = { ...first, lines: [line([word('SO', 40, 100, 100, 140, 93), word('sam.obrie', 120, 100, 420, 140, 69)])] };
    const row = { ...first, lines: [line([word('SO', 40, 100, 100, 140, 92), word('sam.obrien', 120, 100, 440, 140, 89), word('3¢', 470, 100, 520, 140, 62)])] };
    expect(mergeReadings(author, [row]).lines.map((l) => l.text)).toEqual(['SO sam.obrien 3¢']);
    const sureAuthor = { ...first, lines: [line([word('SO', 40, 100, 100, 140, 93), word('sam.obrie', 120, 100, 420, 140, 90)])] };
    expect(mergeReadings(sureAuthor, [row]).lines.map((l) => l.text)).toEqual(['SO sam.obrie']);
    // A last word read surely is part of the line: a reading without it is another line.
    const sure = { ...first, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 87), word('tf', 360, 100, 400, 140, 90)])] };
    expect(mergeReadings(sure, [whole]).lines.map((l) => l.text)).toEqual(['Best brunch spot, tf']);
    // ... but a scrap of one or two letters is read surer than a long word: 'tl':85 is a stub.
    const scrap = { ...first, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 97), word('spot,', 260, 100, 350, 140, 93), word('tl', 360, 100, 400, 140, 85)])] };
    expect(mergeReadings(scrap, [whole]).lines.map((l) => l.text)).toEqual(['Best brunch spot, thank you @thecopperkettle']);
    // ... still only where the longer reading goes on with its first letter.
    const other = { ...first, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 97), word('spot,', 260, 100, 350, 140, 93), word('at', 360, 100, 400, 140, 85)])] };
    expect(mergeReadings(other, [whole]).lines.map((l) => l.text)).toEqual(['Best brunch spot, at']);
  });

  it("replaces a confident line whose last word is cut short with the same words read whole ('Rosa's Taquer')", () => {
    const cut = { width: 1080, height: 2000, lines: [line([word("Rosa's", 358, 312, 480, 368, 93), word('Taquer', 490, 312, 659, 368, 93)])] };
    const whole = { ...cut, lines: [line([word("Rosa's", 357, 321, 480, 371, 90), word('Taqueria', 490, 321, 698, 371, 90)])] };
    expect(mergeReadings(cut, [whole]).lines.map((l) => l.text)).toEqual(["Rosa's Taqueria"]);
    // Not when a word before it differs ('Rita's' is another business).
    expect(mergeReadings({ ...cut, lines: [line([word("Rita's", 358, 312, 480, 368, 93), word('Taquer', 490, 312, 659, 368, 93)])] }, [whole]).lines.map((l) => l.text)).toEqual(["Rita's Taquer"]);
  });

  it("a clearer reading keeps the start of every word: 'Boulan(' read unsure does not give way to 'oulangerie!'", () => {
    const words = (last: string, confidence: number) => [word('Coffee', 40, 100, 160, 140, 96), word('date', 170, 100, 250, 140, 96), word('at', 260, 100, 300, 140, 96), word('La', 310, 100, 350, 140, 96), word('Petite', 360, 100, 460, 140, 93), word(last, 470, 100, 700, 140, confidence)];
    const first = { width: 1080, height: 2000, lines: [line([word('Likes', 40, 900, 160, 940, 96)])] };
    const cut = { ...first, lines: [line(words('Boulan(', 27))] };
    const eaten = { ...first, lines: [line(words('oulangerie!', 92))] };
    const whole = { ...first, lines: [line(words('Boulangerie!', 91))] };
    expect(mergeReadings(first, [cut, eaten, whole]).lines.map((l) => l.text)).toEqual(['Coffee date at La Petite Boulangerie!', 'Likes']);
    // A reading of more of a word's start keeps it: an overlay's '@non' lost by one pass, read by another.
    const lost = { ...first, lines: [line([word('nastrattoria', 352, 600, 788, 656, 72)])] };
    const more = { ...first, lines: [line([word('@nonnastrattoria', 126, 601, 788, 667, 88)])] };
    expect(mergeReadings(first, [lost, more]).lines.map((l) => l.text)).toEqual(['@nonnastrattoria', 'Likes']);
  });

  it('takes a clearer reading of the one word a confident line read unsure, and keeps a surer word where a longer reading misreads it', () => {
    const words = (mention: string, confidence: number) => [word('hannah.becker', 40, 100, 300, 140, 91), word('Birthday', 310, 100, 460, 140, 96), word('by', 470, 100, 510, 140, 90), word(mention, 520, 100, 900, 140, confidence)];
    const first = { width: 1080, height: 2000, lines: [line(words('@emberandoakagrill', 41))] };
    expect(mergeReadings(first, [{ ...first, lines: [line(words('@emberandoakgrill', 80))] }]).lines.map((l) => l.text)).toEqual(['hannah.becker Birthday by @emberandoakgrill']);
    // Not when the first pass read that word surely, nor when another word changes too.
    const sure = { ...first, lines: [line(words('@emberandoakagrill', 75))] };
    expect(mergeReadings(sure, [{ ...first, lines: [line(words('@emberandoakgrill', 96))] }]).lines.map((l) => l.text)).toEqual(['hannah.becker Birthday by @emberandoakagrill']);
    const two = [word('hannah.bekker', 40, 100, 300, 140, 91), ...words('@emberandoakgrill', 80).slice(1)];
    expect(mergeReadings(first, [{ ...first, lines: [line(two)] }]).lines.map((l) => l.text)).toEqual(['hannah.becker Birthday by @emberandoakagrill']);
    // A longer reading replacing a closer pass's piece keeps the piece's surer word at the same spot.
    const cut = { width: 1080, height: 2000, lines: [line([word('Best', 40, 100, 120, 140, 96), word('brunch', 130, 100, 250, 140, 95), word('sp', 260, 100, 300, 140, 95)])] };
    const piece = { ...cut, lines: [line([word('you', 470, 100, 530, 140, 91), word('@rosastaqueria', 540, 100, 800, 140, 90)])] };
    const longer = {
      ...cut,
      lines: [line([word('Best', 40, 100, 120, 140, 96), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 96), word('thank', 360, 100, 460, 140, 97), word('you', 470, 100, 530, 140, 93), word('@rosastagueria', 540, 100, 800, 140, 78)])],
    };
    expect(mergeReadings(cut, [piece, longer]).lines.map((l) => l.text)).toEqual(['Best brunch spot, thank you @rosastaqueria']);
    // A shorter word there is a cut reading, not a surer one.
    const sound = { ...cut, lines: [line([word('dd', 40, 300, 80, 340, 79), word('origina', 90, 300, 250, 340, 96)])] };
    const whole = { ...cut, lines: [line([word('dd', 40, 300, 80, 340, 79), word('original', 90, 300, 252, 340, 93), word('sound', 262, 300, 360, 340, 93), word('-', 370, 300, 380, 340, 92), word('kenjicooks', 390, 300, 600, 340, 90)])] };
    expect(mergeReadings({ ...cut, lines: [] }, [sound, whole]).lines.map((l) => l.text)).toEqual(['dd original sound - kenjicooks']);
  });

  it("adds a coloured-text mention read clearly, or read unsure and confirmed by a sure reading of its end at the same spot ('@THECOPPERKETTLE':0, 'ECOPPERKETTLE':90)", () => {
    const page = { width: 1080, height: 2340 };
    const greyscale = { ...page, lines: [line([word('ECOPPERKETTLE', 318, 905, 931, 999, 90)]), line([word('Seen', 44, 2037, 140, 2086, 96), word('by', 150, 2037, 200, 2086, 96)])] };
    const sticker = { ...page, lines: [line([word('@THECOPPERKETTLE', 96, 906, 929, 1022, 0)])] };
    const added = colouredMentions(sticker, greyscale);
    expect(added.map((l) => [l.text, l.confidence])).toEqual([['@THECOPPERKETTLE', 90]]);
    expect(added[0]!.words[0]!.confidence).toBe(90);
    expect(colouredMentions({ ...page, lines: [line([word('@THECOPPERKETTLE', 96, 906, 929, 1022, 88)])] }, { ...page, lines: [] }).map((l) => l.text)).toEqual(['@THECOPPERKETTLE']);
    // Unsure and unconfirmed: another end, the sure reading elsewhere, or too short a tail to confirm.
    expect(colouredMentions({ ...page, lines: [line([word('@THECOPPERKETTEL', 96, 906, 929, 1022, 0)])] }, greyscale)).toEqual([]);
    expect(colouredMentions({ ...page, lines: [line([word('@THECOPPERKETTLE', 96, 1506, 929, 1622, 0)])] }, greyscale)).toEqual([]);
    expect(colouredMentions(sticker, { ...page, lines: [line([word('KETTLE', 700, 905, 931, 999, 90)])] })).toEqual([]);
    expect(colouredMentions(sticker, { ...page, lines: [line([word('ECOPPERKETTLE', 318, 905, 931, 999, 50)])] })).toEqual([]);
  });

  it("does not join a cluster lying inside a row's span to it: scraps of a photographed picture over a caption are not its words", () => {
    const caption = line([word('Could', 334, 387, 420, 428, 96), word('eat', 430, 387, 480, 428, 97), word('Crumb', 600, 387, 700, 428, 97), word('Bakery!', 760, 387, 888, 428, 96)]);
    const junk = line([word('<5', 715, 390, 729, 395, 44), word('po,', 768, 391, 777, 398, 42)]);
    const time = line([word('2h', 900, 390, 940, 428, 95)]);
    const joined = joinRows({ width: 1080, height: 2000, lines: [caption, junk, time] });
    expect(joined.lines.map((l) => l.text)).toEqual(['Could eat Crumb Bakery! 2h', '<5 po,']);
  });

  it("drops scraps of one or two characters inside a clear reading's box: a caption read letter by letter off a photographed screen", () => {
    const page = { width: 1080, height: 2000 };
    const pieces = [word('3', 347, 384, 374, 399, 94), word('C4', 735, 411, 752, 430, 64), word('(8)', 759, 413, 777, 432, 48), word('wm', 801, 418, 816, 434, 21)].map((w) => line([w]));
    const screen = { ...page, lines: pieces };
    const whole = { ...page, lines: [line([word('Could', 334, 387, 430, 428, 96), word('eat', 440, 387, 490, 428, 97), word('Crumb', 600, 387, 700, 428, 97), word('&', 710, 387, 730, 428, 93), word('Co', 740, 387, 780, 428, 96), word('Bakery!', 790, 387, 888, 428, 96)])] };
    expect(mergeReadings(screen, [whole]).lines.map((l) => l.text)).toEqual(['Could eat Crumb & Co Bakery!']);
    // A reading read unsure does not sweep them; a scrap of three letters or more is a word, not a piece.
    const unsure = { ...page, lines: [line(whole.lines[0]!.words.map((w) => ({ ...w, confidence: 70 })))] };
    expect(mergeReadings(screen, [unsure]).lines).toHaveLength(4);
    const withWord = { ...page, lines: [...pieces, line([word('THE', 627, 390, 680, 420, 95)])] };
    expect(mergeReadings(withWord, [whole]).lines.map((l) => l.text)).toContain('THE');
  });

  it("takes from the light-text mask new lines and longer ones, never a line only read more surely ('oltviasmith 38m':90 for '© oliviasmith»38m':46)", () => {
    const page = { width: 1080, height: 2340 };
    const first = { ...page, lines: [line([word('©', 36, 129, 100, 225, 91), word('oliviasmith»38m', 159, 160, 481, 225, 1)])] };
    const light = { ...page, lines: [line([word('oltviasmith', 159, 160, 400, 190, 84), word('38m', 403, 160, 479, 190, 96)]), line([word('@goldenwokpdx', 185, 911, 895, 1016, 89)])] };
    expect(mergeReadings(first, [light], { longerOnly: [light] }).lines.map((l) => l.text)).toEqual(['© oliviasmith»38m', '@goldenwokpdx']);
    // Another pass's clearer reading still replaces it.
    expect(mergeReadings(first, [light]).lines.map((l) => l.text)).toEqual(['oltviasmith 38m', '@goldenwokpdx']);
    // A longer reading from the mask still replaces a line cut short.
    const cut = { ...page, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 87), word('tf', 360, 100, 400, 140, 71)])] };
    const whole = { ...page, lines: [line([word('Best', 40, 100, 120, 140, 97), word('brunch', 130, 100, 250, 140, 96), word('spot,', 260, 100, 350, 140, 96), word('thank', 360, 100, 460, 140, 96), word('you', 470, 100, 530, 140, 93), word('@thecopperkettle', 540, 100, 800, 140, 89)])] };
    expect(mergeReadings(cut, [whole], { longerOnly: [whole] }).lines.map((l) => l.text)).toEqual(['Best brunch spot, thank you @thecopperkettle']);
  });

  it('does not replace a line with a confident fragment of it', () => {
    const first = { width: 1080, height: 2000, lines: [line([word('we', 490, 380, 540, 420, 40), word('(', 700, 380, 720, 420, 50), word('Following', 740, 380, 1000, 420, 70)])] };
    const fragment = { width: 1080, height: 2000, lines: [line([word('Foli', 764, 396, 860, 420, 90)])] };
    expect(mergeReadings(first, [fragment]).lines.map((l) => l.text)).toEqual(['we ( Following']);
  });

  it('makes a light-text mask: pixels clearly lighter than around them', () => {
    expect([...lightTextMask(new Uint8Array([200, 200, 120, 250]), new Uint8Array([150, 190, 60, 240]))]).toEqual([0, 255, 255, 255]);
  });

  it('makes a white-text mask: white captions black, everything else white', () => {
    const rgb = { width: 3, height: 1, data: new Uint8Array([255, 255, 255, 250, 240, 200, 20, 20, 20]) };
    expect([...whiteTextMask(rgb)]).toEqual([0, 255, 255]);
  });

  it("makes a coloured-text mask: strongly coloured pixels (a mention sticker's gradient) black, white and greys white", () => {
    const rgb = { width: 4, height: 1, data: new Uint8Array([240, 140, 40, 190, 40, 150, 255, 255, 255, 120, 120, 130]) };
    expect([...colouredTextMask(rgb)]).toEqual([0, 0, 255, 255]);
  });

  it("gives the top tenth of the screen enlarged twice (a story's author row)", async () => {
    const decoded = (await decodeScreenshot(fixtureImage('google-review-ana.png')))!;
    const { top } = await decoded.closer([], 40);
    expect(top).toHaveLength(1);
    for (const image of top) {
      const meta = await sharp(image).metadata();
      expect(meta.width).toBe(decoded.ocrWidth * 2);
      expect(Math.abs(meta.height! - decoded.ocrHeight * 0.2)).toBeLessThanOrEqual(3);
    }
  });

  it('gives a line cut short again in whiteness, from its start to the right edge, enlarged: white text over a tan picture comes out black on light', async () => {
    // A tan picture (a story) with a white 'handle' bar on it, as a 640-wide screenshot (enlarged for OCR).
    const image = await sharp({ create: { width: 640, height: 1136, channels: 3, background: '#d8b48a' } })
      .composite([{ input: { create: { width: 200, height: 20, channels: 3, background: '#fafafa' } }, left: 100, top: 150 }])
      .png()
      .toBuffer();
    const decoded = (await decodeScreenshot(image))!;
    const k = decoded.ocrWidth / 640;
    expect((await decoded.closer([], 40)).whiteRows).toEqual([]);
    const { whiteRows } = await decoded.closer([], 40, { stubs: [{ x0: 90 * k, y0: 145 * k, x1: 200 * k, y1: 175 * k }] });
    expect(whiteRows).toHaveLength(1);
    const row = whiteRows[0]!;
    expect(row.left).toBeLessThan(90 * k);
    const { data, info } = await sharp(row.image).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(info.width).toBeGreaterThan(decoded.ocrWidth * 2.5);
    // The white bar (to x = 300, past the line's end) is dark; the picture around it light.
    const at = (x: number, y: number) => data[Math.round(y * WHITE_ROW_SCALE * k - row.top * WHITE_ROW_SCALE) * info.width + Math.round(x * WHITE_ROW_SCALE * k - row.left * WHITE_ROW_SCALE)]!;
    expect(at(280, 160)).toBeLessThan(60);
    expect(at(400, 160)).toBeGreaterThan(180);
  });

  it('gives a light-text mask of the whole picture: a white stroke on a dark picture black, flat areas dark or pale white', async () => {
    // A dark picture above a pale one (a video), a white stroke (a caption's letter) on the dark part.
    const image = await sharp({ create: { width: 640, height: 1136, channels: 3, background: '#404040' } })
      .composite([
        { input: { create: { width: 640, height: 568, channels: 3, background: '#e0e0e0' } }, left: 0, top: 568 },
        { input: { create: { width: 200, height: 6, channels: 3, background: '#ffffff' } }, left: 100, top: 157 },
      ])
      .png()
      .toBuffer();
    const decoded = (await decodeScreenshot(image))!;
    const k = decoded.ocrWidth / 640;
    const { data, info } = await sharp((await decoded.closer([], 40)).lightText).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(info.width * info.height).toBe(decoded.ocrWidth * decoded.ocrHeight);
    const at = (x: number, y: number) => data[Math.round(y * k) * info.width + Math.round(x * k)]!;
    expect(at(200, 160)).toBe(0);
    expect(at(400, 300)).toBe(255);
    // The blurred surroundings are compared pixel for pixel (one channel): the pale half is no text.
    expect(at(320, 900)).toBe(255);
    expect(at(320, 1100)).toBe(255);
  });

  it('blanks the lines already read in the closer images', async () => {
    const decoded = (await decodeScreenshot(fixtureImage('google-review-ana.png')))!;
    const everything = [{ x0: 0, y0: 0, x1: decoded.ocrWidth, y1: decoded.ocrHeight }];
    const { grey, rows } = await decoded.closer(everything, 40);
    expect(rows).toEqual([]);
    const stats = await sharp(grey).stats();
    expect(stats.channels[0]!.min).toBe(255);
    const { grey: untouched, rows: all } = await decoded.closer([], 40);
    expect(all.length).toBeGreaterThan(0);
    expect((await sharp(untouched).stats()).channels[0]!.min).toBeLessThan(100);
  });

  it('cuts the image into three overlapping bands only when asked (the first pass read next to nothing)', async () => {
    const decoded = (await decodeScreenshot(fixtureImage('google-review-ana.png')))!;
    expect((await decoded.closer([], 40)).bands).toEqual([]);
    const { bands } = await decoded.closer([], 40, { bands: true });
    expect(bands.map((b) => b.top)).toEqual([0, Math.round(decoded.ocrHeight * 0.25), Math.round(decoded.ocrHeight * 0.5)]);
    expect((await sharp(bands[2]!.image).metadata()).height).toBe(decoded.ocrHeight - Math.round(decoded.ocrHeight * 0.5));
  });
});

describe('withoutStars (a rating row read again without its stars)', () => {
  // A dark page 600 x 60 (RGB and the greyscale OCR image), line height 36: squares 48 px wide, 30 apart.
  const W = 600;
  const H = 60;
  const page = () => ({ colour: new Uint8Array(W * H * 3).fill(18), grey: Buffer.alloc(W * H, 240) });
  const square = (img: ReturnType<typeof page>, x0: number, rgb: [number, number, number], w = 48) => {
    for (let y = 6; y < 54; y++) {
      for (let x = x0; x < x0 + w; x++) {
        img.colour.set(rgb, (y * W + x) * 3);
        img.grey[y * W + x] = 120;
      }
    }
  };
  const text = (img: ReturnType<typeof page>, x0: number, x1: number) => {
    // letters: thin strokes, 26 px tall
    for (let y = 17; y < 43; y++) for (let x = x0; x < x1; x += 7) for (const dx of [0, 1, 2]) img.grey[y * W + x + dx] = 20;
  };
  const box = { x0: 10, y0: 6, x1: 590, y1: 54 };

  it('paints out three coloured stars and the empty ones after them, and leaves the date beside them', () => {
    const img = page();
    for (const x of [10, 88, 166]) square(img, x, [255, 135, 66]);
    for (const x of [244, 322]) square(img, x, [46, 46, 46]);
    text(img, 420, 580);
    const out = withoutStars(img.grey, img.colour, W, box, 36)!;
    expect(out).not.toBeNull();
    expect(out[30 * W + 30]).toBe(255); // a coloured star
    expect(out[30 * W + 340]).toBe(255); // an empty star
    expect(out[30 * W + 420]).toBe(20); // the date
    expect(img.grey[30 * W + 30]).toBe(120); // a copy: the input is left alone
  });

  it('finds no stars in an avatar, a badge or a filled button (one wider coloured shape)', () => {
    const img = page();
    square(img, 10, [211, 35, 35], 100);
    text(img, 150, 400);
    square(img, 420, [0, 149, 246], 120);
    expect(withoutStars(img.grey, img.colour, W, box, 36)).toBeNull();
  });
});

describe('outlinedLabels', () => {
  // A 400 x 100 white strip: a round icon (40 x 40 at x 10), then an outlined pill (x 100-380,
  // y 10-90) with a 'label' of ink inside (x 180-300, y 40-60).
  const width = 400;
  const grey = new Uint8Array(width * 100).fill(255);
  const ink = (x0: number, y0: number, x1: number, y1: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) grey[y * width + x] = 0;
  };
  ink(10, 30, 50, 70);
  ink(100, 10, 380, 12);
  ink(100, 88, 380, 90);
  ink(100, 10, 102, 90);
  ink(378, 10, 380, 90);
  ink(180, 40, 300, 60);

  it("cuts an outlined button's label out inside its outline, and leaves other ink alone", () => {
    const [label, ...rest] = outlinedLabels(grey, width, { x0: 0, y0: 0, x1: 400, y1: 100 }, 30);
    expect(rest).toEqual([]);
    expect(label!.x0).toBeGreaterThan(102);
    expect(label!.x1).toBeLessThan(378);
    expect(label!.y0).toBeGreaterThan(12);
    expect(label!.y1).toBeLessThan(88);
    expect(label!.x0).toBeLessThanOrEqual(180);
    expect(label!.x1).toBeGreaterThanOrEqual(300);
  });

  it('finds nothing in plain text', () => {
    const text = new Uint8Array(width * 100).fill(255);
    for (let x = 20; x < 380; x += 12) for (let y = 40; y < 60; y++) text[y * width + x] = 0;
    expect(outlinedLabels(text, width, { x0: 0, y0: 0, x1: 400, y1: 100 }, 30)).toEqual([]);
  });
});

describe('a photographed phone (screenRegion) and thumbnails', () => {
  /** A page of 'text' bars on `page`, as a screenshot (`desk` null) or photographed on a desk. */
  async function picture(page: string, desk: string | null): Promise<Buffer> {
    const width = 1250;
    const height = 1875;
    const bars = Array.from({ length: 14 }, (_, i) => ({
      input: { create: { width: 420 + (i % 3) * 60, height: 18, channels: 3 as const, background: page === '#ffffff' ? '#222222' : '#dddddd' } },
      left: desk ? 330 : 60,
      top: (desk ? 560 : 200) + i * 52,
    }));
    if (!desk) {
      return sharp({ create: { width, height, channels: 3, background: page } }).composite(bars).png().toBuffer();
    }
    const bezel = { input: { create: { width: 700, height: 1300, channels: 3 as const, background: '#111111' } }, left: 275, top: 300 };
    const screen = { input: { create: { width: 660, height: 1260, channels: 3 as const, background: page } }, left: 295, top: 320 };
    return sharp({ create: { width, height, channels: 3, background: desk } }).composite([bezel, screen, ...bars]).png().toBuffer();
  }
  const small = async (image: Buffer) => {
    const { data, info } = await sharp(image).removeAlpha().resize(540).raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  };

  it.each([
    ['light', '#ffffff'],
    ['dark', '#202124'],
  ])('finds the screen (%s mode) of a phone photographed on a desk', async (_mode, page) => {
    const box = screenRegion(await small(await picture(page, '#cbbfae')));
    const k = 540 / 1250;
    expect(box).not.toBeNull();
    expect(box!.x0).toBeGreaterThanOrEqual(Math.floor(270 * k));
    expect(box!.x1).toBeLessThanOrEqual(Math.ceil(980 * k));
    expect((box!.x1 - box!.x0) / k).toBeGreaterThan(600);
    expect((box!.y1 - box!.y0) / k).toBeGreaterThan(1100);
  });

  it('turns a dark screen photographed on a dark desk level as a whole (its screen is not found); a level screenshot is left alone', async () => {
    const dark = await sharp(fixtureImage('google-review-ana.png')).negate({ alpha: false }).png().toBuffer();
    const askew = await sharp(dark).rotate(4, { background: '#1c1c1e' }).png().toBuffer();
    const photo = await (await decodeScreenshot(askew))!.closer([], 40);
    expect(photo.screen).not.toBeNull();
    expect(Math.abs(photo.screen!.tilt)).toBeGreaterThanOrEqual(3);
    expect(Math.abs(photo.screen!.tilt)).toBeLessThanOrEqual(5);
    expect((await (await decodeScreenshot(dark))!.closer([], 40)).screen).toBeNull();
  });

  it('finds the whole screen of a photographed post whose picture spans the page, not only the part below it', async () => {
    const desk = { create: { width: 1250, height: 1875, channels: 3 as const, background: '#2a2d33' } };
    const bezel = { input: { create: { width: 700, height: 1300, channels: 3 as const, background: '#111111' } }, left: 275, top: 300 };
    const screen = { input: { create: { width: 660, height: 1260, channels: 3 as const, background: '#f4f4f4' } }, left: 295, top: 320 };
    // The post's photo, nearly as wide as the screen, across its upper part.
    const photo = { input: { create: { width: 630, height: 330, channels: 3 as const, background: '#8a5a2b' } }, left: 310, top: 440 };
    const text = [340, 380, 800, 860, 920].map((top) => ({ input: { create: { width: 380, height: 18, channels: 3 as const, background: '#222222' } }, left: 330, top }));
    const image = await sharp(desk).composite([bezel, screen, photo, ...text]).png().toBuffer();
    const box = screenRegion(await small(image));
    const k = 540 / 1250;
    expect(box).not.toBeNull();
    // The caption and the author above the photo are inside.
    expect(box!.y0).toBeLessThan(340 * k);
    expect(box!.y1).toBeGreaterThan(1500 * k);
  });

  it('finds no screen in a screenshot, whose page reaches its edges', async () => {
    expect(screenRegion(await small(await picture('#ffffff', null)))).toBeNull();
    expect(screenRegion(await small(await picture('#202124', null)))).toBeNull();
  });

  it('offers the cut-out screen, enlarged, to the closer reading only for a photo', async () => {
    const photo = await decodeScreenshot(await picture('#ffffff', '#cbbfae'));
    const { screen } = await photo!.closer([], 40);
    expect(screen).not.toBeNull();
    expect(screen!.scale).toBeGreaterThan(1.5);
    expect(screen!.left).toBeGreaterThan(200);
    expect((await (await decodeScreenshot(await picture('#ffffff', null)))!.closer([], 40)).screen).toBeNull();
  });

  it("takes the page's colour from the screen of a photographed phone, not from the desk around it", async () => {
    // A light grey 'Following' button is plain against the white page; against the dark desk,
    // which covers most of the picture, it would look filled (a 'Follow' button).
    const photo = (await decodeScreenshot(await picture('#ffffff', '#483628')))!;
    expect(photo.background.r).toBeGreaterThan(240);
    expect(isFilledButton({ r: 211, g: 210, b: 211 }, photo.background)).toBe(false);
    expect(isFilledButton({ r: 20, g: 20, b: 20 }, photo.background)).toBe(true);
    const screenshot = (await decodeScreenshot(await picture('#202124', null)))!;
    expect(screenshot.background).toEqual({ r: 32, g: 33, b: 36 });
  });

  it('reads a thumbnail as no text (too small to read), not as whatever OCR makes of it', async () => {
    const thumb = await sharp(fixtureImage('google-review-ana.png')).resize(150).png().toBuffer();
    const opened = await openScreenshot(thumb, async () => {
      throw new Error('a thumbnail must not reach OCR');
    });
    expect(await opened.read!()).toMatchObject({ kind: 'read', ocr: { lines: [] } });
  });
});
