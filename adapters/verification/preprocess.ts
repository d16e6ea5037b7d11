/**
 * Decoding a screenshot once, with sharp: its pixel hash, the greyscale image given to OCR and a
 * small RGB copy for counting stars.
 *
 * Image hash: sha256 of the decoded pixels (EXIF orientation applied, alpha flattened onto white,
 * 8-bit sRGB), prefixed with the size, not of the uploaded bytes. Re-saving the same screenshot
 * (another PNG encoder, metadata stripped or added, a lossless format change, the upload pipeline
 * re-encoding it) leaves the pixels and so the hash unchanged; a byte hash would be defeated by
 * any of those. A lossy copy (JPEG re-save, crop, resize) changes pixels: exact hashing cannot
 * catch it without also flagging different screenshots of look-alike screens (a perceptual hash
 * over a few dozen bits collides on white review cards), so that case is left to the review-text
 * check, which reads the same words off the copy.
 */
import { createHash } from 'node:crypto';
import sharp, { type OutputInfo } from 'sharp';

/** Larger images are refused before decoding (a phone screenshot is 2-5 Mpx). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** OCR input is at most this many pixels on its longest side... */
export const MAX_OCR_SIDE = 2000;
/** ...and images narrower than this are enlarged (up to 2x) so small text reaches OCR's best size. */
export const MIN_OCR_WIDTH = 900;
const STAR_WIDTH = 540;
/** What phones save screenshots as (and what the upload pipeline re-encodes to). */
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

export type Rgb = { data: Uint8Array; width: number; height: number };

export type DecodedScreenshot = {
  imageHash: string;
  /** Lossless greyscale PNG for OCR, dark text on a light background. */
  ocrImage: Buffer;
  ocrWidth: number;
  ocrHeight: number;
  /** A copy about 540 px wide for the star counter, and its scale to OCR coordinates. */
  stars: Rgb;
  starToOcr: number;
  /** Nearly one colour all over (a blank or a solid fill): nothing for OCR to read. */
  flat: boolean;
};

export function bytesHash(image: Buffer): string {
  return `sha256:${createHash('sha256').update(image).digest('hex')}`;
}

/** Null when the bytes are not an image sharp can decode (or one too large to try). */
export async function decodeScreenshot(image: Buffer): Promise<DecodedScreenshot | null> {
  let raw: { data: Buffer; info: OutputInfo };
  try {
    // Screenshots only: sharp would also render SVG (text drawn by anyone) or read TIFF, GIF...
    const { format } = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!ACCEPTED_FORMATS.has(format ?? '')) return null;
    raw = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .autoOrient()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch {
    return null;
  }
  const { width, height, channels } = raw.info;
  if (channels !== 3 || width < 16 || height < 16) return null;
  const imageHash = `sha256:${createHash('sha256').update(`${width}x${height}:`).update(raw.data).digest('hex')}`;
  const rawInput = { raw: { width, height, channels: 3 as const } };

  const longest = Math.max(width, height);
  const scale = Math.min(width < MIN_OCR_WIDTH ? Math.min(2, MIN_OCR_WIDTH / width) : 1, MAX_OCR_SIDE / longest);
  const ocrWidth = Math.max(1, Math.round(width * scale));
  const ocrHeight = Math.max(1, Math.round(height * scale));
  const grey = await sharp(raw.data, rawInput).greyscale().raw().toBuffer();
  const { flat } = stretchContrast(grey);
  let ocr = sharp(grey, { raw: { width, height, channels: 1 } });
  if (scale !== 1) ocr = ocr.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
  const starWidth = Math.min(STAR_WIDTH, width);
  const starHeight = Math.max(1, Math.round((height * starWidth) / width));
  const [ocrImage, stars] = await Promise.all([
    ocr.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer(),
    sharp(raw.data, rawInput).resize(starWidth, starHeight, { fit: 'fill' }).raw().toBuffer(),
  ]);
  return {
    imageHash,
    ocrImage,
    ocrWidth,
    ocrHeight,
    stars: { data: stars, width: starWidth, height: starHeight },
    starToOcr: ocrHeight / starHeight,
    flat,
  };
}

/**
 * In place: stretches the grey levels so the 1st and 99th percentiles become black and white
 * (sharp's normalise() does the same but took ~140 ms on a phone screenshot), and inverts a
 * mostly dark screen (dark mode): OCR prefers dark text on a light background.
 */
export function stretchContrast(grey: Uint8Array): { flat: boolean; dark: boolean } {
  const histogram = new Uint32Array(256);
  let sum = 0;
  for (let i = 0; i < grey.length; i++) {
    histogram[grey[i]!]!++;
    sum += grey[i]!;
  }
  const dark = sum / Math.max(1, grey.length) < 110;
  const percentile = (fraction: number) => {
    const target = grey.length * fraction;
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v]!;
      if (seen > target) return v;
    }
    return 255;
  };
  let lo = percentile(0.01);
  let hi = percentile(0.99);
  const flat = percentile(0.9995) - percentile(0.0005) < 24;
  if (hi - lo < 32) {
    lo = 0;
    hi = 255;
  }
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) {
    const stretched = Math.round(((Math.min(hi, Math.max(lo, v)) - lo) * 255) / (hi - lo));
    lut[v] = dark ? 255 - stretched : stretched;
  }
  for (let i = 0; i < grey.length; i++) grey[i] = lut[grey[i]!]!;
  return { flat, dark };
}
