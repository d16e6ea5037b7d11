/**
 * Copies of a rewarded screenshot (ADR 067, ADR 074): a small greyscale thumbnail of the picture
 * (and, since ADR 074, how colourful each of its pixels is), stored with the verification, and a
 * comparison that says whether a new upload is the same capture re-saved or edited as a cheater
 * would (recompressed, rescaled, brighter or darker, more or less contrast, cropped from any side
 * by up to about 15%, the status bar cut off) rather than another capture of a screen that looks
 * alike (another customer's review of the same business in the same app; the same profile at
 * another minute).
 *
 * The comparison: where the one lies on the other (scale and vertical offset from the rows' text
 * lines, horizontal offset from the columns, refined on the pixels); the pixels' correlation
 * there; then, with the tones matched per tile (an edit of brightness or contrast is a
 * non-decreasing map of grey levels), the worst 3x3 patch of the differences. A copy differs a
 * little everywhere; another capture differs a lot somewhere (other words, another clock).
 */
import { deflateSync, inflateSync } from 'node:zlib';

/**
 * An 8-bit greyscale image, row by row; a fingerprint's may carry `chroma`, the same size: how
 * colourful each pixel is (the largest channel less the smallest), where an edit of lightness
 * changes the grey level unevenly.
 */
export type GreyImage = { width: number; height: number; data: Uint8Array; chroma?: Uint8Array };

/** The thumbnail's width: the picture is scaled to it, keeping its proportions. */
export const FINGERPRINT_WIDTH = 192;
/** Thumbnails no taller than this (a 9:19.5 phone screenshot is 416 rows; of longer ones, the top). */
export const FINGERPRINT_MAX_HEIGHT = 448;

/**
 * The stored form of a thumbnail, smoothed (`smooth`): 'fp2:<width>x<height>:<base64 of the
 * deflated grey rows>:<base64 of the deflated chroma rows>' (ADR 074); rows stored before it are
 * 'fp1:<width>x<height>:<grey>' (ADR 067), still read and compared (by their grey levels).
 */
export function encodeFingerprint(thumbnail: GreyImage): string {
  const image = smooth(thumbnail);
  const grey = deflateSync(image.data, { level: 9 }).toString('base64');
  if (!thumbnail.chroma) return `fp1:${image.width}x${image.height}:${grey}`;
  const chroma = smooth({ ...thumbnail, data: thumbnail.chroma }).data;
  return `fp2:${image.width}x${image.height}:${grey}:${deflateSync(chroma, { level: 9 }).toString('base64')}`;
}

/** The smoothed thumbnail (and its chroma, from 'fp2'); null for anything that is not an intact fingerprint. */
export function decodeFingerprint(value: string): GreyImage | null {
  const match = /^fp([12]):(\d+)x(\d+):([A-Za-z0-9+/=]+)(?::([A-Za-z0-9+/=]+))?$/.exec(value);
  if (!match || (match[1] === '2') !== (match[5] !== undefined)) return null;
  const width = Number(match[2]);
  const height = Number(match[3]);
  try {
    const data = new Uint8Array(inflateSync(Buffer.from(match[4]!, 'base64')));
    const chroma = match[5] === undefined ? undefined : new Uint8Array(inflateSync(Buffer.from(match[5], 'base64')));
    const intact = data.length === width * height && width > 0 && height > 0 && (chroma === undefined || chroma.length === data.length);
    return intact ? { width, height, data, ...(chroma ? { chroma } : {}) } : null;
  } catch {
    return null;
  }
}

/**
 * A [1 2 1] x [1 2 1] smoothing, applied before storing: the comparison samples between pixels (a
 * crop or a rescale moves the picture by fractions of a thumbnail pixel), which sharp text edges
 * would otherwise defeat.
 */
