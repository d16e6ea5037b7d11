import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixtureImage } from '../../tests/fixtures/screenshots/cases.ts';
import { tsvToOcrText } from './OcrScreenshotVerifier.ts';
import { bytesHash, decodeScreenshot, stretchContrast } from './preprocess.ts';

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
