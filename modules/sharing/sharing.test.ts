import { formatCents } from '../scoring/index.ts';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FLYER_HEIGHT,
  FLYER_MARGIN,
  FLYER_WIDTH,
  TIER_COLORS,
  flyerFileName,
  renderFlyer,
  type FlyerInput,
} from './flyer.ts';
import { QUIET_ZONE, qrMatrix, qrPng, qrSvg } from './qr.ts';
import { publicSurveyPath, publicSurveyUrl, shortLinkPath, shortSurveyUrl } from './urls.ts';

const ORIGIN = 'https://app.rewardloop.example';
const BUSINESS = 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607';
const SURVEY = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const URL_ = publicSurveyUrl(ORIGIN, BUSINESS, SURVEY);

type Pixels = { width: number; height: number; data: Uint8ClampedArray };

/** Decodes a PNG (or SVG) with Skia into raw RGBA, optionally scaled by `scale`. */
async function pixelsOf(image: Buffer, scale = 1): Promise<Pixels> {
  const img = await loadImage(image);
  const width = Math.round(img.width * scale);
  const height = Math.round(img.height * scale);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  return { width, height, data: ctx.getImageData(0, 0, width, height).data };
}

function decodeQr(p: Pixels): string | null {
  return jsQR(p.data, p.width, p.height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

function hex(color: string): [number, number, number] {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

type Box = { count: number; minX: number; maxX: number; minY: number; maxY: number };

/** Bounding box of the pixels of exactly one colour. */
function boxOf(p: Pixels, color: string): Box {
  const [r, g, b] = hex(color);
  const box: Box = { count: 0, minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  for (let i = 0; i < p.data.length; i += 4) {
    if (p.data[i] !== r || p.data[i + 1] !== g || p.data[i + 2] !== b) continue;
    const x = (i / 4) % p.width;
    const y = Math.floor(i / 4 / p.width);
    box.count++;
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

/** Bounding box of the pixels that differ between two same-sized images. */
function diffBox(a: Pixels, b: Pixels): Box {
  const box: Box = { count: 0, minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  for (let i = 0; i < a.data.length; i += 4) {
    if (a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2]) continue;
    const x = (i / 4) % a.width;
    const y = Math.floor(i / 4 / a.width);
    box.count++;
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, y);
  }
  return box;
}

/** Pixels that are not pure white inside a rectangle [x0, x1) x [y0, y1). */
function inkIn(p: Pixels, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * p.width + x) * 4;
      if (p.data[i] !== 255 || p.data[i + 1] !== 255 || p.data[i + 2] !== 255) n++;
    }
  }
  return n;
}

/** Ink in the four print margins of the flyer. */
function inkInMargins(p: Pixels): number {
  const m = FLYER_MARGIN;
  return (
    inkIn(p, 0, 0, m, p.height) + // left
    inkIn(p, p.width - m, 0, p.width, p.height) + // right
    inkIn(p, m, 0, p.width - m, m) + // top
    inkIn(p, m, p.height - m, p.width - m, p.height) // bottom
  );
}

/** Width and height from a PNG's IHDR, and its pHYs chunk if any. */
function pngHeader(png: Buffer): { width: number; height: number; pxPerMetre?: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const out: { width: number; height: number; pxPerMetre?: number } = { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  for (let o = 8; o < png.length; ) {
    const len = png.readUInt32BE(o);
    const type = png.toString('ascii', o + 4, o + 8);
    if (type === 'pHYs') out.pxPerMetre = png.readUInt32BE(o + 8);
    o += 12 + len;
  }
  return out;
}

const RENDER_TIMEOUT = 60_000;

const baseInput: FlyerInput = {
  businessName: 'Crumb & Co. Bakery',
  surveyTitle: 'Spring Tasting Survey',
  url: URL_,
  rewards: { bronze: 100, silver: 300, gold: 800 },
};

describe('shortSurveyUrl (ADR 082)', () => {
  it('is the origin, /s/ and the code; bypass_square=true for a preview, and only then', () => {
    expect(shortSurveyUrl(ORIGIN, 'k7m2qx9ab')).toBe(`${ORIGIN}/s/k7m2qx9ab`);
    expect(shortSurveyUrl('http://localhost:3000/', 'k7m2qx9ab', { preview: true })).toBe('http://localhost:3000/s/k7m2qx9ab?bypass_square=true');
    expect(shortSurveyUrl(ORIGIN, 'k7m2qx9ab', { preview: false })).toBe(`${ORIGIN}/s/k7m2qx9ab`);
    expect(shortLinkPath('a/b')).toBe('/s/a%2Fb');
    expect(() => shortSurveyUrl(ORIGIN, ' ')).toThrow(/code/);
    expect(() => shortSurveyUrl('https://example.com/app', 'k7m2qx9ab')).toThrow(TypeError);
  });

  it('leads to the public path, which serves the page', () => {
    expect(publicSurveyPath(BUSINESS, SURVEY)).toBe(`/survey/public/${BUSINESS}/${SURVEY}`);
    expect(publicSurveyUrl(ORIGIN, BUSINESS, SURVEY)).toBe(`${ORIGIN}${publicSurveyPath(BUSINESS, SURVEY)}`);
  });
});

describe('publicSurveyUrl', () => {
  it('builds the public path of the spec', () => {
    expect(publicSurveyUrl(ORIGIN, BUSINESS, SURVEY)).toBe(`${ORIGIN}/survey/public/${BUSINESS}/${SURVEY}`);
  });

  it('adds bypass_square=true for a preview, and only then', () => {
    expect(publicSurveyUrl(ORIGIN, 'b1', 's1', { preview: true })).toBe(`${ORIGIN}/survey/public/b1/s1?bypass_square=true`);
    expect(publicSurveyUrl(ORIGIN, 'b1', 's1', { preview: false })).toBe(`${ORIGIN}/survey/public/b1/s1`);
  });

  it('normalises the origin (trailing slash, case, default port)', () => {
    expect(publicSurveyUrl('http://localhost:3000/', 'b', 's')).toBe('http://localhost:3000/survey/public/b/s');
    expect(publicSurveyUrl('HTTPS://App.Example.COM:443', 'b', 's')).toBe('https://app.example.com/survey/public/b/s');
  });

  it('escapes ids so they stay one path segment each', () => {
    expect(publicSurveyUrl(ORIGIN, 'a/b', 'c?d')).toBe(`${ORIGIN}/survey/public/a%2Fb/c%3Fd`);
  });

  it.each([
    ['ftp://example.com'],
    ['javascript:alert(1)'],
    ['example.com'],
    [''],
    ['https://user:pw@example.com'],
    ['https://example.com/app'],
    ['https://example.com/?x=1'],
    ['https://example.com/#top'],
  ])('refuses the origin %j', (origin) => {
    expect(() => publicSurveyUrl(origin, 'b', 's')).toThrow(TypeError);
  });

  it('refuses empty ids', () => {
    expect(() => publicSurveyUrl(ORIGIN, '', 's')).toThrow(/businessId/);
    expect(() => publicSurveyUrl(ORIGIN, 'b', '  ')).toThrow(/surveyId/);
  });
});

describe('qrPng', () => {
  it('is a 400x400 PNG that decodes back to the exact URL', async () => {
    const png = qrPng(URL_);
    expect(pngHeader(png)).toMatchObject({ width: 400, height: 400 });
    const pixels = await pixelsOf(png);
    expect([pixels.width, pixels.height]).toEqual([400, 400]);
    expect(decodeQr(pixels)).toBe(URL_);
  });

  it('keeps at least the 4-module quiet zone inside the size asked for', async () => {
    const pixels = await pixelsOf(qrPng(URL_));
    const modulePx = Math.floor(400 / (qrMatrix(URL_).size + 2 * QUIET_ZONE));
    const quiet = 4 * modulePx;
    expect(inkIn(pixels, 0, 0, 400, quiet) + inkIn(pixels, 0, 400 - quiet, 400, 400)).toBe(0);
    expect(inkIn(pixels, 0, 0, quiet, 400) + inkIn(pixels, 400 - quiet, 0, 400, 400)).toBe(0);
    expect(inkIn(pixels, quiet, quiet, 400 - quiet, 400 - quiet)).toBeGreaterThan(0);
  });

  it('honours other sizes exactly and encodes the preview link with its query', async () => {
    const preview = publicSurveyUrl(ORIGIN, BUSINESS, SURVEY, { preview: true });
    const png = qrPng(preview, 257);
    expect(pngHeader(png)).toMatchObject({ width: 257, height: 257 });
    expect(decodeQr(await pixelsOf(png))).toBe(preview);
  });

  it('refuses a size too small for whole-pixel modules, and links that are not http(s)', () => {
    expect(() => qrPng(URL_, 40)).toThrow(RangeError);
    expect(() => qrPng(URL_, 400.5)).toThrow(RangeError);
    expect(() => qrPng('javascript:alert(1)')).toThrow(TypeError);
    expect(() => qrPng('not a url')).toThrow(TypeError);
  });
});

describe('qrSvg', () => {
  const svg = qrSvg(URL_);

  it('is an accessible <svg> whose viewBox covers the symbol and its quiet zone', () => {
    const total = qrMatrix(URL_).size + 2 * QUIET_ZONE;
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain(`viewBox="0 0 ${total} ${total}"`);
    expect(svg).toContain('width="400" height="400"');
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/aria-label="[^"]+"/);
    expect(svg).toMatch(/<title>[^<]+<\/title>/);
  });

  it('has no external references', () => {
    expect(svg.match(/https?:\/\/[^"\s<]*/g)).toEqual(['http://www.w3.org/2000/svg']);
    expect(svg).not.toMatch(/href|url\(|<image|<script|<foreignObject|<style|@import/i);
  });

  it('decodes back to the exact URL when rasterised', async () => {
    const pixels = await pixelsOf(Buffer.from(qrSvg(URL_, { size: 400 })));
    expect([pixels.width, pixels.height]).toEqual([400, 400]);
    expect(decodeQr(pixels)).toBe(URL_);
  });

  it('escapes the label and takes a size', () => {
    const out = qrSvg(URL_, { size: 200, label: 'Scan <me> & "go"' });
    expect(out).toContain('aria-label="Scan &lt;me&gt; &amp; &quot;go&quot;"');
    expect(out).toContain('<title>Scan &lt;me&gt; &amp; &quot;go&quot;</title>');
    expect(out).toContain('width="200" height="200"');
  });
});

describe('formatCents', () => {
  it.each([
    [0, '$0.00'],
    [100, '$1.00'],
    [305, '$3.05'],
    [1500, '$15.00'],
    [123456, '$1,234.56'],
    [-250, '-$2.50'],
  ])('%i cents -> %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it('refuses fractions of a cent', () => {
    expect(() => formatCents(1.5)).toThrow(TypeError);
  });
});

describe('flyerFileName', () => {
  it.each([
    ['Crumb Co Spring Survey', 'crumb-co-spring-survey-flyer.png'],
    ['Crumb & Co: Spring Survey!!!', 'crumb-and-co-spring-survey-flyer.png'],
    ["  Joe's  Diner -- (2026)  ", 'joes-diner-2026-flyer.png'],
    ['Joe’s Café Crème Brûlée', 'joes-cafe-creme-brulee-flyer.png'],
    ['Straße Bäckerei Øl', 'strasse-backerei-ol-flyer.png'],
    ['../../etc/passwd', 'etc-passwd-flyer.png'],
    ['Spring flyer', 'spring-flyer.png'],
    ['☕ Coffee ☕', 'coffee-flyer.png'],
    ['', 'survey-flyer.png'],
    ['   ', 'survey-flyer.png'],
    ['咖啡调查', 'survey-flyer.png'],
    ['!!!', 'survey-flyer.png'],
  ])('%j -> %s', (title, name) => {
    expect(flyerFileName(title)).toBe(name);
  });

  it('caps very long titles at 80 characters on a word boundary', () => {
    const name = flyerFileName('The Quarterly Customer Satisfaction and Loyalty Survey for Every Single Location We Run in Springfield '.repeat(3));
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-flyer\.png$/);
    expect(name.startsWith('the-quarterly-customer-satisfaction')).toBe(true);
  });

  it('caps one endless word too', () => {
    const name = flyerFileName('a'.repeat(300));
    expect(name).toBe(`${'a'.repeat(70)}-flyer.png`);
  });
});

describe('renderFlyer', () => {
  let png: Buffer;
  let page: Pixels;

  beforeAll(async () => {
    png = await renderFlyer(baseInput);
    page = await pixelsOf(png);
  }, RENDER_TIMEOUT);

  it('is a 2550x3300 PNG marked 300 dpi', () => {
    expect(pngHeader(png)).toEqual({ width: FLYER_WIDTH, height: FLYER_HEIGHT, pxPerMetre: 11811 });
    expect([page.width, page.height]).toEqual([2550, 3300]);
  });

  it('carries a QR code that decodes back to the exact URL', async () => {
    expect(decodeQr(await pixelsOf(png, 0.5))).toBe(URL_);
  });

  it('draws the QR code large: at least 900 px of symbol on the page', () => {
    const black = boxOf(page, '#000000');
    expect(black.maxX - black.minX).toBeGreaterThanOrEqual(900);
    expect(black.maxY - black.minY).toBeGreaterThanOrEqual(900);
    // centred horizontally
    expect(Math.abs((black.minX + black.maxX) / 2 - FLYER_WIDTH / 2)).toBeLessThan(10);
  });

  it('shows the three tiers side by side, each in its colour, below the QR code', () => {
    const black = boxOf(page, '#000000');
    // thirds of the printable width
    const third = (FLYER_WIDTH - 2 * FLYER_MARGIN) / 3;
    const boxes = { bronze: boxOf(page, TIER_COLORS.bronze), silver: boxOf(page, TIER_COLORS.silver), gold: boxOf(page, TIER_COLORS.gold) };
    (['bronze', 'silver', 'gold'] as const).forEach((tier, i) => {
      const box = boxes[tier];
      expect(box.count, tier).toBeGreaterThan(5000);
      expect(box.minX, tier).toBeGreaterThanOrEqual(FLYER_MARGIN + i * third);
      expect(box.maxX, tier).toBeLessThan(FLYER_MARGIN + (i + 1) * third);
      expect(box.minY, tier).toBeGreaterThan(black.maxY);
      expect(box.minY, tier).toBe(boxes.bronze.minY);
    });
  });

  it.each([
    ['bronze', { bronze: 200, silver: 300, gold: 800 }],
    ['silver', { bronze: 100, silver: 500, gold: 800 }],
  ] as const)(
    'draws the %s amount inside its own card (changing it changes only that card)',
    async (tier, rewards) => {
      const other = await pixelsOf(await renderFlyer({ ...baseInput, rewards }));
      const card = boxOf(page, TIER_COLORS[tier]);
      const diff = diffBox(page, other);
      expect(diff.count).toBeGreaterThan(1000);
      expect(diff.minX).toBeGreaterThan(card.minX);
      expect(diff.maxX).toBeLessThan(card.maxX);
      expect(diff.minY).toBeGreaterThan(card.minY);
      expect(diff.maxY).toBeLessThan(card.maxY);
    },
    RENDER_TIMEOUT,
  );

  it('puts the Gold amount in the headline too (changing it changes the headline and the Gold card)', async () => {
    const other = await pixelsOf(await renderFlyer({ ...baseInput, rewards: { bronze: 100, silver: 300, gold: 1500 } }));
    const gold = boxOf(page, TIER_COLORS.gold);
    const black = boxOf(page, '#000000');
    let above = 0;
    let inCard = 0;
    let elsewhere = 0;
    for (let i = 0; i < page.data.length; i += 4) {
      if (page.data[i] === other.data[i] && page.data[i + 1] === other.data[i + 1] && page.data[i + 2] === other.data[i + 2]) continue;
      const x = (i / 4) % page.width;
      const y = Math.floor(i / 4 / page.width);
      if (y < black.minY) above++;
      else if (x > gold.minX && x < gold.maxX && y > gold.minY && y < gold.maxY) inCard++;
      else elsewhere++;
    }
    expect(above).toBeGreaterThan(1000);
    expect(inCard).toBeGreaterThan(1000);
    expect(elsewhere).toBe(0);
  }, RENDER_TIMEOUT);

  it('leaves the print margins blank', () => {
    expect(inkInMargins(page)).toBe(0);
  });

  it('keeps a 200-character business name and a long title inside the margins, QR still readable', async () => {
    const businessName = 'The Very Long Named Artisanal Sourdough and Espresso Collective of Greater Springfield '.repeat(3).slice(0, 200);
    expect(businessName).toHaveLength(200);
    const surveyTitle = 'Our Extraordinarily Detailed Seasonal Customer Experience Feedback Questionnaire '.repeat(3);
    const long = await renderFlyer({ ...baseInput, businessName, surveyTitle });
    const pixels = await pixelsOf(long);
    expect([pixels.width, pixels.height]).toEqual([2550, 3300]);
    expect(inkInMargins(pixels)).toBe(0);
    // the name is drawn (dark ink right below the top margin), the QR code still decodes
    expect(inkIn(pixels, FLYER_MARGIN, FLYER_MARGIN, FLYER_WIDTH - FLYER_MARGIN, FLYER_MARGIN + 200)).toBeGreaterThan(10_000);
    expect(decodeQr(await pixelsOf(long, 0.5))).toBe(URL_);
  }, RENDER_TIMEOUT);

  it('breaks a 200-character name without spaces instead of overflowing', async () => {
    const pixels = await pixelsOf(await renderFlyer({ ...baseInput, businessName: 'W'.repeat(200), surveyTitle: 'X'.repeat(255) }));
    expect(inkInMargins(pixels)).toBe(0);
  }, RENDER_TIMEOUT);

  it('refuses bad input', async () => {
    await expect(renderFlyer({ ...baseInput, url: 'javascript:alert(1)' })).rejects.toThrow(TypeError);
    await expect(renderFlyer({ ...baseInput, businessName: ' \n ' })).rejects.toThrow(/businessName/);
    await expect(renderFlyer({ ...baseInput, rewards: { bronze: -1, silver: 300, gold: 800 } })).rejects.toThrow(/bronze/);
    await expect(renderFlyer({ ...baseInput, rewards: { bronze: 100, silver: 2.5, gold: 800 } })).rejects.toThrow(/silver/);
  });
});
