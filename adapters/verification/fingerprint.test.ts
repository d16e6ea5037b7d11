import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compareFingerprints, decodeFingerprint, encodeFingerprint, isSameCapture } from '../../modules/verification/server.ts';
import { imageFingerprint } from './preprocess.ts';

/** A profile screen drawn with SVG: status bar (clock, battery), name, bio, counts, 'Followed by', button, a posts grid. */
function profile(options: { clock: string; battery: number; followedBy: string; followers: string; width?: number; height?: number }): Promise<Buffer> {
  const { clock, battery, followedBy, followers } = options;
  const width = options.width ?? 1170;
  const height = options.height ?? 2532;
  const tiles = Array.from({ length: 12 }, (_, i) => {
    const x = (i % 3) * 390;
    const y = 1150 + Math.floor(i / 3) * 390;
    const hue = (i * 47) % 360;
    return `<rect x="${x + 3}" y="${y + 3}" width="384" height="384" fill="hsl(${hue},45%,60%)"/><circle cx="${x + 195}" cy="${y + 195}" r="${90 + (i % 4) * 20}" fill="hsl(${(hue + 120) % 360},50%,40%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1170 2532">
    <rect width="1170" height="2532" fill="#ffffff"/>
    <text x="96" y="100" font-family="DejaVu Sans" font-weight="bold" font-size="48" fill="#000">${clock}</text>
    <rect x="980" y="66" width="80" height="38" rx="9" fill="none" stroke="#000" stroke-width="4"/>
    <rect x="988" y="74" width="${Math.round(64 * battery / 100)}" height="22" fill="#000"/>
    <text x="60" y="260" font-family="DejaVu Sans" font-weight="bold" font-size="56" fill="#000">emberandoakgrill</text>
    <circle cx="180" cy="460" r="130" fill="#c9733a"/>
    <text x="420" y="430" font-family="DejaVu Sans" font-weight="bold" font-size="48" fill="#000">214      ${followers}      181</text>
    <text x="420" y="500" font-family="DejaVu Sans" font-size="38" fill="#333">posts     followers     following</text>
    <text x="60" y="680" font-family="DejaVu Sans" font-weight="bold" font-size="42" fill="#000">Ember &amp; Oak Grill</text>
    <text x="60" y="740" font-family="DejaVu Sans" font-size="40" fill="#222">Wood-fired grill in Portland. Open daily 11-10.</text>
    <text x="60" y="820" font-family="DejaVu Sans" font-size="38" fill="#222">Followed by ${followedBy} and 11 others</text>
    <rect x="60" y="900" width="500" height="100" rx="20" fill="#efefef"/>
    <text x="200" y="965" font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#000">Following</text>
    <rect x="600" y="900" width="500" height="100" rx="20" fill="#efefef"/>
    <text x="740" y="965" font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="#000">Message</text>
    ${tiles}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function fingerprint(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return imageFingerprint({ data, width: info.width, height: info.height });
}

const ORIGINAL = { clock: '9:41', battery: 80, followedBy: 'ana.pereira', followers: '3,482' };

describe('image fingerprints (ADR 067, 072)', () => {
  it('round-trips through its stored form and refuses anything else', async () => {
    const stored = await fingerprint(await profile(ORIGINAL));
    expect(stored).toMatch(/^fp2:192x415:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    const image = decodeFingerprint(stored)!;
    expect(image.width).toBe(192);
    expect(image.height).toBe(415);
    expect(image.chroma).toHaveLength(192 * 415);
    expect(decodeFingerprint(encodeFingerprint(image))).toMatchObject({ width: 192, height: 415 });
    expect(decodeFingerprint('fp1:192x415:AAAA')).toBeNull();
    expect(decodeFingerprint(stored.replace('fp2:', 'fp1:'))).toBeNull();
    expect(decodeFingerprint('sha256:abc')).toBeNull();
    expect(isSameCapture(stored, 'garbage')).toBe(false);
  });

  it('finds re-saved, recompressed, rescaled, cropped (any side, the status bar), lightened, darkened and re-contrasted copies of the same capture', async () => {
    const original = await profile(ORIGINAL);
    const stored = await fingerprint(original);
    const copies = {
      jpeg: await sharp(original).jpeg({ quality: 60 }).toBuffer(),
      jpegTwice: await sharp(await sharp(original).jpeg({ quality: 85 }).toBuffer()).jpeg({ quality: 55 }).toBuffer(),
      webp: await sharp(original).webp({ quality: 70 }).toBuffer(),
      downscaled: await sharp(original).resize({ width: 585 }).jpeg({ quality: 75 }).toBuffer(),
      downscaledOdd: await sharp(original).resize({ width: 720 }).webp({ quality: 80 }).toBuffer(),
      statusBarCropped: await sharp(original).extract({ left: 0, top: 141, width: 1170, height: 2391 }).jpeg({ quality: 80 }).toBuffer(),
      // What a cheater does (ADR 074): lighter or darker, more or less contrast, cropped from any side, rescaled, recompressed hard.
      brighter: await sharp(original).modulate({ brightness: 1.3 }).jpeg({ quality: 85 }).toBuffer(),
      darker: await sharp(original).modulate({ brightness: 0.7 }).jpeg({ quality: 85 }).toBuffer(),
      moreContrast: await sharp(original).linear(1.3, -0.3 * 128).jpeg({ quality: 85 }).toBuffer(),
      lessContrast: await sharp(original).linear(0.7, 0.3 * 128).jpeg({ quality: 85 }).toBuffer(),
      croppedLeft: await sharp(original).extract({ left: 175, top: 0, width: 995, height: 2532 }).jpeg({ quality: 80 }).toBuffer(),
      croppedRight: await sharp(original).extract({ left: 0, top: 0, width: 995, height: 2532 }).jpeg({ quality: 80 }).toBuffer(),
      croppedBottom: await sharp(original).extract({ left: 0, top: 0, width: 1170, height: 2152 }).jpeg({ quality: 80 }).toBuffer(),
      enlarged: await sharp(original).resize({ width: 1755 }).jpeg({ quality: 90 }).toBuffer(),
      jpegQ40: await sharp(original).jpeg({ quality: 40 }).toBuffer(),
      statusBarCutBrighter: await sharp(await sharp(original).extract({ left: 0, top: 141, width: 1170, height: 2391 }).toBuffer()).modulate({ brightness: 1.2 }).jpeg({ quality: 70 }).toBuffer(),
      everything: await sharp(await sharp(original).extract({ left: 90, top: 150, width: 1000, height: 2100 }).resize({ width: 640 }).toBuffer()).linear(0.8, 0.2 * 128).jpeg({ quality: 50 }).toBuffer(),
    };
    for (const [name, copy] of Object.entries(copies)) {
      const upload = await fingerprint(copy);
      expect.soft(isSameCapture(upload, stored), name).toBe(true);
      // Either way round: the rewarded picture may be the copy.
      expect.soft(isSameCapture(stored, upload), `${name}, reversed`).toBe(true);
    }
    // 18 copies of a 1170x2532 picture encoded and fingerprinted, each compared both ways: 25-30 s on a loaded 2-core machine.
  }, 120_000);

  it("does not take another capture of the same profile for a copy (another clock, 'Followed by' line or count)", async () => {
    const stored = await fingerprint(await profile(ORIGINAL));
    const others = {
      anotherCustomer: { ...ORIGINAL, clock: '10:07', battery: 54, followedBy: 'li.wei' },
      followedBy: { ...ORIGINAL, followedBy: 'li.weii' },
      oneMoreFollower: { ...ORIGINAL, followers: '3,483' },
    };
    for (const [name, look] of Object.entries(others)) {
      const other = await profile(look);
      expect.soft(isSameCapture(await fingerprint(other), stored), name).toBe(false);
      // ... even recompressed as a JPEG.
      expect.soft(isSameCapture(await fingerprint(await sharp(other).jpeg({ quality: 70 }).toBuffer()), stored), `${name} as JPEG`).toBe(false);
    }
  });

  it('takes a capture that differs only in one digit of the clock for a copy (the price of forgiving edits, ADR 074)', async () => {
    // A brightened copy's worst patch (up to 31 on the bench) overlaps a one-digit change of the clock (23 here);
    // a count one higher (36) and another 'Followed by' line (44) stay apart.
    const stored = await fingerprint(await profile(ORIGINAL));
    expect(isSameCapture(await fingerprint(await profile({ ...ORIGINAL, clock: '9:42' })), stored)).toBe(true);
  });

  it("does not take another customer's review of the same business in the same app and phone for a copy, even edited", async () => {
    // Two genuine captures of the verification set: one business, Google Maps, the same iPhone, light theme; other reviewers, other words.
    const dir = `${import.meta.dirname}/../../tests/fixtures/verification-set/images`;
    const first = readFileSync(`${dir}/train2/t2-google-genuine-13.jpg`);
    const second = readFileSync(`${dir}/train5/t5-google-genuine-06.png`);
    const stored = await fingerprint(first);
    expect(isSameCapture(await fingerprint(second), stored)).toBe(false);
    expect(isSameCapture(stored, await fingerprint(second))).toBe(false);
    const meta = await sharp(second).metadata();
    const edited = await sharp(await sharp(second).extract({ left: 0, top: 40, width: meta.width!, height: meta.height! - 40 }).toBuffer()).modulate({ brightness: 1.25 }).jpeg({ quality: 60 }).toBuffer();
    expect(isSameCapture(await fingerprint(edited), stored)).toBe(false);
    // ... while a copy of the first, edited the same way, is one.
    const firstMeta = await sharp(first).metadata();
    const copy = await sharp(await sharp(first).extract({ left: 0, top: 40, width: firstMeta.width!, height: firstMeta.height! - 40 }).toBuffer()).modulate({ brightness: 1.25 }).jpeg({ quality: 60 }).toBuffer();
    expect(isSameCapture(await fingerprint(copy), stored)).toBe(true);
  });

  it('compares an upload with a fingerprint stored before ADR 074 (fp1: grey levels only)', async () => {
    const original = await profile(ORIGINAL);
    // How ADR 067 stored it: the grey thumbnail alone.
    const grey = await sharp(original).flatten({ background: '#ffffff' }).greyscale().resize(192, 415, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
    const legacy = encodeFingerprint({ width: 192, height: 415, data: new Uint8Array(grey) });
    expect(legacy).toMatch(/^fp1:192x415:/);
    const copy = await sharp(await sharp(original).extract({ left: 0, top: 141, width: 1170, height: 2391 }).toBuffer()).modulate({ brightness: 0.75 }).jpeg({ quality: 60 }).toBuffer();
    expect(isSameCapture(await fingerprint(copy), legacy)).toBe(true);
    expect(isSameCapture(await fingerprint(await profile({ ...ORIGINAL, clock: '10:07', battery: 54, followedBy: 'li.wei' })), legacy)).toBe(false);
  });

  it('does not compare pictures of other proportions, or a crop that leaves less than two thirds', async () => {
    const original = await profile(ORIGINAL);
    const stored = decodeFingerprint(await fingerprint(original))!;
    const half = decodeFingerprint(await fingerprint(await sharp(original).extract({ left: 0, top: 0, width: 1170, height: 1266 }).toBuffer()))!;
    expect(compareFingerprints(stored, half)).toBeNull();
    expect(compareFingerprints(stored, { ...half, width: 96 })).toBeNull();
  });
});
