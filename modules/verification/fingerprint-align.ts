/**
 * Where one fingerprint lies on the other (ADR 067): candidate alignments (scale and vertical offset
 * from the rows' text lines, horizontal offset from the columns), scored by the pixels' correlation
 * and refined. Split from fingerprint.ts (issue 28 item 4).
 */
import { FINGERPRINT_MAX_HEIGHT, type GreyImage, MIN_HEIGHT_KEPT, MIN_SCALE } from './fingerprint-image.ts';

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

export type Alignment = { scale: number; dx: number; dy: number };

/** Bilinear sample of `image` at (x, y), which must lie inside it. */
export function sample(image: GreyImage, x: number, y: number): number {
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
export function correlate2d(long: GreyImage, short: GreyImage, a: Alignment, step: number): number {
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
export const EDGE = 2;

/**
 * Where `short` (a crop of `long`, rescaled to the same thumbnail width) lies on `long`: the scale
 * and the vertical offset from the row profiles (text lines), the horizontal offset from the
 * column profiles of the rows they share: up to three candidates, none when no alignment keeps
 * enough of `long`.
 */
export function align(long: GreyImage, short: GreyImage): Alignment[] {
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
export function refine(long: GreyImage, short: GreyImage, start: Alignment, startCorrelation: number): { alignment: Alignment; correlation: number } {
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
