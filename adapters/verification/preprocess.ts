/**
 * Decoding a screenshot once, with sharp: its pixel hash, its fingerprint, the greyscale image
 * given to OCR and a small RGB copy for counting stars.
 *
 * Image hash: sha256 of the decoded pixels (EXIF orientation applied, alpha flattened onto white,
 * 8-bit sRGB), prefixed with the size, not of the uploaded bytes. Re-saving the same screenshot
 * (another PNG encoder, metadata stripped or added, a lossless format change, the upload pipeline
 * re-encoding it) leaves the pixels and so the hash unchanged; a byte hash would be defeated by
 * any of those. A lossy copy (JPEG re-save, crop, resize) changes pixels: exact hashing cannot
 * catch it without also flagging different screenshots of look-alike screens (a perceptual hash
 * over a few dozen bits collides on white review cards), so that case is left to the picture's
 * fingerprint (a 192-px greyscale thumbnail compared pixel by pixel after alignment, ADR 067) and,
 * for reviews, to the review-text check, which reads the same words off the copy.
 *
 * The steps it calls live beside it (issue 28): `pixels.ts` (types, OCR sizes, contrast, the page's
 * colour), `screen-finder.ts` (a photographed phone's screen), and the closer reading's images
 * (`closer-reading.ts`, from `text-masks.ts` and `ink-rows.ts`).
 */
import { createHash } from 'node:crypto';
import sharp, { type OutputInfo } from 'sharp';
import { encodeFingerprint, FINGERPRINT_MAX_HEIGHT, FINGERPRINT_WIDTH, type OpenedScreenshot, type ScreenshotReading } from '../../modules/verification/server.ts';
import { closerImages, type CloserImages } from './closer-reading.ts';
import { dominantColour, MAX_INPUT_PIXELS, MAX_OCR_HEIGHT, MAX_OCR_WIDTH, MIN_OCR_WIDTH, MIN_READABLE_WIDTH, stretchContrast, type Rgb } from './pixels.ts';
import { screenRegion } from './screen-finder.ts';

const STAR_WIDTH = 540;
/** What phones save screenshots as (and what the upload pipeline re-encodes to). */
const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp']);

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
  /** The decoded pixels (8-bit RGB, original size) and the factor from OCR coordinates to them. */
  rgb: Rgb;
  ocrToRgb: number;
  /**
   * The page's commonest colour: of the screen, in a photo of a phone (not the desk around it, which
   * would make a light grey 'Following' button look filled against a dark desk).
   */
  background: { r: number; g: number; b: number };
  /** Makes the images of the closer reading (see `closerImages`). */
  closer: CloserImages;
};

/**
 * The picture's fingerprint (modules/verification/fingerprint.ts, ADR 067): greyscale, scaled to
 * FINGERPRINT_WIDTH pixels wide keeping its proportions; of a very long picture, only the top.
 */
