/**
 * Lossy copies of a rewarded screenshot (ADR 067): a small greyscale thumbnail of the picture,
 * stored with the reward, and a comparison that says whether a new upload is the same capture
 * re-saved (JPEG or WebP recompression, downscaled, the status bar or the navigation bar cropped
 * off) rather than another capture of the same screen.
 *
 * Two customers who follow the same business upload screenshots of the same profile; they differ
 * only in small places (the status bar's clock and battery, the 'Followed by' line, a count). A
 * re-save changes every pixel a little; another capture changes a few places a lot. So the
 * comparison aligns the two thumbnails (same width; one may be a vertical crop of the other, at a
 * sub-pixel offset), and looks at the worst pixel of the overlap: a copy has none that differs by
 * more than compression and resampling noise, another capture has at least one (its clock, at least).
 */
import { deflateSync, inflateSync } from 'node:zlib';

/** An 8-bit greyscale image, row by row. */
export type GreyImage = { width: number; height: number; data: Uint8Array };

/** The thumbnail's width: the picture is scaled to it, keeping its proportions. */
export const FINGERPRINT_WIDTH = 192;
/** Thumbnails no taller than this (a 9:19.5 phone screenshot is 416 rows; of longer ones, the top). */
export const FINGERPRINT_MAX_HEIGHT = 448;
const PREFIX = 'fp1:';

/**
 * The stored form of a thumbnail, smoothed (`smooth`): 'fp1:<width>x<height>:<base64 of the
 * deflated rows>' (9-28 KB for a phone screenshot).
 */
export function encodeFingerprint(thumbnail: GreyImage): string {
  const image = smooth(thumbnail);
  return `${PREFIX}${image.width}x${image.height}:${deflateSync(image.data, { level: 9 }).toString('base64')}`;
}

/** The smoothed thumbnail; null for anything that is not an intact fingerprint of this version. */
export function decodeFingerprint(value: string): GreyImage | null {
  const match = /^fp1:(\d+)x(\d+):([A-Za-z0-9+/=]+)$/.exec(value);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  try {
    const data = new Uint8Array(inflateSync(Buffer.from(match[3]!, 'base64')));
    return data.length === width * height && width > 0 && height > 0 ? { width, height, data } : null;
  } catch {
    return null;
  }
}


/**
 * How far the two may be cropped from each other: the shorter one must cover this much of the
 * taller (a status bar is 3-6% of a phone screenshot, a navigation bar as much again).
 */
export const MIN_OVERLAP = 0.8;
/**
 * The largest difference (grey levels, after smoothing) one thumbnail pixel may show for the two to
 * be the same capture. Measured (ADR 067, bench/duplicate-copies.ts): re-saved, recompressed,
 * downscaled and cropped copies stay at 19 or below; another capture of the same screen differs by
 * 27 or more somewhere (another clock minute 31-93, a follower count one higher 27-60, another
 * 'Followed by' line 33-117).
 */
export const PIXEL_LIMIT = 22;
/**
 * Two pictures whose mean difference at their best alignment exceeds this are other screens
 * altogether (copies stay under 2; other captures of the same screen under 1): the comparison stops there.
 */
export const MEAN_LIMIT = 6;
const EDGE_ROWS = 2;

export type FingerprintComparison = {
  /** The rows of the taller thumbnail the shorter one lies on (its offset, in thumbnail rows). */
  offset: number;
  /** Mean absolute difference over the whole overlap. */
  mean: number;
  /** The largest absolute difference of one pixel of the overlap (or the first past `stopPast`). */
  worst: number;
  /** The same capture, re-saved (worst within PIXEL_LIMIT). */
  sameCapture: boolean;
};

/** Row `y` (fractional) of `image`, linearly interpolated, into `out`. */
function rowAt(image: GreyImage, y: number, out: Float32Array): void {
  const y0 = Math.max(0, Math.min(image.height - 1, Math.floor(y)));
  const y1 = Math.min(image.height - 1, y0 + 1);
  const f = Math.max(0, Math.min(1, y - y0));
  const a = y0 * image.width;
  const b = y1 * image.width;
  for (let x = 0; x < image.width; x++) out[x] = image.data[a + x]! * (1 - f) + image.data[b + x]! * f;
}

