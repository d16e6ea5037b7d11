import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import phash from 'sharp-phash';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from './limits.ts';

export { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES };

/**
 * Screenshot uploads: trust nothing the browser says (name, extension, Content-Type).
 * The bytes decide: magic bytes for the type, the image header for the size in pixels
 * (read before any pixel is decoded), then sharp decodes and re-encodes, which drops
 * every piece of metadata (EXIF with GPS, XMP, IPTC, comments) and anything smuggled
 * after the image data. What leaves here is a fresh WebP we made ourselves.
 */

/** 40 megapixels: above any phone screenshot (an iPhone Pro Max is 1290x2796 = 3.6 MP), far below a decompression bomb. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** The longest side of the stored image. Enough for OCR of a review and for showing it back. */
export const MAX_OUTPUT_SIDE = 1600;
export const WEBP_QUALITY = 82;

export type OutputFormat = 'webp' | 'jpeg' | 'png';
export type ImageContentType = 'image/webp' | 'image/jpeg' | 'image/png';

export type ProcessedImage = {
  data: Buffer;
  contentType: ImageContentType;
  width: number;
  height: number;
  /** Hex SHA-256 of `data`, the bytes we store. */
  sha256: string;
};

export type ImageUploadErrorCode = 'empty' | 'too_large' | 'unsupported_type' | 'too_many_pixels' | 'unreadable';

export type ImageUploadError = { ok: false; status: 400 | 413 | 415; code: ImageUploadErrorCode; message: string };

export type ImageUploadResult = { ok: true; image: ProcessedImage } | ImageUploadError;

export type ImageUploadOptions = {
  maxBytes?: number;
  maxPixels?: number;
  maxSide?: number;
  /** WebP by default; JPEG for a consumer that cannot read WebP; PNG for a logo (transparency, every email client). */
  format?: OutputFormat;
  quality?: number;
};


function tooManyPixelsMessage(maxPixels: number): string {
  return `This image is too large to process (more than ${Math.floor(maxPixels / 1_000_000)} megapixels). Please upload a smaller screenshot.`;
}

/** What file-type reports for the formats we take, and the decoder sharp must agree with. */
const ACCEPTED: Record<string, 'png' | 'jpeg' | 'webp'> = {
  'image/png': 'png',
  'image/apng': 'png', // an animated PNG is a PNG; sharp reads its default image only
  'image/jpeg': 'jpeg',
  'image/webp': 'webp', // an animated WebP: sharp reads its first frame only
};

function refuse(status: 400 | 413 | 415, code: ImageUploadErrorCode, message: string): ImageUploadError {
  return { ok: false, status, code, message };
}

/**
 * Checks and re-encodes one uploaded image. Refusals come back as values with an HTTP status
 * and a message for the customer; nothing here throws for bad input.
 */
export async function processImageUpload(bytes: Uint8Array, options: ImageUploadOptions = {}): Promise<ImageUploadResult> {
  const maxBytes = options.maxBytes ?? MAX_UPLOAD_BYTES;
  const maxPixels = options.maxPixels ?? MAX_INPUT_PIXELS;
  const maxSide = options.maxSide ?? MAX_OUTPUT_SIDE;
  const format = options.format ?? 'webp';
  const quality = options.quality ?? WEBP_QUALITY;

  if (bytes.byteLength === 0) return refuse(400, 'empty', UPLOAD_MESSAGES.empty);
  if (bytes.byteLength > maxBytes) return refuse(413, 'too_large', UPLOAD_MESSAGES.tooLarge);

  const sniffed = await fileTypeFromBuffer(bytes);
  const expected = sniffed ? ACCEPTED[sniffed.mime] : undefined;
  if (!expected) return refuse(415, 'unsupported_type', UPLOAD_MESSAGES.unsupportedType);

  configureSharp();
  return withSlot(async () => {
    // Header only: no pixel is decoded here, so a bomb costs nothing to measure.
    let header: Metadata;
    try {
      header = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      return refuse(400, 'unreadable', UPLOAD_MESSAGES.unreadable);
    }
    // Both must agree on the format: a polyglot that sniffs as one thing and decodes as another is refused.
    if (header.format !== expected) return refuse(415, 'unsupported_type', UPLOAD_MESSAGES.unsupportedType);
    if (!(header.width > 0 && header.height > 0)) return refuse(400, 'unreadable', UPLOAD_MESSAGES.unreadable);
    if (header.width * header.height > maxPixels) return refuse(400, 'too_many_pixels', tooManyPixelsMessage(maxPixels));

    try {
      const pipeline = sharp(bytes, {
        limitInputPixels: maxPixels, // again, in the decoder itself
        failOn: 'error', // truncated or corrupt pixel data is refused; mere warnings (common in phone JPEGs) are not
        pages: 1,
      })
        .timeout({ seconds: 30 })
        .rotate() // apply the EXIF orientation, then forget it
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
      // No keepMetadata/withMetadata: sharp converts to sRGB and writes no EXIF, XMP, IPTC or ICC.
      const encoded =
        format === 'webp'
          ? pipeline.webp({ quality })
          : format === 'png'
            ? pipeline.png({ compressionLevel: 9, palette: true })
            : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality, chromaSubsampling: '4:4:4' });
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      return {
        ok: true,
        image: {
          data,
          contentType: format === 'webp' ? 'image/webp' : format === 'png' ? 'image/png' : 'image/jpeg',
          width: info.width,
          height: info.height,
          sha256: createHash('sha256').update(data).digest('hex'),
        },
      };
    } catch {
      return refuse(400, 'unreadable', UPLOAD_MESSAGES.unreadable);
    }
  });
}

// --- Resource limits for a small (2-core) server ---------------------------------------------

let sharpConfigured = false;

/**
 * One libvips thread per image and no operation cache: uploads are rare, one-off images, and
 * the cache would only hold memory. Set on first use, process-wide (sharp's settings are global).
 */
function configureSharp(): void {
  if (sharpConfigured) return;
  sharp.concurrency(1);
  sharp.cache(false);
  sharpConfigured = true;
}

/** At most this many images decode at once (one per core); the rest wait their turn. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_PARALLEL) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the slot is handed over, count unchanged
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/**
 * The image's 64-bit perceptual hash (a DCT pHash from `sharp-phash`, ADR 050) as 16 hex digits:
 * re-saved, re-encoded, resized or brightened copies land within a bit or two of each other.
 */
export async function perceptualHash(image: Buffer): Promise<string> {
  const bits = await phash(image, { limitInputPixels: MAX_INPUT_PIXELS });
  return BigInt(`0b${bits}`).toString(16).padStart(16, '0');
}