export function smooth(image: GreyImage): GreyImage {
  const { width, height, data } = image;
  const across = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      across[i] = (data[i - (x > 0 ? 1 : 0)]! + 2 * data[i]! + data[i + (x < width - 1 ? 1 : 0)]!) / 4;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      out[i] = Math.round((across[i - (y > 0 ? width : 0)]! + 2 * across[i]! + across[i + (y < height - 1 ? width : 0)]!) / 4);
    }
  }
  return { width, height, data: out };
}

/**
 * The smallest scale between the two: a copy cropped by up to 15% from each side keeps 70% of the
 * width, and its thumbnail (always FINGERPRINT_WIDTH wide) shows that 70% enlarged.
 */
export const MIN_SCALE = 0.69;
/** The crop must keep at least this much of the other picture's height (15% off the top and bottom, and a little more). */
export const MIN_HEIGHT_KEPT = 0.66;
/**
 * Alignment found by the layouts' rows and columns must correlate this well, pixel by pixel (after
 * the alignment; a correlation is blind to brightness and contrast), else the two are other screens.
 */
export const MIN_CORRELATION = 0.8;
/**
 * The largest local difference (grey levels: the mean of a 3x3 patch of the differences, once one's
 * tones are mapped onto the other's) a copy may show. Chosen on bench/duplicate-copies.ts's tuning
 * part (ADR 074): its copies reach 29.6, its distinct screenshots start at 77; the unit test's drawn
 * profile with one more follower shows 36.5, one clock digit changed 23 (taken for a copy).
 */
export const PATCH_LIMIT = 32;

export type FingerprintComparison = {
  /** Where the cropped one lies on the other: its top-left corner (thumbnail pixels of the other) and its scale there. */
  offset: number;
  dx: number;
  scale: number;
  /** Pixel correlation over the overlap at that alignment. */
  correlation: number;
  /** Mean absolute difference over the overlap, after the tone mapping. */
  mean: number;
  /** The largest 3x3 patch mean of the differences (or the first found past `stopPast`). */
  worst: number;
  /** The same capture, re-saved, re-toned, cropped or rescaled. */
  sameCapture: boolean;
};

/** Per row, the mean horizontal gradient (text lines, rules); per column over rows [from, to), the mean vertical one. */
function rowProfile(image: GreyImage): Float32Array {
  const { width, height, data } = image;
  const out = new Float32Array(height);
  for (let y = 0; y < height; y++) {
    let sum = 0;
    const r = y * width;
    for (let x = 1; x < width; x++) sum += Math.abs(data[r + x]! - data[r + x - 1]!);
    out[y] = sum / (width - 1);
  }
  return out;
}
function columnProfile(image: GreyImage, from: number, to: number): Float32Array {
  const { width, height, data } = image;
  const out = new Float32Array(width);
  const a = Math.max(1, Math.floor(from));
  const b = Math.min(height, Math.ceil(to));
  for (let y = a; y < b; y++) {
    const r = y * width;
    for (let x = 0; x < width; x++) out[x]! += Math.abs(data[r + x]! - data[r - width + x]!);
  }
  return out;
}
function downsample(profile: Float32Array, by: number): Float32Array {
  const out = new Float32Array(Math.floor(profile.length / by));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let k = 0; k < by; k++) sum += profile[i * by + k]!;
    out[i] = sum / by;
  }
  return out;
}
function at(profile: Float32Array, p: number): number {
  const i = Math.floor(p);
  const f = p - i;
  return profile[i]! * (1 - f) + profile[Math.min(profile.length - 1, i + 1)]! * f;
}
/**
 * Correlation of `short[v]` with `long[offset + scale * v]` over the v that land inside `long`;
 * -1 when fewer than `minInside` of them do.
 */
function correlate1d(long: Float32Array, short: Float32Array, offset: number, scale: number, minInside: number): number {
  let n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  const last = long.length - 1;
  for (let v = 0; v < short.length; v++) {
    const p = offset + scale * v;
    if (p < 0 || p > last) continue;
    const a = at(long, p);
    const b = short[v]!;
    n++; sa += a; sb += b; saa += a * a; sbb += b * b; sab += a * b;
  }
  if (n < minInside || n < 4) return -1;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  return va <= 1e-9 || vb <= 1e-9 ? -1 : (sab - (sa * sb) / n) / Math.sqrt(va * vb);
}

