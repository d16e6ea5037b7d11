/**
 * Measures the copy comparison of ADR 074 (modules/verification/fingerprint.ts) on the verification
 * set's own genuine screenshots (whole phone screenshots: no photo of a screen, no blur, no crop):
 *
 * - copies: each screenshot edited as a cheater would (brightness and contrast -30%..+30%, 15% off
 *   any side, the status bar cut off, rescaled 50%-150%, JPEG q40-q95, and combinations of these
 *   drawn at random per screenshot), each compared with its original: must be the same capture;
 * - false matches: every pair of two distinct screenshots of one part (many are two customers'
 *   reviews or follows of one business in one app: the same layout, other words), and each
 *   screenshot's brightened, cropped copy against every other original: must not be;
 * - the train parts' image-duplicate pairs (JPEG re-saves of the earlier PNG).
 *
 * Two parts: `tune` draws from the train parts (thresholds were chosen on it), `heldout` from the
 * holdout parts (measured, not tuned on). Fingerprints are cached in FP_CACHE (default /tmp/duplicate-copies-fp).
 *
 *   node bench/duplicate-copies.ts [--part tune|heldout] [--n 80] [--quick]
 */
import sharp from 'sharp';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { imageFingerprint } from '../adapters/verification/preprocess.ts';
import { compareFingerprints, decodeFingerprint, PATCH_LIMIT, MIN_CORRELATION, type GreyImage } from '../modules/verification/fingerprint.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const PART = option('part', 'tune');
const N = Number(option('n', '80'));
const QUICK = args.includes('--quick'); // copies only, no pairs
const CACHE = process.env.FP_CACHE ?? '/tmp/duplicate-copies-fp3';
mkdirSync(CACHE, { recursive: true });
const dir = `${import.meta.dirname}/../tests/fixtures/verification-set/`;

type Case = { id: string; image: string; businessId: string; kind: string; platform: string; tags: Record<string, unknown> };
// The parts: the train parts for tuning, the holdouts for the figures.
const manifests = readdirSync(dir).filter((f) => /^manifest(-\w+)?\.json$/.test(f));
const pool: Case[] = [];
const seen = new Set<string>();
for (const file of manifests.sort()) {
  const heldout = file.includes('holdout');
  if ((PART === 'heldout') !== heldout) continue;
  for (const c of (JSON.parse(readFileSync(dir + file, 'utf8')) as { cases: Case[] }).cases) {
    const t = c.tags;
    if (t.class !== 'genuine' || t.photoOfScreen || t.blurred || t.crop !== 'none') continue;
    const hash = createHash('sha1').update(readFileSync(dir + c.image)).digest('hex');
    if (seen.has(hash)) continue;
    seen.add(hash);
    pool.push(c);
  }
}
// A deterministic draw that favours look-alikes: up to three screenshots per business and layout,
// groups of two or more first.
const key = (c: Case) => `${c.businessId}/${c.tags.layout}`;
const order = (s: string) => createHash('sha1').update(`dup-bench:${s}`).digest('hex');
const groups = new Map<string, Case[]>();
for (const c of [...pool].sort((a, b) => order(a.id).localeCompare(order(b.id)))) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
const chosen: Case[] = [];
for (const group of [...groups.values()].sort((a, b) => (b.length >= 2 ? 1 : 0) - (a.length >= 2 ? 1 : 0) || order(key(a[0]!)).localeCompare(order(key(b[0]!))))) {
  for (const c of group.slice(0, 3)) if (chosen.length < N) chosen.push(c);
}
console.log(`part ${PART}: ${chosen.length} of ${pool.length} distinct genuine screenshots, ${new Set(chosen.map(key)).size} business/layout groups`);

