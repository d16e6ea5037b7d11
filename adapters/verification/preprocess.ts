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
import type { OpenedScreenshot, ScreenshotReading } from '../../modules/verification/index.ts';

/** Larger images are refused before decoding (a phone screenshot is 2-5 Mpx). */
export const MAX_INPUT_PIXELS = 40_000_000;
/**
 * OCR reads the original upload (not the stored 1600-px copy). Phone screenshots (1080-1290 px wide)
 * are read at full resolution; narrower ones are enlarged (up to 2.5x) to this width so small text
 * reaches OCR's best size; wider ones (tablets, desktops) are brought down to MAX_OCR_WIDTH; and
 * nothing taller than MAX_OCR_HEIGHT is given to OCR.
 */
export const MIN_OCR_WIDTH = 1080;
export const MAX_OCR_WIDTH = 1600;
export const MAX_OCR_HEIGHT = 3600;
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
  /** The decoded pixels (8-bit RGB, original size) and the factor from OCR coordinates to them. */
  rgb: Rgb;
  ocrToRgb: number;
  /** The page's commonest colour. */
  background: { r: number; g: number; b: number };
  /** Makes the images of the closer reading (see `closerImages`). */
  closer: (blank: readonly Box[], lineHeight: number) => Promise<{ grey: Buffer; whiteText: Buffer; rows: InkRow[] }>;
};

type Box = { x0: number; y0: number; x1: number; y1: number };

/**
 * Pixels of white text: near white and nearly colourless. Captions and stickers over a photo or a
 * video, the label of a coloured button, are white; greyscale gives them little contrast with a
 * light picture behind them, this mask gives them all of it (black on white, the rest white; a
 * light page comes out inverted, which OCR reads as well).
 */
export function whiteTextMask(rgb: Rgb): Buffer {
  const mask = Buffer.alloc(rgb.width * rgb.height);
  for (let i = 0, j = 0; i < mask.length; i++, j += 3) {
    const r = rgb.data[j]!;
    const g = rgb.data[j + 1]!;
    const b = rgb.data[j + 2]!;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    mask[i] = max > 238 && max - min < 18 ? 0 : 255;
  }
  return mask;
}

/** A row of ink the first pass read nothing in, cut out for single-line OCR, and where it was. */
export type InkRow = { image: Buffer; left: number; top: number };

/**
 * Rows of dark pixels (text is dark here: dark mode was inverted) no line covers: bands of rows
 * with ink, a text line's height or up to four (a button with its outline), at most `max` of them.
 * Automatic and sparse segmentation both skip a label inside an outlined pill ('Following' on X);
 * read as a single line, it comes out.
 */
export function inkRows(grey: Uint8Array, width: number, height: number, lineHeight: number, max = 8, fromX = 0): Box[] {
  const inked = new Uint8Array(height);
  for (let y = 0; y < height; y++) {
    let dark = 0;
    const row = y * width;
    for (let x = fromX; x < width; x += 2) if (grey[row + x]! < 110) dark++;
    inked[y] = dark >= 3 ? 1 : 0;
  }
  const boxes: Box[] = [];
  let y = 0;
  while (y < height) {
    if (!inked[y]) {
      y++;
      continue;
    }
    let end = y;
    let gapRows = 0;
    for (let k = y + 1; k < height; k++) {
      if (inked[k]) {
        end = k;
        gapRows = 0;
      } else if (++gapRows > 2) break;
    }
    const h = end - y + 1;
    if (h >= 0.5 * lineHeight && h <= 4 * lineHeight) {
      let x0 = width;
      let x1 = 0;
      for (let yy = y; yy <= end; yy++) {
        const row = yy * width;
        for (let x = fromX; x < width; x++) {
          if (grey[row + x]! < 110) {
            if (x < x0) x0 = x;
            if (x > x1) x1 = x;
          }
        }
      }
      if (x1 - x0 >= lineHeight) boxes.push({ x0, y0: y, x1: x1 + 1, y1: end + 1 });
    }
    y = end + 1;
  }
  return boxes.slice(0, max);
}

