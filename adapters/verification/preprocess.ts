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
 */
import { createHash } from 'node:crypto';
import sharp, { type OutputInfo } from 'sharp';
import { encodeFingerprint, FINGERPRINT_MAX_HEIGHT, FINGERPRINT_WIDTH, type OpenedScreenshot, type ScreenshotReading } from '../../modules/verification/server.ts';

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
  /**
   * The page's commonest colour: of the screen, in a photo of a phone (not the desk around it, which
   * would make a light grey 'Following' button look filled against a dark desk).
   */
  background: { r: number; g: number; b: number };
  /** Makes the images of the closer reading (see `closerImages`). */
  closer: (
    blank: readonly Box[],
    lineHeight: number,
    options?: { bands?: boolean; stubs?: readonly Box[] },
  ) => Promise<{ grey: Buffer; whiteText: Buffer; colouredText: Buffer; lightText: Buffer; rows: InkRow[]; screen: ScreenCrop | null; bands: InkRow[]; top: Buffer[]; whiteRows: InkRow[] }>;
};

/**
 * A phone's screen photographed on a desk, cut out, enlarged (`enlarged`: its size then) and turned
 * level (`tilt` degrees undone; `size`: the image's size after), for OCR; `screenToOcr` maps back.
 */
export type ScreenCrop = { image: Buffer; left: number; top: number; scale: number; tilt: number; size: { width: number; height: number }; enlarged: { width: number; height: number } };

type Box = { x0: number; y0: number; x1: number; y1: number };

/**
 * Pixels of white text: near white and nearly colourless. Captions and stickers over a photo or a
 * video, the label of a coloured button, are white; greyscale gives them little contrast with a
 * light picture behind them, this mask gives them all of it (black on white, the rest white; a
 * light page comes out inverted, which OCR reads as well).
 */
export function whiteTextMask(rgb: Rgb): Buffer {
  return colourMask(rgb, (max, spread) => max > 238 && spread < 18);
}

/** A mask of the pixels `isText` picks by their brightest channel and their spread (max - min): black for them, white for the rest. */
function colourMask(rgb: Rgb, isText: (max: number, spread: number) => boolean): Buffer {
  const mask = Buffer.alloc(rgb.width * rgb.height);
  for (let i = 0, j = 0; i < mask.length; i++, j += 3) {
    const r = rgb.data[j]!;
    const g = rgb.data[j + 1]!;
    const b = rgb.data[j + 2]!;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const min = r < g ? (r < b ? r : b) : g < b ? g : b;
    mask[i] = isText(max, max - min) ? 0 : 255;
  }
  return mask;
}

/**
 * Pixels of strongly coloured text: far from grey (Instagram's mention sticker writes '@HANDLE' in
 * an orange-to-purple gradient on white, whose orange end greyscale makes faint; links and
 * hashtags in colour). Black for them, white for the rest: the sticker reads as plain black text.
 */
export function colouredTextMask(rgb: Rgb): Buffer {
  return colourMask(rgb, (_max, spread) => spread >= 100);
}

/**
 * Pixels of light text over a varying background: lighter than the blurred image around them by a
 * clear margin, and light themselves (black on white for OCR, the rest white).
 */