type Alignment = { scale: number; dx: number; dy: number };

/** Bilinear sample of `image` at (x, y), which must lie inside it. */
function sample(image: GreyImage, x: number, y: number): number {
  const { width, height, data } = image;
  const x0 = Math.min(width - 2, Math.floor(x));
  const y0 = Math.min(height - 2, Math.floor(y));
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * width + x0;
  const top = data[i]! + (data[i + 1]! - data[i]!) * fx;
  const bottom = data[i + width]! + (data[i + width + 1]! - data[i + width]!) * fx;
  return top + (bottom - top) * fy;
}

/** Pixel correlation of `short` with `long` at `a`, on every `step`-th pixel of `short` (its `EDGE` border aside). */
function correlate2d(long: GreyImage, short: GreyImage, a: Alignment, step: number): number {
  let n = 0, sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  const maxX = long.width - 1;
  const maxY = long.height - 1;
  for (let v = EDGE; v < short.height - EDGE; v += step) {
    const y = a.dy + a.scale * v;
    if (y < 0 || y > maxY) continue;
    for (let u = EDGE; u < short.width - EDGE; u += step) {
      const x = a.dx + a.scale * u;
      if (x < 0 || x > maxX) continue;
      const p = sample(long, x, y);
      const q = short.data[v * short.width + u]!;
      n++; sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q;
    }
  }
  if (n < 16) return -1;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  if (va <= 1e-9 && vb <= 1e-9) return 1; // two blank pictures
  return va <= 1e-9 || vb <= 1e-9 ? -1 : (sab - (sa * sb) / n) / Math.sqrt(va * vb);
}
const EDGE = 2;

/**
 * Where `short` (a crop of `long`, rescaled to the same thumbnail width) lies on `long`: the scale
 * and the vertical offset from the row profiles (text lines), the horizontal offset from the
 * column profiles of the rows they share: up to three candidates, none when no alignment keeps
 * enough of `long`.
 */