/** Mean absolute difference between `short` and `tall` shifted by `offset` rows (every `step`-th row and column). */
function meanDifference(tall: GreyImage, short: GreyImage, offset: number, step = 1): number {
  const row = new Float32Array(tall.width);
  let sum = 0;
  let n = 0;
  for (let y = 0; y < short.height; y += step) {
    rowAt(tall, y + offset, row);
    const s = y * short.width;
    for (let x = 0; x < short.width; x += step) {
      sum += Math.abs(row[x]! - short.data[s + x]!);
      n++;
    }
  }
  return sum / Math.max(1, n);
}

/**
 * A [1 2 1] x [1 2 1] smoothing: the comparison interpolates between rows (a crop moves the picture
 * by a fraction of a thumbnail row), which sharp text edges would otherwise defeat.
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
 * Compares two fingerprints (`decodeFingerprint`'s images, already smoothed): null when they cannot be the same
 * capture at all (other widths, or one is not most of the other), else the best alignment (whole
 * rows, then halves, quarters and eighths of a row) and the largest pixel difference there.
 */
export function compareFingerprints(
  first: GreyImage,
  second: GreyImage,
  /** Stop scanning once a pixel differs by more than this (the bench passes Infinity to measure). */
  stopPast = PIXEL_LIMIT,
): FingerprintComparison | null {
  if (first.width !== second.width) return null;
  const [tallImage, shortImage] = first.height >= second.height ? [first, second] : [second, first];
  if (shortImage.height < MIN_OVERLAP * tallImage.height || shortImage.height < 8) return null;
  const [tall, short] = [tallImage, shortImage];
  // Every whole-row offset on a sample (every 4th row and column), then the row either side
  // of the best in full, then halves, quarters and eighths of a row around the best of those.
  const last = tall.height - short.height;
  let best = 0;
  let bestScore = Infinity;
  for (let offset = 0; offset <= last; offset++) {
    const score = meanDifference(tall, short, offset, 4);
    if (score < bestScore) [best, bestScore] = [offset, score];
  }
  if (bestScore > 2 * MEAN_LIMIT) return { offset: best, mean: bestScore, worst: 255, sameCapture: false };
  let mean = Infinity;
  for (let at = Math.max(0, best - 1); at <= Math.min(last, best + 1); at++) {
    const score = meanDifference(tall, short, at);
    if (score < mean) [best, mean] = [at, score];
  }
  let offset = best;
  // A crop moves the picture by a fraction of a row; a copy of the same height is not moved.
  for (const step of last > 0 ? [0.5, 0.25, 0.125] : []) {
    const around = offset;
    for (const at of [around - step, around + step]) {
      if (at < 0 || at > last) continue;
      const score = meanDifference(tall, short, at);
      if (score < mean) [offset, mean] = [at, score];
    }
  }
  if (mean > MEAN_LIMIT) return { offset, mean, worst: 255, sameCapture: false };
  // The worst pixel, leaving out the shorter one's first and last two rows: where a copy was
  // cropped, resampling saw the edge of the picture there, not what lay beyond it.
  const row = new Float32Array(tall.width);
  let worst = 0;
  for (let y = EDGE_ROWS; y < short.height - EDGE_ROWS; y++) {
    rowAt(tall, y + offset, row);
    const s = y * short.width;
    for (let x = 0; x < short.width; x++) worst = Math.max(worst, Math.abs(row[x]! - short.data[s + x]!));
    if (worst > stopPast) break; // another capture: no need to know by how much
  }
  return { offset, mean, worst, sameCapture: worst <= PIXEL_LIMIT };
}

/** Whether `candidate` (a stored fingerprint) is the same capture as `upload`'s. */
export function isSameCapture(upload: string, candidate: string): boolean {
  const a = decodeFingerprint(upload);
  const b = decodeFingerprint(candidate);
  if (!a || !b) return false;
  return compareFingerprints(a, b)?.sameCapture ?? false;
}