// The transforms. Brightness: sharp's modulate (lightness times 0.7-1.3); contrast: a linear map about mid-grey.
type Edit = { name: string; brightness?: number; contrast?: number; crop?: [number, number, number, number]; scale?: number; quality: number };
function random(seed: string): () => number {
  let state = parseInt(createHash('sha1').update(seed).digest('hex').slice(0, 8), 16) || 1;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
function edits(c: Case): Edit[] {
  const r = random(c.id);
  const between = (a: number, b: number) => a + (b - a) * r();
  const statusBar = c.tags.os === 'ios' ? 0.055 : 0.03;
  const fixed: Edit[] = [
    { name: 'brightness +30%', brightness: 1.3, quality: 90 },
    { name: 'brightness -30%', brightness: 0.7, quality: 90 },
    { name: 'contrast +30%', contrast: 1.3, quality: 90 },
    { name: 'contrast -30%', contrast: 0.7, quality: 90 },
    { name: '15% off the top', crop: [0.15, 0, 0, 0], quality: 90 },
    { name: '15% off the bottom', crop: [0, 0, 0.15, 0], quality: 90 },
    { name: '15% off the left', crop: [0, 0, 0, 0.15], quality: 90 },
    { name: '15% off the right', crop: [0, 0.15, 0, 0], quality: 90 },
    { name: 'status bar cut off', crop: [statusBar + 0.005, 0, 0, 0], quality: 90 },
    { name: 'rescaled 50%', scale: 0.5, quality: 90 },
    { name: 'rescaled 150%', scale: 1.5, quality: 90 },
    { name: 'JPEG q40', quality: 40 },
    { name: 'JPEG q95', quality: 95 },
  ];
  // Combinations: each draws every parameter within its range.
  const combos: Edit[] = Array.from({ length: 4 }, (_, i) => {
    const sides = [between(0, 0.15), between(0, 0.15), between(0, 0.15), between(0, 0.15)] as [number, number, number, number];
    if (i === 0) sides[0] = statusBar + between(0, 0.01); // the status bar, and more
    const e: Edit = { name: `combination ${i + 1}`, brightness: between(0.7, 1.3), contrast: between(0.7, 1.3), crop: sides, scale: between(0.5, 1.5), quality: Math.round(between(40, 95)) };
    return e;
  });
  return [...fixed, ...combos];
}
/** The edit in one pipeline from the decoded pixels: the crop, the rescale, the tones, then JPEG. */
async function apply(raw: { data: Buffer; width: number; height: number }, e: Edit): Promise<Buffer> {
  let image = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: 3 } });
  let [w, h] = [raw.width, raw.height];
  if (e.crop) {
    const [top, right, bottom, left] = e.crop;
    const region = { left: Math.round(w * left), top: Math.round(h * top), width: 0, height: 0 };
    region.width = Math.min(w - region.left, Math.round(w * (1 - left - right)));
    region.height = Math.min(h - region.top, Math.round(h * (1 - top - bottom)));
    image = image.extract(region);
    [w, h] = [region.width, region.height];
  }
  if (e.scale) image = image.resize({ width: Math.round(w * e.scale) });
  if (e.brightness) image = image.modulate({ brightness: e.brightness });
  if (e.contrast) image = image.linear(e.contrast, 128 * (1 - e.contrast));
  return image.jpeg({ quality: e.quality }).toBuffer();
}
async function fingerprintOf(bytes: Buffer): Promise<string> {
  const { data, info } = await sharp(bytes).flatten({ background: '#fff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return imageFingerprint({ data, width: info.width, height: info.height });
}
async function cached(name: string, make: () => Promise<string>): Promise<string> {
  const file = `${CACHE}/${createHash('sha1').update(name).digest('hex')}.fp`;
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const value = await make();
  writeFileSync(file, value);
  return value;
}

const originals: GreyImage[] = [];
const copies: { edit: string; index: number; image: GreyImage }[] = [];
for (const [index, c] of chosen.entries()) {
  const bytes = readFileSync(dir + c.image);
  originals.push(decodeFingerprint(await cached(`${c.image}:original`, () => fingerprintOf(bytes)))!);
  let raw: { data: Buffer; width: number; height: number } | null = null;
  const decoded = async () => {
    if (raw) return raw;
    const { data, info } = await sharp(bytes).flatten({ background: '#fff' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return (raw = { data, width: info.width, height: info.height });
  };
  for (const e of edits(c)) copies.push({ edit: e.name, index, image: decodeFingerprint(await cached(`${c.image}:${JSON.stringify(e)}`, async () => fingerprintOf(await apply(await decoded(), e))))! });
}

const times = { copy: [] as number[], other: [] as number[] };
/** Timed as production runs it (stopping at the first patch past the limit), then measured in full for the figures. */
function compare(a: GreyImage, b: GreyImage, kind: 'copy' | 'other') {
  const t0 = performance.now();
  compareFingerprints(a, b);
  times[kind].push(performance.now() - t0);
  return compareFingerprints(a, b, Infinity);
}
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const fmt = (xs: number[]) => `min ${Math.min(...xs).toFixed(1)}, 5% ${quantile(xs, 0.05).toFixed(1)}, median ${quantile(xs, 0.5).toFixed(1)}, 95% ${quantile(xs, 0.95).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;

// Copies against their original (the stored one is the original: the upload is the copy).
const perEdit = new Map<string, { found: number; total: number; worst: number[] }>();
const copyWorst: number[] = [];
const copyCorrelation: number[] = [];
const missed: string[] = [];
for (const copy of copies) {
  const r = compare(copy.image, originals[copy.index]!, 'copy');
  const entry = perEdit.get(copy.edit) ?? { found: 0, total: 0, worst: [] };
  entry.total++;
  if (r?.sameCapture) entry.found++;
  else missed.push(`${chosen[copy.index]!.id} ${copy.edit}: ${r ? `corr ${r.correlation.toFixed(3)} worst ${r.worst.toFixed(1)} scale ${r.scale.toFixed(3)} dx ${r.dx.toFixed(2)} dy ${r.offset.toFixed(2)}` : 'null'}`);
  entry.worst.push(r?.worst ?? 255);
  perEdit.set(copy.edit, entry);
  copyWorst.push(r?.worst ?? 255);
  copyCorrelation.push(r?.correlation ?? -1);
}
const found = copies.length - missed.length;
console.log(`\ncopies found: ${found}/${copies.length} (${((100 * found) / copies.length).toFixed(1)}%)`);
for (const [edit, e] of perEdit) console.log(`  ${edit.padEnd(22)} ${e.found}/${e.total}   worst patch: ${fmt(e.worst)}`);
console.log(`  worst patch over all copies: ${fmt(copyWorst)}; correlation ${fmt(copyCorrelation.map((c) => 100 * c))} (x100)`);
for (const m of missed) console.log(`  missed: ${m}`);
console.log(`  copies within other limits: ${[16, 20, 24, 28, 32, 36, 40].map((l) => `${l}: ${copyWorst.filter((w) => w <= l).length}`).join(', ')} of ${copyWorst.length}`);

if (!QUICK) {
  // Every pair of two distinct originals, and the brightened / combined copies against every other original.
  const falseMatches: string[] = [];
  const pairWorst: number[] = [];
  let pairs = 0;
  let nearest = { worst: Infinity, what: '' };
  for (let i = 0; i < originals.length; i++) {
    for (let j = i + 1; j < originals.length; j++) {
      const r = compare(originals[i]!, originals[j]!, 'other');
      pairs++;
      const w = r && r.correlation >= MIN_CORRELATION ? r.worst : 255;
      pairWorst.push(w);
      if (w < nearest.worst) nearest = { worst: w, what: `${chosen[i]!.id} / ${chosen[j]!.id} corr ${r!.correlation.toFixed(3)}` };
      if (r?.sameCapture) falseMatches.push(`${chosen[i]!.id} / ${chosen[j]!.id} worst ${r.worst.toFixed(1)}`);
    }
  }
  const sameGroup = (i: number, j: number) => key(chosen[i]!) === key(chosen[j]!);
  let lookAlikes = 0;
  for (let i = 0; i < chosen.length; i++) for (let j = i + 1; j < chosen.length; j++) if (sameGroup(i, j)) lookAlikes++;
  console.log(`\nfalse matches between distinct originals: ${falseMatches.length}/${pairs} pairs (${((100 * falseMatches.length) / pairs).toFixed(2)}%; ${lookAlikes} pairs of one business and layout)`);
  console.log(`  worst patch of the pairs aligned above the correlation floor: ${fmt(pairWorst.filter((w) => w < 255))} (${pairWorst.filter((w) => w < 255).length} pairs); nearest: ${nearest.worst.toFixed(1)} ${nearest.what}`);
  for (const f of falseMatches) console.log(`  FALSE MATCH: ${f}`);
  const editedFalse: string[] = [];
  let editedPairs = 0;
  for (const copy of copies) {
    if (copy.edit !== 'brightness +30%' && copy.edit !== 'combination 1') continue;
    for (let j = 0; j < originals.length; j++) {
      if (j === copy.index) continue;
      editedPairs++;
      const r = compare(copy.image, originals[j]!, 'other');
      if (r?.sameCapture) editedFalse.push(`${chosen[copy.index]!.id} (${copy.edit}) / ${chosen[j]!.id} worst ${r.worst.toFixed(1)}`);
    }
  }
  // What other limits would give (the tuning part chooses PATCH_LIMIT).
  for (const limit of [12, 14, 16, 18, 20, 22, 25, 30]) {
    console.log(`  limit ${limit}: copies ${copyWorst.filter((w) => w <= limit).length}/${copyWorst.length}, false matches ${pairWorst.filter((w) => w <= limit).length}/${pairs}`);
  }
  console.log(`false matches of an edited copy (brightness +30%, combination 1) with another original: ${editedFalse.length}/${editedPairs}`);
  for (const f of editedFalse) console.log(`  FALSE MATCH: ${f}`);
}

// The train parts' image-duplicate pairs (JPEG re-saves of the earlier PNG).
if (PART === 'tune') {
  for (const id of ['train2/t2-x-follow-dup-01', 'train2/t2-instagram-follow-dup-01', 'train2/t2-b-instagram-tag-dup-01', 'train/b-instagram-tag-dup-01', 'train/google-dup-image-01', 'train/yelp-dup-image-01', 'train2/t2-google-dup-image-01', 'train2/t2-yelp-dup-image-01']) {
    const a = decodeFingerprint(await fingerprintOf(readFileSync(`${dir}images/${id}-earlier.png`)))!;
    const b = decodeFingerprint(await fingerprintOf(readFileSync(`${dir}images/${id}.jpg`)))!;
    const r = compare(b, a, 'copy');
    console.log(`fixture ${id}: same=${r?.sameCapture} worst ${r?.worst.toFixed(1)}`);
  }
}
for (const [kind, xs] of Object.entries(times)) {
  if (xs.length) console.log(`comparison time, ${kind === 'copy' ? 'a copy and its original' : 'two other screens'}: median ${quantile(xs, 0.5).toFixed(1)} ms, 95% ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms over ${xs.length}`);
}
console.log(`(limit ${PATCH_LIMIT}, correlation floor ${MIN_CORRELATION})`);