export function lightTextMask(grey: Uint8Array, around: Uint8Array): Buffer {
  const mask = Buffer.alloc(grey.length);
  for (let i = 0; i < grey.length; i++) mask[i] = grey[i]! - around[i]! > 28 && grey[i]! > 150 ? 0 : 255;
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

/**
 * Inside a row of ink, the labels of outlined buttons: a segment of ink (columns with ink, split by
 * gaps of half a line) at least twice as wide as tall whose top and bottom rows of ink run across
 * most of it (an outline: X's 'Following' pill, TikTok's 'Message' box), cut inside the outline.
 * OCR reads nothing off a label with its outline around it; cut out, it reads it.
 */
export function outlinedLabels(grey: Uint8Array, width: number, box: Box, lineHeight: number): Box[] {
  const inkAt = (x: number, y: number) => grey[y * width + x]! < 110;
  const columns: boolean[] = [];
  for (let x = box.x0; x < box.x1; x++) {
    let ink = false;
    for (let y = box.y0; y < box.y1 && !ink; y++) ink = inkAt(x, y);
    columns.push(ink);
  }
  const segments: Array<[number, number]> = [];
  const split = Math.max(2, lineHeight * 0.5);
  let runStart = -1;
  let lastInk = -1;
  columns.forEach((ink, i) => {
    if (!ink) return;
    if (runStart < 0) runStart = i;
    else if (i - lastInk > split) {
      segments.push([box.x0 + runStart, box.x0 + lastInk + 1]);
      runStart = i;
    }
    lastInk = i;
  });
  if (runStart >= 0) segments.push([box.x0 + runStart, box.x0 + lastInk + 1]);
  const labels: Box[] = [];
  for (const [x0, x1] of segments) {
    let top = -1;
    let bottom = -1;
    for (let y = box.y0; y < box.y1; y++) {
      let ink = false;
      for (let x = x0; x < x1 && !ink; x++) ink = inkAt(x, y);
      if (ink) {
        if (top < 0) top = y;
        bottom = y;
      }
    }
    const h = bottom - top + 1;
    if (top < 0 || x1 - x0 < 2 * h || h < lineHeight) continue;
    const across = (y: number) => {
      let n = 0;
      for (let x = x0; x < x1; x++) if (inkAt(x, y) || inkAt(x, Math.min(y + 1, bottom)) || inkAt(x, Math.max(y - 1, top))) n++;
      return n / (x1 - x0);
    };
    if (across(top + 1) < 0.6 || across(bottom - 1) < 0.6) continue;
    labels.push({ x0: Math.round(x0 + 0.3 * h), y0: Math.round(top + 0.2 * h), x1: Math.round(x1 - 0.3 * h), y1: Math.round(bottom + 1 - 0.2 * h) });
  }
  return labels;
}

/** A coloured pixel (star badges, filled buttons, links); the text around them is grey. */
function isColoured(colour: Uint8Array, i: number): boolean {
  const r = colour[3 * i]!;
  const g = colour[3 * i + 1]!;
  const b = colour[3 * i + 2]!;
  return Math.max(r, g, b) - Math.min(r, g, b) > 90;
}

/**
 * A band of the greyscale OCR image with a row of rating stars in it (three or more coloured shapes
 * side by side on one scanline: Yelp's red squares, Google's yellow stars) painted out, in a copy; or
 * null when the band has none. OCR reads the stars as letters and runs them into the date beside
 * them ('B88 >» 19n0v2026'); without them the date is read on its own. `colour` is the picture in
 * RGB at the OCR image's size.
 */
export function withoutStars(grey: Buffer, colour: Uint8Array, width: number, box: Box, lineHeight: number): Buffer | null {
  // Columns coloured over a third of the band's height, in runs: each star (or badge square) is one
  // run about a line's height wide; an avatar or a 'Follow' button is one wider run. The empty stars
  // after them (grey squares, outlines) are runs of the same size in any colour but the page's.
  const tall = (box.y1 - box.y0) / 3;
  const page = Math.max(0, box.x0 - 2) + box.y0 * width;
  const inked = (i: number) => Math.abs(colour[3 * i]! - colour[3 * page]!) + Math.abs(colour[3 * i + 1]! - colour[3 * page + 1]!) + Math.abs(colour[3 * i + 2]! - colour[3 * page + 2]!) > 45;
  const isShape = (from: number, to: number) => to - from >= 0.4 * lineHeight && to - from <= 1.6 * lineHeight;
  let coloured = 0;
  let first = -1;
  let last = -1;
  let run = 0;
  let inkRun = 0;
  for (let x = box.x0; x <= box.x1; x++) {
    let n = 0;
    let ink = 0;
    if (x < box.x1) {
      for (let y = box.y0; y < box.y1; y++) {
        const i = y * width + x;
        if (isColoured(colour, i)) n++;
        if (inked(i)) ink++;
      }
    }
    if (n > tall) run++;
    else {
      if (isShape(x - run, x)) {
        coloured++;
        if (first < 0) first = x - run;
        last = x;
      }
      run = 0;
    }
    if (ink > tall) inkRun++;
    else {
      // An empty star right after the stars so far.
      if (coloured > 0 && isShape(x - inkRun, x) && x - inkRun - last < 1.2 * lineHeight) last = x;
      inkRun = 0;
    }
  }
  if (coloured < 3) return null;
  const out = Buffer.from(grey);
  const x0 = Math.max(box.x0, first - 3);
  const x1 = Math.min(box.x1, last + 3);
  for (let y = box.y0; y < box.y1; y++) out.fill(255, y * width + x0, y * width + x1);
  return out;
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

/** Screens smaller than this share of the picture are too small to find; larger ones are the picture. */
const SCREEN_MIN_AREA = 0.12;
const SCREEN_MAX_AREA = 0.8;
/** How far (RGB distance) a pixel may be from the page's colour: glare and shading on a photographed screen. */
const SCREEN_COLOUR_DISTANCE = 45;
/** The tallest picture across a photographed page stepped over, as a share of the photo's height. */
const PICTURE_GAP = 0.3;
/** How much a line cut short is enlarged (over the OCR size) to be read again in whiteness. */
export const WHITE_ROW_SCALE = 3;

/**
 * The screen in a photo of a phone (a customer photographing their screen instead of taking a
 * screenshot): the region around the picture's centre in the centre's colour (the app's page,
 * light or dark), grown row by row and column by column while most of the row (column) is that
 * colour. Null when that region is most of the picture (a screenshot) or a small patch. Works on a
 * small copy (`small`, any width); the box is in its pixels.
 */
export function screenRegion(small: Rgb): (Box & { tilt: number }) | null {
  const { width, height, data } = small;
  const centre = dominantColour(small, { x0: width * 0.35, y0: height * 0.35, x1: width * 0.65, y1: height * 0.65 });
  const near = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < near.length; i++, j += 3) {
    const dr = data[j]! - centre.r;
    const dg = data[j + 1]! - centre.g;
    const db = data[j + 2]! - centre.b;
    near[i] = dr * dr + dg * dg + db * db < SCREEN_COLOUR_DISTANCE ** 2 ? 1 : 0;
  }
  const rowShare = (y: number, x0: number, x1: number) => {
    let n = 0;
    for (let x = x0; x < x1; x++) n += near[y * width + x]!;
    return n / Math.max(1, x1 - x0);
  };
  const colShare = (x: number, y0: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++) n += near[y * width + x]!;
    return n / Math.max(1, y1 - y0);
  };
  // Grow from the middle third; text and pictures on the page leave gaps, so a row counts when
  // a third of it is the page's colour.
  let x0 = Math.floor(width * 0.4);
  let x1 = Math.ceil(width * 0.6);
  let y0 = Math.floor(height * 0.4);
  let y1 = Math.ceil(height * 0.6);
  // A band of text, a picture or a button across the page is stepped over: the page goes on while
  // one of the next few rows (3% of the picture) is mostly its colour.
  const stepY = Math.max(2, Math.round(height * 0.03));
  const stepX = Math.max(2, Math.round(width * 0.03));
  const pageRow = (y: number) => rowShare(y, x0, x1) > 0.33;
  const pageCol = (x: number) => colShare(x, y0, y1) > 0.33;
  /** From `from`, moving by `dir`, the furthest index of the page reached over gaps of fewer than `step`. */
  const reach = (from: number, dir: 1 | -1, limit: number, step: number, isPage: (i: number) => boolean) => {
    let edge = from;
    for (let i = from + dir; dir > 0 ? i < limit : i >= 0; i += dir) {
      if (isPage(i)) edge = i;
      else if (Math.abs(i - edge) >= step) break;
    }
    return edge;
  };
  /**
   * Beyond a picture across the page (a post's photo, nearly as wide as the screen): from `from`,
   * moving by `dir`, the first row of a run of page rows (a step long) within PICTURE_GAP of the
   * picture's height, or null.
   */
  const acrossPicture = (from: number, dir: 1 | -1): number | null => {
    const gap = Math.round(height * PICTURE_GAP);
    for (let i = from + dir * stepY; dir > 0 ? i < height - stepY : i >= stepY; i += dir) {
      if (Math.abs(i - from) > gap) return null;
      let run = 0;
      while (run < stepY && pageRow(i + dir * run)) run++;
      if (run === stepY) return i;
    }
    return null;
  };
  const grow = () => {
    for (let pass = 0; pass < 3; pass++) {
      y0 = reach(y0, -1, height, stepY, pageRow);
      y1 = reach(y1 - 1, 1, height, stepY, pageRow) + 1;
      x0 = reach(x0, -1, width, stepX, pageCol);
      x1 = reach(x1 - 1, 1, width, stepX, pageCol) + 1;
    }
  };
  grow();
  // The page goes on above or below a picture that spans it (its thin margins are too little of
  // a row to count): the screen is found whole, not only the part on one side of the photo.
  for (const dir of [-1, 1] as const) {
    const beyond = acrossPicture(dir < 0 ? y0 : y1 - 1, dir);
    if (beyond === null) continue;
    if (dir < 0) y0 = beyond;
    else y1 = beyond + 1;
    grow();
  }
  const area = ((x1 - x0) * (y1 - y0)) / (width * height);
  if (area < SCREEN_MIN_AREA || area > SCREEN_MAX_AREA) return null;
  // A photographed screen lies inside the picture, the desk at least on its left and right (a
  // phone is taller than wide); a screenshot's page reaches the sides.
  if (x0 < 0.03 * width || x1 > 0.97 * width) return null;
  return { x0, y0, x1, y1, tilt: textTilt(small, { x0, y0, x1, y1 }, centre) };
}