export async function imageFingerprint(rgb: Rgb): Promise<string> {
  // Whole thumbnail rows only, so that every copy is scaled by exactly FINGERPRINT_WIDTH / width
  // both ways (a copy downscaled to another width lines up with the original row for row).
  const height = Math.max(1, Math.min(FINGERPRINT_MAX_HEIGHT, Math.floor((rgb.height * FINGERPRINT_WIDTH) / rgb.width)));
  const rows = Math.min(rgb.height, Math.max(1, Math.round((height * rgb.width) / FINGERPRINT_WIDTH)));
  let pipeline = sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } });
  if (rows < rgb.height) pipeline = sharp(await pipeline.extract({ left: 0, top: 0, width: rgb.width, height: rows }).raw().toBuffer(), { raw: { width: rgb.width, height: rows, channels: 3 } });
  const data = await pipeline.clone().greyscale().resize(FINGERPRINT_WIDTH, height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
  // How colourful each thumbnail pixel is (ADR 074): the largest channel less the smallest.
  const colour = await pipeline.resize(FINGERPRINT_WIDTH, height, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
  const chroma = new Uint8Array(FINGERPRINT_WIDTH * height);
  for (let i = 0; i < chroma.length; i++) {
    const [r, g, b] = [colour[3 * i]!, colour[3 * i + 1]!, colour[3 * i + 2]!];
    chroma[i] = Math.max(r, g, b) - Math.min(r, g, b);
  }
  return encodeFingerprint({ width: FINGERPRINT_WIDTH, height, data: new Uint8Array(data.buffer, data.byteOffset, data.length), chroma });
}

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

  const byWidth = width < MIN_OCR_WIDTH ? Math.min(2.5, MIN_OCR_WIDTH / width) : width > MAX_OCR_WIDTH ? MAX_OCR_WIDTH / width : 1;
  const scale = Math.min(byWidth, MAX_OCR_HEIGHT / height);
  const ocrWidth = Math.max(1, Math.round(width * scale));
  const ocrHeight = Math.max(1, Math.round(height * scale));
  const grey = await sharp(raw.data, rawInput).greyscale().raw().toBuffer();
  const { flat } = stretchContrast(grey);
  let ocr = sharp(grey, { raw: { width, height, channels: 1 } });
  if (scale !== 1) ocr = ocr.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
  const starWidth = Math.min(STAR_WIDTH, width);
  const starHeight = Math.max(1, Math.round((height * starWidth) / width));
  const [ocrGrey, stars] = await Promise.all([
    ocr.toColourspace('b-w').raw().toBuffer(),
    sharp(raw.data, rawInput).resize(starWidth, starHeight, { fit: 'fill' }).raw().toBuffer(),
  ]);
  const ocrRaw = { raw: { width: ocrWidth, height: ocrHeight, channels: 1 as const } };
  const png = (pixels: Buffer) => sharp(pixels, ocrRaw).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  const ocrImage = await png(ocrGrey);
  const rgb = { data: raw.data, width, height };
  const small = { data: stars, width: starWidth, height: starHeight };
  // A photographed phone: the page is the screen's colour, not the desk's.
  const region = screenRegion(small);
  const kx = width / starWidth;
  const ky = height / starHeight;
  const page = region ? { x0: region.x0 * kx, y0: region.y0 * ky, x1: region.x1 * kx, y1: region.y1 * ky } : { x0: 0, y0: 0, x1: width, y1: height };
  return {
    imageHash,
    ocrImage,
    ocrWidth,
    ocrHeight,
    stars: { data: stars, width: starWidth, height: starHeight },
    starToOcr: ocrHeight / starHeight,
    flat,
    rgb,
    ocrToRgb: width / ocrWidth,
    background: dominantColour(rgb, page, 7),
    closer: closerImages({ raw, rgb, small, region, scale, ocrGrey, ocrWidth, ocrHeight }),
  };
}

/**
 * What every adapter does first with an upload: decode it (its image hash), or, when it is not an
 * image, hash its bytes and offer nothing to read; a blank (flat) picture, or a thumbnail, reads as no text. `read`
 * is the adapter's own reading of a decoded, non-blank screenshot.
 */
export async function openScreenshot(image: Buffer, read: (decoded: DecodedScreenshot) => Promise<ScreenshotReading>): Promise<OpenedScreenshot> {
  const decoded = Buffer.isBuffer(image) && image.length > 0 ? await decodeScreenshot(image) : null;
  if (!decoded) return { imageHash: bytesHash(Buffer.isBuffer(image) ? image : Buffer.alloc(0)), read: null };
  return {
    imageHash: decoded.imageHash,
    imageFingerprint: await imageFingerprint(decoded.rgb),
    read: async () => (decoded.flat || decoded.rgb.width < MIN_READABLE_WIDTH ? { kind: 'read', ocr: { lines: [], width: decoded.ocrWidth, height: decoded.ocrHeight }, starRows: [] } : read(decoded)),
  };
}
