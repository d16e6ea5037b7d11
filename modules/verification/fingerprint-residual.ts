/**
 * How much two aligned fingerprints differ (ADR 067, 074): the tones matched per tile by a
 * non-decreasing map, chroma forgiven in part, then the worst 3x3 patch of the differences. Split
 * from fingerprint.ts (issue 28 item 4).
 */
import { type Alignment, EDGE, sample } from './fingerprint-align.ts';
import { type GreyImage, smooth } from './fingerprint-image.ts';

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
export function residual(long: GreyImage, short: GreyImage, a: Alignment, stopPast: number): { mean: number; worst: number } {
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