/**
 * The slope of the text lines in a box, in degrees (clockwise positive, within ±12): the angle at
 * which the ink's rows line up best (the sharpest profile of ink per row), as a phone photographed
 * askew shows them. Ink: pixels far from the page's colour.
 */
export function textTilt(small: Rgb, box: Box, page: { r: number; g: number; b: number }): number {
  const { width, data } = small;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y * width + x) * 3;
      const d = Math.abs(data[i]! - page.r) + Math.abs(data[i + 1]! - page.g) + Math.abs(data[i + 2]! - page.b);
      if (d > 180) {
        xs.push(x - box.x0);
        ys.push(y - box.y0);
      }
    }
  }
  if (xs.length < 50) return 0;
  const rows = box.y1 - box.y0 + box.x1 - box.x0;
  const sharpness = (degrees: number) => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const profile = new Float64Array(2 * rows + 1);
    for (let k = 0; k < xs.length; k++) profile[Math.round(ys[k]! - xs[k]! * t) + rows]!++;
    let sum = 0;
    for (const v of profile) sum += v * v;
    return sum;
  };
  let best = 0;
  let bestScore = sharpness(0);
  for (let degrees = -12; degrees <= 12; degrees += 0.5) {
    const score = sharpness(degrees);
    if (score > bestScore * 1.02) {
      best = degrees;
      bestScore = score;
    }
  }
  return best;
}