function align(long: GreyImage, short: GreyImage): Alignment[] {
  if (long.width < 8 || short.width < 8 || long.height < 8 || short.height < 8) return [];
  const widthRatio = long.width / short.width; // 1 for two fingerprints of this version
  const rowsLong = rowProfile(long);
  const rowsShort = rowProfile(short);
  const coarseLong = downsample(rowsLong, 4);
  const coarseShort = downsample(rowsShort, 4);
  // The crop lies within the other, but for a thumbnail cut at FINGERPRINT_MAX_HEIGHT rows (the
  // top of a long picture): then most of it.
  const inside = long.height >= FINGERPRINT_MAX_HEIGHT || short.height >= FINGERPRINT_MAX_HEIGHT ? 0.6 : 0.97;
  // Scales and vertical offsets on the coarse row profiles; the best few kept apart.
  const found: { scale: number; dy: number; score: number }[] = [];
  for (let scale = MIN_SCALE * widthRatio; scale <= 1.015 * widthRatio; scale += 0.01) {
    // (A thumbnail cut at FINGERPRINT_MAX_HEIGHT rows shows only the top of its picture.)
    if (short.height < FINGERPRINT_MAX_HEIGHT && scale * short.height < MIN_HEIGHT_KEPT * long.height) continue;
    for (let dy = -2; dy <= coarseLong.length - MIN_HEIGHT_KEPT * coarseLong.length + 2 || dy <= 2; dy += 1) {
      const score = correlate1d(coarseLong, coarseShort, dy, scale, inside * coarseShort.length - 1);
      if (score > 0.3) found.push({ scale, dy: dy * 4 + 1.5 * (1 - scale), score });
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: typeof found = [];
  for (const f of found) {
    if (kept.length >= 3) break;
    if (kept.every((k) => Math.abs(k.scale - f.scale) > 0.03 || Math.abs(k.dy - f.dy) > 8)) kept.push(f);
  }
  const candidates: Alignment[] = [];
  for (const k of kept) {
    // Rows in full, then columns.
    let { scale, dy } = k;
    let score = -2;
    for (let s = k.scale - 0.012; s <= k.scale + 0.012; s += 0.003) {
      for (let d = k.dy - 6; d <= k.dy + 6; d += 1) {
        const c = correlate1d(rowsLong, rowsShort, d, s, inside * rowsShort.length - 2);
        if (c > score) [scale, dy, score] = [s, d, c];
      }
    }
    const colsLong = columnProfile(long, dy, dy + scale * short.height);
    const colsShort = columnProfile(short, Math.max(0, -dy / scale), (long.height - dy) / scale);
    let dx = 0;
    let columnScore = -2;
    for (let d = -2; d <= long.width - scale * short.width + 2; d += 0.5) {
      const c = correlate1d(colsLong, colsShort, d, scale, 0.9 * short.width);
      if (c > columnScore) [dx, columnScore] = [d, c];
    }
    candidates.push({ scale, dx, dy });
  }
  return candidates;
}

/** The candidate alignment whose pixels correlate best (on a sample), refined in ever smaller steps unless hopeless. */
function refine(long: GreyImage, short: GreyImage, start: Alignment, startCorrelation: number): { alignment: Alignment; correlation: number } {
  let alignment = start;
  let correlation = startCorrelation;
  if (correlation < HOPELESS) return { alignment, correlation };
  for (const [step, scaleStep] of [[1, 0.004], [0.5, 0.002], [0.25, 0.001], [0.125, 0.0005]] as const) {
    for (let round = 0; round < 4; round++) {
      let moved = false;
      for (const change of [{ dx: step }, { dx: -step }, { dy: step }, { dy: -step }, { scale: scaleStep }, { scale: -scaleStep }] as Partial<Alignment>[]) {
        const next = { scale: alignment.scale + (change.scale ?? 0), dx: alignment.dx + (change.dx ?? 0), dy: alignment.dy + (change.dy ?? 0) };
        const c = correlate2d(long, short, next, 2);
        if (c > correlation) [alignment, correlation, moved] = [next, c, true];
      }
      if (!moved) break;
    }
  }
  return { alignment, correlation: correlate2d(long, short, alignment, 1) };
}
/** Below this correlation on the sample, the best candidate is another screen: not refined. */
const HOPELESS = 0.75;

/**
 * The differences between `short` and `long` at `a` once the tones are matched. Unless the two lie
 * pixel on pixel, both are blurred once more; when `short` is enlarged against `long` (a crop from
 * the sides: scale under 0.95), `short` twice (its edges are sharper than its original's). Tones are matched per tile (TILE pixels
 * square: an edit of lightness moves a colour's grey otherwise than a grey's): a non-decreasing map
 * of one's grey levels onto the other's, fitted there; `long` onto `short` or the other way round
 * (a brightened copy loses its light greys to white), of the two the better. Where either picture
 * is colourful (chroma), part of the difference is forgiven. Returns the mean difference and the
 * largest 3x3 patch mean of the differences.
 */
function residual(long: GreyImage, short: GreyImage, a: Alignment, stopPast: number): { mean: number; worst: number } {
  const w = short.width;
  const h = short.height;
  const longAt = new Float32Array(w * h).fill(-1);
  const maxX = long.width - 1;
  const maxY = long.height - 1;
  // Sampling between pixels blurs `long` a little (and a crop's enlargement sharpens `short`): unless
  // the two lie pixel on pixel, both are blurred once more, an enlarged `short` twice.
  const whole = (x: number) => Math.abs(x - Math.round(x)) < 0.1;
  const onPixels = Math.abs(a.scale - 1) < 0.002 && whole(a.dx) && whole(a.dy);
  const enlarged = a.scale < 0.95;
  const blurred = onPixels ? long : smooth(long);
  for (let v = EDGE; v < h - EDGE; v++) {
    const y = a.dy + a.scale * v;
    if (y < 0.5 || y > maxY - 0.5) continue;
    for (let u = EDGE; u < w - EDGE; u++) {
      const x = a.dx + a.scale * u;
      if (x < 0.5 || x > maxX - 0.5) continue;
      longAt[v * w + u] = sample(blurred, x, y);
    }
  }
  const shortAt = Float32Array.from((enlarged ? smooth(smooth(short)) : onPixels ? short : smooth(short)).data);
  // Where either shows colour, a lightness edit moves the grey level more: that much is forgiven.
  const allowance = new Float32Array(w * h);
  const longChroma = long.chroma ? { ...long, data: long.chroma } : null;
  for (let v = 0; v < h; v++) {
    for (let u = 0; u < w; u++) {
      const i = v * w + u;
      if (longAt[i]! < 0) continue;
      let c = short.chroma ? short.chroma[i]! : 0;
      if (longChroma) c = Math.max(c, sample(longChroma, a.dx + a.scale * u, a.dy + a.scale * v));
      allowance[i] = CHROMA_ALLOWANCE * c;
    }
  }
  const one = differences(longAt, shortAt, w, h, stopPast, longAt, allowance);
  const other = differences(shortAt, longAt, w, h, stopPast, longAt, allowance);
  return one.worst <= other.worst ? one : other;
}
const TILE = 16;
/** Of a pixel's chroma (0-255), this much difference is forgiven there (a colour's grey moves unevenly under a lightness edit). */
const CHROMA_ALLOWANCE = 0.5;
const BINS = 32;

/** `to` predicted from `from` by a non-decreasing tone map per tile, where `mask` is not -1; the mean difference and the worst 3x3 patch. */
function differences(from: Float32Array, to: Float32Array, w: number, h: number, stopPast: number, mask: Float32Array, allowance: Float32Array): { mean: number; worst: number } {
  const diff = new Float32Array(w * h).fill(-1);
  const histogram = new Uint32Array(BINS * 256);
  const counts = new Uint32Array(BINS);
  const sums = new Float64Array(BINS);
  const map = new Float32Array(256);
  let sum = 0;
  let n = 0;
  for (let ty = 0; ty < h; ty += TILE) {
    for (let tx = 0; tx < w; tx += TILE) {
      const [x1, y1] = [Math.min(w, tx + TILE), Math.min(h, ty + TILE)];
      histogram.fill(0);
      counts.fill(0);
      sums.fill(0);
      for (let y = ty; y < y1; y++) {
        for (let x = tx; x < x1; x++) {
          const i = y * w + x;
          if (mask[i]! < 0) continue;
          const bin = Math.min(BINS - 1, Math.floor(from[i]! / (256 / BINS)));
          histogram[bin * 256 + Math.max(0, Math.min(255, Math.round(to[i]!)))]!++;
          counts[bin]!++;
          sums[bin]! += from[i]!;
        }
      }
      // Per bin: the mean level of `from`, the median of `to`; then pooled until non-decreasing.
      const blocks: { centre: number; value: number; weight: number; bins: number }[] = [];
      for (let bin = 0; bin < BINS; bin++) {
        const count = counts[bin]!;
        if (count === 0) continue;
        let seen = 0;
        let level = 0;
        while (level < 255 && (seen += histogram[bin * 256 + level]!) * 2 < count) level++;
        blocks.push({ centre: sums[bin]! / count, value: level, weight: count, bins: 1 });
      }
      if (blocks.length === 0) continue;
      const centres = blocks.map((b) => b.centre);
      const pooled: { value: number; weight: number; bins: number }[] = [];
      for (const b of blocks) {
        pooled.push({ value: b.value, weight: b.weight, bins: 1 });
        while (pooled.length > 1 && pooled[pooled.length - 2]!.value > pooled[pooled.length - 1]!.value) {
          const last = pooled.pop()!;
          const prev = pooled[pooled.length - 1]!;
          prev.value = (prev.value * prev.weight + last.value * last.weight) / (prev.weight + last.weight);
          prev.weight += last.weight;
          prev.bins += last.bins;
        }
      }
      const values: number[] = [];
      for (const p of pooled) for (let k = 0; k < p.bins; k++) values.push(p.value);
      // The map at every level, interpolated between the bins' centres, flat beyond them.
      for (let level = 0, k = 0; level < 256; level++) {
        while (k < centres.length - 1 && centres[k + 1]! < level) k++;
        if (level <= centres[0]!) map[level] = values[0]!;
        else if (k >= centres.length - 1) map[level] = values[values.length - 1]!;
        else map[level] = values[k]! + ((values[k + 1]! - values[k]!) * (level - centres[k]!)) / (centres[k + 1]! - centres[k]!);
      }
      const predict = (f: number) => {
        const l = Math.min(254, Math.floor(f));
        return map[l]! + (map[l + 1]! - map[l]!) * (f - l);
      };
      for (let y = ty; y < y1; y++) {
        for (let x = tx; x < x1; x++) {
          const i = y * w + x;
          if (mask[i]! < 0) continue;
          diff[i] = Math.max(0, Math.abs(to[i]! - predict(from[i]!)) - allowance[i]!);
          sum += diff[i]!;
          n++;
        }
      }
    }
  }
  let worst = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      let patch = 0;
      let count = 0;
      for (let j = -1; j <= 1; j++) {
        for (let i = -1; i <= 1; i++) {
          const d = diff[(y + j) * w + x + i]!;
          if (d >= 0) [patch, count] = [patch + d, count + 1];
        }
      }
      if (count === 9 && patch / 9 > worst) worst = patch / 9;
    }
    if (worst > stopPast) break;
  }
  return { mean: n > 0 ? sum / n : 255, worst: n > 0 ? worst : 255 };
}

