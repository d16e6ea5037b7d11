/**
 * Measures the lossy-copy comparison of ADR 067 (modules/verification/fingerprint.ts): the train
 * parts' image-duplicate pairs, and profiles rendered with the verification set's own screens
 * (headless Chromium, /usr/bin/chromium): re-saved / recompressed / downscaled / cropped copies,
 * which must be the same capture, and other captures of the same profile (another clock minute,
 * battery, 'Followed by' line, follower count), which must not. Prints each pair's worst pixel
 * difference and the time to fingerprint and compare.
 *
 *   node bench/duplicate-copies.ts      # renders are cached in RENDER_CACHE (default /tmp/duplicate-copies)
 */
import sharp from 'sharp';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';
import type { Look } from '../tests/fixtures/verification-set/screens.ts';
import type { ProfileProps } from '../tests/fixtures/verification-set/social.ts';
import { readFileSync } from 'node:fs';
import { imageFingerprint } from '../adapters/verification/preprocess.ts';
import { compareFingerprints, decodeFingerprint } from '../modules/verification/fingerprint.ts';
import { instagramProfile, xProfile, tiktokProfile, facebookPage } from '../tests/fixtures/verification-set/social.ts';

async function fp(bytes: Buffer) {
  const { data, info } = await sharp(bytes).flatten({ background: '#fff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const t0 = performance.now();
  const s = await imageFingerprint({ data, width: info.width, height: info.height });
  const ms = performance.now() - t0;
  return { img: decodeFingerprint(s)!, len: s.length, ms };
}
type Fp = Awaited<ReturnType<typeof fp>>;
function cmp(name: string, a: Fp, b: Fp) {
  const t0 = performance.now();
  const c = compareFingerprints(a.img, b.img, Infinity);
  const ms = performance.now() - t0;
  console.log(name.padEnd(50), c ? `offset=${c.offset.toFixed(2)} mean=${c.mean.toFixed(2)} worst=${c.worst.toFixed(1)} same=${c.sameCapture}` : 'null', `${ms.toFixed(1)}ms`);
}
const dir = import.meta.dirname + '/../tests/fixtures/verification-set/';
for (const id of ['train2/t2-x-follow-dup-01', 'train2/t2-instagram-follow-dup-01', 'train2/t2-b-instagram-tag-dup-01', 'train/b-instagram-tag-dup-01', 'train/google-dup-image-01', 'train/yelp-dup-image-01', 'train2/t2-google-dup-image-01', 'train2/t2-yelp-dup-image-01']) {
  const a = await fp(readFileSync(dir + 'images/' + id + '-earlier.png'));
  const b = await fp(readFileSync(dir + 'images/' + id + '.jpg'));
  cmp('fixture ' + id, a, b);
}
let browser0: Browser | null = null;
const browser = { newContext: async (o: BrowserContextOptions) => (browser0 ??= await chromium.launch(LAUNCH)).newContext(o), close: async () => browser0?.close() };
const LAUNCH = ({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
const CACHE = process.env.RENDER_CACHE ?? '/tmp/duplicate-copies';
mkdirSync(CACHE, { recursive: true });
async function render(html: string, w: number, h: number, dpr: number) {
  const key = CACHE + '/' + createHash('sha1').update(html + w + h + dpr).digest('hex') + '.png';
  if (existsSync(key)) return readFileSync(key);
  const png = await render0(html, w, h, dpr);
  writeFileSync(key, png);
  return png;
}
async function render0(html: string, w: number, h: number, dpr: number) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, deviceScaleFactor: dpr });
  const page = await ctx.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  const png = await page.screenshot({ type: 'png' });
  await ctx.close();
  return png as Buffer;
}
const base = { handle: 'emberandoakgrill', name: 'Ember & Oak Grill', category: 'Restaurant', bio: 'Wood-fired grill in Portland. Open daily 11-10.', posts: 214, followers: '3,482', following: 181, state: 'following' as const };
const screens: [string, (look: Look, p: ProfileProps) => string][] = [['instagram', instagramProfile], ['x', xProfile], ['tiktok', (l, p) => tiktokProfile(l, { ...p, likes: '12.3K' })], ['facebook', (l, p) => facebookPage(l, { ...p, likes: '2.1K' })]];
for (const theme of ['light', 'dark'] as const) for (const [os, W, H, dpr] of [['ios', 390, 844, 3], ['android', 412, 915, 2.625]] as const) for (const [name, fn] of screens) {
  const look: Look = { theme, lang: 'en', os, font: 'Roboto', time: '9:41', battery: 80 };
  const A = await render(fn(look, { ...base, followedBy: ['ana.p'] }), W, H, dpr);
  const variants: Record<string, Buffer> = {
    'other minute': await render(fn({ ...look, time: '9:42' }, { ...base, followedBy: ['ana.p'] }), W, H, dpr),
    'other battery': await render(fn({ ...look, battery: 79 }, { ...base, followedBy: ['ana.p'] }), W, H, dpr),
    'other followedBy': await render(fn(look, { ...base, followedBy: ['li.wei'] }), W, H, dpr),
    'other followers count': await render(fn(look, { ...base, followedBy: ['ana.p'], followers: '3,483' }), W, H, dpr),
  };
  const meta = await sharp(A).metadata();
  const sb = Math.round((os === 'ios' ? 47 : 26) * dpr);
  const copies: Record<string, Buffer> = {
    'jpeg q60': await sharp(A).jpeg({ quality: 60 }).toBuffer(),
    'jpeg q85 then q55': await sharp(await sharp(A).jpeg({ quality: 85 }).toBuffer()).jpeg({ quality: 55 }).toBuffer(),
    'webp q70': await sharp(A).webp({ quality: 70 }).toBuffer(),
    'downscaled 50% jpeg q75': await sharp(A).resize({ width: Math.round(meta.width! / 2) }).jpeg({ quality: 75 }).toBuffer(),
    'downscaled to 720 webp': await sharp(A).resize({ width: 720 }).webp({ quality: 80 }).toBuffer(),
    'status bar cropped jpeg': await sharp(A).extract({ left: 0, top: sb, width: meta.width!, height: meta.height! - sb }).jpeg({ quality: 80 }).toBuffer(),
    'status+nav cropped, downscaled': await sharp(await sharp(A).extract({ left: 0, top: sb + 7, width: meta.width!, height: meta.height! - sb - 180 }).toBuffer()).resize({ width: 800 }).jpeg({ quality: 70 }).toBuffer(),
  };
  const fa = await fp(A);
  for (const [k, v] of Object.entries(copies)) cmp(`${name}/${theme}/${os} COPY ${k}`, fa, await fp(v));
  for (const [k, v] of Object.entries(variants)) {
    // The renderer may draw no difference at all (a 1% battery change on iOS's icon, a screen without 'Followed by'): not a test.
    if (v.equals(A)) console.log(`${name}/${theme}/${os} SAME PIXELS ${k}`);
    else cmp(`${name}/${theme}/${os} OTHER ${k}`, fa, await fp(v));
  }
  // Other capture, status bar cropped on both
  const Bc = await sharp(variants['other followedBy']!).extract({ left: 0, top: sb, width: meta.width!, height: meta.height! - sb }).toBuffer();
  const Ac = await sharp(A).extract({ left: 0, top: sb, width: meta.width!, height: meta.height! - sb }).toBuffer();
  if (!variants['other followedBy']!.equals(A)) cmp(`${name}/${theme}/${os} OTHER followedBy, both cropped`, await fp(Ac), await fp(Bc));
  console.log('fp length', fa.len, 'ms', fa.ms.toFixed(1));
}
await browser.close();

// Cost per verification: the fingerprint of an upload, and one comparison with a stored one.
{
  const { isSameCapture } = await import('../modules/verification/fingerprint.ts');
  const files = ['train2/t2-x-follow-dup-01', 'train2/t2-instagram-follow-dup-01', 'train2/t2-b-instagram-tag-dup-01', 'train/b-instagram-tag-dup-01', 'train/google-dup-image-01', 'train/yelp-dup-image-01', 'train2/t2-google-dup-image-01', 'train2/t2-yelp-dup-image-01'];
  const stored: string[] = [];
  const copies: string[] = [];
  const fpTimes: number[] = [];
  for (const id of files) {
    for (const [list, file] of [[stored, `${id}-earlier.png`], [copies, `${id}.jpg`]] as const) {
      const { data, info } = await sharp(readFileSync(`${dir}images/${file}`)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const rgb = { data, width: info.width, height: info.height };
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const value = await imageFingerprint(rgb);
        fpTimes.push(performance.now() - t0);
        if (i === 0) list.push(value);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const sizes = stored.map((s) => s.length);
  const time = (pairs: [string, string][]) => {
    const t0 = performance.now();
    let same = 0;
    for (let k = 0; k < 20; k++) for (const [a, b] of pairs) same += isSameCapture(a, b) ? 1 : 0;
    return { msPerComparison: (performance.now() - t0) / (20 * pairs.length), same: same / 20 };
  };
  console.log(`fingerprint: median ${median(fpTimes).toFixed(1)} ms to compute; stored ${Math.min(...sizes)}-${Math.max(...sizes)} characters`);
  console.log('copy vs its original:', time(copies.map((c, i) => [c, stored[i]!])));
  console.log('upload vs another rewarded screen:', time(copies.flatMap((c, i) => stored.filter((_, j) => j !== i).map((s) => [c, s] as [string, string]))));
}