/**
 * A photo whose screen was not found (a dark page on a dark desk: the page's colour runs into the
 * desk) but whose text lines slope: the whole picture, to be turned level. A screenshot's lines
 * are level, so it never gets here.
 */
function askewPicture(small: Rgb): (Box & { tilt: number }) | null {
  const whole = { x0: 0, y0: 0, x1: small.width, y1: small.height };
  const tilt = textTilt(small, whole, dominantColour(small, { x0: small.width * 0.35, y0: small.height * 0.35, x1: small.width * 0.65, y1: small.height * 0.65 }));
  return Math.abs(tilt) >= 1 ? { ...whole, tilt } : null;
}

/** The screen's cut-out: greyscale, contrast stretched (dark mode inverted), enlarged to about 1400 px wide. */
async function screenCrop(rgb: Rgb, small: Rgb, ocrScale: number, region: (Box & { tilt: number }) | null): Promise<ScreenCrop | null> {
  const box = region ?? askewPicture(small);
  if (!box) return null;
  const k = rgb.width / small.width;
  const margin = 0.02 * rgb.width;
  const left = Math.max(0, Math.floor(box.x0 * k - margin));
  const top = Math.max(0, Math.floor(box.y0 * k - margin));
  const w = Math.min(rgb.width, Math.ceil(box.x1 * k + margin)) - left;
  const h = Math.min(rgb.height, Math.ceil(box.y1 * k + margin)) - top;
  const enlarge = Math.min(3, Math.max(1, 1400 / w), MAX_OCR_HEIGHT / h);
  const grey = await sharp(rgb.data, { raw: { width: rgb.width, height: rgb.height, channels: 3 } })
    .extract({ left, top, width: w, height: h })
    .greyscale()
    .raw()
    .toBuffer();
  stretchContrast(grey);
  const enlarged = { width: Math.round(w * enlarge), height: Math.round(h * enlarge) };
  let image = sharp(grey, { raw: { width: w, height: h, channels: 1 } }).resize(enlarged.width, enlarged.height, { kernel: 'lanczos3', fit: 'fill' });
  // A phone held askew: its text lines are turned level (OCR reads level lines best).
  const tilt = Math.abs(box.tilt) >= 1 ? box.tilt : 0;
  if (tilt) image = sharp(await image.png({ compressionLevel: 1 }).toBuffer()).rotate(-tilt, { background: '#ffffff' });
  const { data, info } = await image.png({ compressionLevel: 1 }).toBuffer({ resolveWithObject: true });
  return { image: data, left: left * ocrScale, top: top * ocrScale, scale: enlarge / ocrScale, tilt, size: { width: info.width, height: info.height }, enlarged };
}