/** Paints boxes white in a greyscale image, in place (text already read, so the next pass skips it). */
function paintWhite(grey: Buffer, width: number, height: number, boxes: readonly Box[]): void {
  for (const box of boxes) {
    const pad = Math.round((box.y1 - box.y0) * 0.25);
    const x0 = Math.max(0, Math.floor(box.x0) - pad);
    const x1 = Math.min(width, Math.ceil(box.x1) + pad);
    const y0 = Math.max(0, Math.floor(box.y0) - pad);
    const y1 = Math.min(height, Math.ceil(box.y1) + pad);
    for (let y = y0; y < y1; y++) grey.fill(255, y * width + x0, y * width + x1);
  }
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
    background: dominantColour(rgb, { x0: 0, y0: 0, x1: width, y1: height }, 7),
    closer: async (blank, lineHeight) => {
      const grey = Buffer.from(ocrGrey);
      paintWhite(grey, ocrWidth, ocrHeight, blank);
      const pad = Math.round(lineHeight / 3);
      // Whole rows, then the right part alone: a profile's buttons sit right of its picture, which
      // would otherwise join them into one band too tall to be a line.
      const whole = inkRows(grey, ocrWidth, ocrHeight, lineHeight);
      const right = inkRows(grey, ocrWidth, ocrHeight, lineHeight, 8, Math.round(ocrWidth * 0.4)).filter(
        (box) => !whole.some((w) => w.y0 <= box.y0 && w.y1 >= box.y1),
      );
      const rows = await Promise.all(
        [...whole, ...right].slice(0, 10).map(async (box) => {
          const left = Math.max(0, box.x0 - pad);
          const top = Math.max(0, box.y0 - pad);
          const w = Math.min(ocrWidth, box.x1 + pad) - left;
          const h = Math.min(ocrHeight, box.y1 + pad) - top;
          return { image: await sharp(grey, ocrRaw).extract({ left, top, width: w, height: h }).png().toBuffer(), left, top };
        }),
      );
      let mask = sharp(whiteTextMask(rgb), { raw: { width, height, channels: 1 } });
      if (scale !== 1) mask = mask.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
      const white = await mask.toColourspace('b-w').raw().toBuffer();
      paintWhite(white, ocrWidth, ocrHeight, blank);
      return { grey: await png(grey), whiteText: await png(white), rows };
    },
  };
}

/**
 * The commonest colour in a box of the image (colours quantised to 16 levels per channel, then
 * averaged within the winning bin), sampling every `step`-th pixel each way.
 */
export function dominantColour(rgb: Rgb, box: { x0: number; y0: number; x1: number; y1: number }, step = 1): { r: number; g: number; b: number } {
  const x0 = Math.max(0, Math.floor(box.x0));
  const y0 = Math.max(0, Math.floor(box.y0));
  const x1 = Math.min(rgb.width, Math.ceil(box.x1));
  const y1 = Math.min(rgb.height, Math.ceil(box.y1));
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const i = (y * rgb.width + x) * 3;
      const r = rgb.data[i]!;
      const g = rgb.data[i + 1]!;
      const b = rgb.data[i + 2]!;
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      const bin = bins.get(key);
      if (bin) {
        bin.n++;
        bin.r += r;
        bin.g += g;
        bin.b += b;
      } else bins.set(key, { n: 1, r, g, b });
    }
  }
  let best: { n: number; r: number; g: number; b: number } | null = null;
  for (const bin of bins.values()) if (!best || bin.n > best.n) best = bin;
  if (!best) return { r: 255, g: 255, b: 255 };
  return { r: Math.round(best.r / best.n), g: Math.round(best.g / best.n), b: Math.round(best.b / best.n) };
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

/**
 * What every adapter does first with an upload: decode it (its image hash), or, when it is not an
 * image, hash its bytes and offer nothing to read; a blank (flat) picture reads as no text. `read`
 * is the adapter's own reading of a decoded, non-blank screenshot.
 */
export async function openScreenshot(image: Buffer, read: (decoded: DecodedScreenshot) => Promise<ScreenshotReading>): Promise<OpenedScreenshot> {
  const decoded = Buffer.isBuffer(image) && image.length > 0 ? await decodeScreenshot(image) : null;
  if (!decoded) return { imageHash: bytesHash(Buffer.isBuffer(image) ? image : Buffer.alloc(0)), read: null };
  return {
    imageHash: decoded.imageHash,
    read: async () => (decoded.flat ? { kind: 'read', ocr: { lines: [], width: decoded.ocrWidth, height: decoded.ocrHeight }, starRows: [] } : read(decoded)),
  };
}
