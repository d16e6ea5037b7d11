import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compareFingerprints, decodeFingerprint, encodeFingerprint, isSameCapture } from '../../modules/verification/index.ts';
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

describe('image fingerprints (ADR 067)', () => {
  it('round-trips through its stored form and refuses anything else', async () => {
    const stored = await fingerprint(await profile(ORIGINAL));
    const image = decodeFingerprint(stored)!;
    expect(image.width).toBe(192);
    expect(image.height).toBe(415);
    expect(decodeFingerprint(encodeFingerprint(image))).toMatchObject({ width: 192, height: 415 });
    expect(decodeFingerprint('fp1:192x415:AAAA')).toBeNull();
    expect(decodeFingerprint('sha256:abc')).toBeNull();
    expect(isSameCapture(stored, 'garbage')).toBe(false);
  });

  it('finds re-saved, recompressed, downscaled and status-bar-cropped copies of the same capture', async () => {
    const original = await profile(ORIGINAL);
    const stored = await fingerprint(original);
    const copies = {
      jpeg: await sharp(original).jpeg({ quality: 60 }).toBuffer(),
      jpegTwice: await sharp(await sharp(original).jpeg({ quality: 85 }).toBuffer()).jpeg({ quality: 55 }).toBuffer(),
      webp: await sharp(original).webp({ quality: 70 }).toBuffer(),
      downscaled: await sharp(original).resize({ width: 585 }).jpeg({ quality: 75 }).toBuffer(),
      downscaledOdd: await sharp(original).resize({ width: 720 }).webp({ quality: 80 }).toBuffer(),
      statusBarCropped: await sharp(original).extract({ left: 0, top: 141, width: 1170, height: 2391 }).jpeg({ quality: 80 }).toBuffer(),
    };
    for (const [name, copy] of Object.entries(copies)) {
      expect.soft(isSameCapture(await fingerprint(copy), stored), name).toBe(true);
      // Either way round: the rewarded picture may be the copy.
      expect.soft(isSameCapture(stored, await fingerprint(copy)), `${name}, reversed`).toBe(true);
    }
  });

  it("does not take another capture of the same profile for a copy (another clock, 'Followed by' line or count)", async () => {
    const stored = await fingerprint(await profile(ORIGINAL));
    const others = {
      anotherCustomer: { ...ORIGINAL, clock: '10:07', battery: 54, followedBy: 'li.wei' },
      nextMinute: { ...ORIGINAL, clock: '9:42' },
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

  it('does not compare pictures of other proportions, or a crop that leaves less than 80%', async () => {
    const original = await profile(ORIGINAL);
    const stored = decodeFingerprint(await fingerprint(original))!;
    const half = decodeFingerprint(await fingerprint(await sharp(original).extract({ left: 0, top: 0, width: 1170, height: 1266 }).toBuffer()))!;
    expect(compareFingerprints(stored, half)).toBeNull();
    expect(compareFingerprints(stored, { ...half, width: 96 })).toBeNull();
  });
});