/**
 * Where a point of the screen's cut-out (as given to OCR: enlarged, turned level) lies in the OCR
 * coordinates of the whole picture: turned back about the centre, then shrunk and moved.
 */
export function screenToOcr(crop: ScreenCrop, x: number, y: number): { x: number; y: number } {
  let u = x;
  let v = y;
  if (crop.tilt) {
    const a = (crop.tilt * Math.PI) / 180;
    const dx = x - crop.size.width / 2;
    const dy = y - crop.size.height / 2;
    u = crop.enlarged.width / 2 + dx * Math.cos(a) - dy * Math.sin(a);
    v = crop.enlarged.height / 2 + dx * Math.sin(a) + dy * Math.cos(a);
  }
  return { x: crop.left + u / crop.scale, y: crop.top + v / crop.scale };
}

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
    closer: async (blank, lineHeight, options = {}) => {
      const grey = Buffer.from(ocrGrey);
      paintWhite(grey, ocrWidth, ocrHeight, blank);
      const pad = Math.round(lineHeight / 3);
      // Whole rows, then the right part alone: a profile's buttons sit right of its picture, which
      // would otherwise join them into one band too tall to be a line.
      const whole = inkRows(grey, ocrWidth, ocrHeight, lineHeight);
      const right = inkRows(grey, ocrWidth, ocrHeight, lineHeight, 8, Math.round(ocrWidth * 0.4)).filter(
        (box) => !whole.some((w) => w.y0 <= box.y0 && w.y1 >= box.y1),
      );
      const bands = [...whole, ...right].slice(0, 10);
      // ... and the labels of outlined buttons in them, cut inside their outline.
      const labels = bands.flatMap((box) => outlinedLabels(grey, ocrWidth, box, lineHeight)).slice(0, 4);
      // ... and the rows with rating stars once more, the stars painted out (the date beside them).
      const colour = scale === 1 ? raw.data : await sharp(raw.data, rawInput).resize(ocrWidth, ocrHeight, { fit: 'fill' }).raw().toBuffer();
      const starless = inkRows(grey, ocrWidth, ocrHeight, lineHeight, 40).flatMap((box) => {
        const painted = withoutStars(grey, colour, ocrWidth, box, lineHeight);
        return painted ? [{ box, pixels: painted }] : [];
      });
      const rows = await Promise.all(
        [...[...bands, ...labels].map((box) => ({ box, pixels: grey })), ...starless.slice(0, 4)].map(async ({ box, pixels }) => {
          const left = Math.max(0, box.x0 - pad);
          const top = Math.max(0, box.y0 - pad);
          const w = Math.min(ocrWidth, box.x1 + pad) - left;
          const h = Math.min(ocrHeight, box.y1 + pad) - top;
          return { image: await sharp(pixels, ocrRaw).extract({ left, top, width: w, height: h }).png().toBuffer(), left, top };
        }),
      );
      let mask = sharp(whiteTextMask(rgb), { raw: { width, height, channels: 1 } });
      if (scale !== 1) mask = mask.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
      const white = await mask.toColourspace('b-w').raw().toBuffer();
      paintWhite(white, ocrWidth, ocrHeight, blank);
      let colouredMask = sharp(colouredTextMask(rgb), { raw: { width, height, channels: 1 } });
      if (scale !== 1) colouredMask = colouredMask.resize(ocrWidth, ocrHeight, { kernel: 'lanczos3', fit: 'fill' });
      const coloured = await colouredMask.toColourspace('b-w').raw().toBuffer();
      // Light text over a photo or a gradient (a story's author, a video's caption where the picture
      // behind it is pale): pixels clearly lighter than their surroundings, whatever their colour
      // (not blanked: the first pass often stops such a line where the picture behind turns pale).
      const light = await sharp(raw.data, rawInput).greyscale().resize(ocrWidth, ocrHeight, { fit: 'fill' }).raw().toBuffer();
      // One channel out ('b-w'): sharp writes a blurred one-channel image as sRGB, three bytes a
      // pixel, and compared byte for byte the mask matched each pixel with another part of the
      // picture (the pale middle of a video black, its white '@bluedoorcafe' overlay lost).
      const around = await sharp(light, ocrRaw).blur(Math.max(4, lineHeight * 0.3)).toColourspace('b-w').raw().toBuffer();
      const [greyPng, whitePng, colouredPng, lightPng, screen] = await Promise.all([
        png(grey),
        png(white),
        png(coloured),
        png(lightTextMask(light, around)),
        screenCrop(rgb, small, scale, region),
      ]);
      // When asked (the first pass read next to nothing: a photo of a screen, whose frame and desk
      // defeat the whole page's layout analysis, and whose screen may not be found where its middle
      // is pictures), the image in three overlapping bands.
      const pages =
        options.bands
          ? await Promise.all(
              [0, 0.25, 0.5].map(async (from) => {
                const top = Math.round(ocrHeight * from);
                const band = Math.min(ocrHeight - top, Math.round(ocrHeight / 2));
                return { image: await sharp(ocrGrey, ocrRaw).extract({ left: 0, top, width: ocrWidth, height: band }).png().toBuffer(), left: 0, top };
              }),
            )
          : [];
      // The top tenth of the screen enlarged twice (OCR size), contrast stretched: a story's
      // or a video's author row, small light text with a shadow over a picture, which a whole-page
      // reading loses ('jose.alvarez 5h' over a pale sky).
      const topRaw = Math.max(1, Math.round(height * 0.1));
      const topHeight = Math.max(1, Math.round(topRaw * scale));
      const topBand = () =>
        sharp(raw.data, rawInput)
          .extract({ left: 0, top: 0, width, height: topRaw })
          .greyscale()
          .resize(ocrWidth * 2, topHeight * 2, { fit: 'fill' });
      const top = [await topBand().normalise().png().toBuffer()];
      // Lines cut short (`stubs`: their last word read unsure), from their start to the right edge,
      // in whiteness (255 minus the darkest channel: white text stands out of any coloured picture,
      // 'sam.obrien 38m' over a pale tan one), enlarged WHITE_ROW_SCALE times (OCR size).
      const whiteRows = await Promise.all(
        (options.stubs ?? []).slice(0, 3).map(async (box) => {
          const pad = Math.round((box.y1 - box.y0) / 3);
          const x0 = Math.max(0, Math.floor((box.x0 - pad) / scale));
          const y0 = Math.max(0, Math.floor((box.y0 - pad) / scale));
          const y1 = Math.min(height, Math.ceil((box.y1 + pad) / scale));
          const w = width - x0;
          const h = Math.max(1, y1 - y0);
          const row = await sharp(raw.data, rawInput).extract({ left: x0, top: y0, width: w, height: h }).raw().toBuffer();
          const whiteness = Buffer.alloc(w * h);
          for (let i = 0, j = 0; i < whiteness.length; i++, j += 3) whiteness[i] = 255 - Math.min(row[j]!, row[j + 1]!, row[j + 2]!);
          const k = scale * WHITE_ROW_SCALE;
          const image = await sharp(whiteness, { raw: { width: w, height: h, channels: 1 } })
            .resize(Math.max(1, Math.round(w * k)), Math.max(1, Math.round(h * k)), { kernel: 'lanczos3', fit: 'fill' })
            .normalise()
            .png()
            .toBuffer();
          return { image, left: x0 * scale, top: y0 * scale };
        }),
      );
      return { grey: greyPng, whiteText: whitePng, colouredText: colouredPng, lightText: lightPng, rows, screen, bands: pages, top, whiteRows };
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