/**
 * Compares two fingerprints (`decodeFingerprint`'s images): either may be a copy of the other
 * cropped (up to about 15% off any side, the status bar, a navigation bar), rescaled,
 * recompressed, brighter or darker, with more or less contrast. Null when no alignment keeps
 * enough of either; else the best alignment and how much the two differ there.
 */
export function compareFingerprints(
  first: GreyImage,
  second: GreyImage,
  /** Stop scanning once a patch differs by more than this (the bench passes Infinity to measure). */
  stopPast = PATCH_LIMIT,
): FingerprintComparison | null {
  if (first.width !== second.width) return null;
  // Either may be the crop of the other: every candidate of both ways, scored on a sample of pixels.
  let best: { long: GreyImage; short: GreyImage; alignment: Alignment; correlation: number } | null = null;
  for (const [long, short] of [[first, second], [second, first]] as const) {
    for (const alignment of align(long, short)) {
      const correlation = correlate2d(long, short, alignment, 4);
      if (!best || correlation > best.correlation) best = { long, short, alignment, correlation };
    }
  }
  if (!best) return null;
  const { long, short } = best;
  const { alignment, correlation } = refine(long, short, best.alignment, best.correlation);
  const comparison = { offset: alignment.dy, dx: alignment.dx, scale: alignment.scale, correlation, mean: 255, worst: 255, sameCapture: false };
  if (correlation < MIN_CORRELATION) return comparison;
  const { mean, worst } = residual(long, short, alignment, stopPast);
  return { ...comparison, mean, worst, sameCapture: worst <= PATCH_LIMIT };
}

/** Whether `candidate` (a stored fingerprint, 'fp1' or 'fp2') is the same capture as `upload`'s. */
export function isSameCapture(upload: string, candidate: string): boolean {
  return isCopyOfAny(upload, [candidate]);
}

/** Whether `upload` is the same capture as any of `stored` (the upload decoded once; unreadable ones skipped). */
export function isCopyOfAny(upload: string, stored: Iterable<string>): boolean {
  const a = decodeFingerprint(upload);
  if (!a) return false;
  for (const candidate of stored) {
    const b = decodeFingerprint(candidate);
    if (b && compareFingerprints(a, b)?.sameCapture) return true;
  }
  return false;
}
