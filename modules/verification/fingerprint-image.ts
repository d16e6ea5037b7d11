/**
 * The fingerprint itself (ADR 067, 074): the thumbnail's type and sizes, its encoding ('fp1', 'fp2'),
 * its smoothing, and the limits a comparison holds it to. Split from fingerprint.ts (issue 28 item 4),
 * which re-exports it.
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
