/**
 * The decoded picture's pixels and the sizes it is read at: the RGB and box types every step of the
 * preprocessing shares, the OCR sizes, the page's commonest colour, the contrast stretch, and
 * painting boxes white. Split from preprocess.ts (issue 28); no image library here.
 */
/** Larger images are refused before decoding (a phone screenshot is 2-5 Mpx). */
export const MAX_INPUT_PIXELS = 40_000_000;
/**
 * OCR reads the original upload (not the stored 1600-px copy). Phone screenshots (1080-1290 px wide)
 * are read at full resolution; narrower ones are enlarged (up to 2.5x) to this width so small text
 * reaches OCR's best size; wider ones (tablets, desktops) are brought down to MAX_OCR_WIDTH; and
 * nothing taller than MAX_OCR_HEIGHT is given to OCR.
 */
export const MIN_OCR_WIDTH = 1080;
/**
 * Narrower than this, a phone screenshot is a thumbnail or a preview (every phone saves 640 px or
 * more): its text is a few pixels high, so it reads as no text, and the customer is asked for the
 * full screenshot instead of being told it is not a review.
 */
export const MIN_READABLE_WIDTH = 200;
export const MAX_OCR_WIDTH = 1600;
export const MAX_OCR_HEIGHT = 3600;

export type Rgb = { data: Uint8Array; width: number; height: number };

export type Box = { x0: number; y0: number; x1: number; y1: number };

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

/** Paints boxes white in a greyscale image, in place (text already read, so the next pass skips it). */
export function paintWhite(grey: Buffer, width: number, height: number, boxes: readonly Box[]): void {
  for (const box of boxes) {
    const pad = Math.round((box.y1 - box.y0) * 0.25);
    const x0 = Math.max(0, Math.floor(box.x0) - pad);
    const x1 = Math.min(width, Math.ceil(box.x1) + pad);
    const y0 = Math.max(0, Math.floor(box.y0) - pad);
    const y1 = Math.min(height, Math.ceil(box.y1) + pad);
    for (let y = y0; y < y1; y++) grey.fill(255, y * width + x0, y * width + x1);
  }
}
