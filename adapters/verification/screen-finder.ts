/**
 * A phone's screen in a photo of it (a customer photographing their screen instead of taking a
 * screenshot): where the screen is, how far its text lines slope, its cut-out for OCR, and how a
 * point of that cut-out maps back to the whole picture. Split from preprocess.ts (issue 28).
 */
import sharp from 'sharp';
import { dominantColour, MAX_OCR_HEIGHT, stretchContrast, type Box, type Rgb } from './pixels.ts';

/**
 * A phone's screen photographed on a desk, cut out, enlarged (`enlarged`: its size then) and turned
 * level (`tilt` degrees undone; `size`: the image's size after), for OCR; `screenToOcr` maps back.
 */
export type ScreenCrop = { image: Buffer; left: number; top: number; scale: number; tilt: number; size: { width: number; height: number }; enlarged: { width: number; height: number } };

/** Screens smaller than this share of the picture are too small to find; larger ones are the picture. */
const SCREEN_MIN_AREA = 0.12;
const SCREEN_MAX_AREA = 0.8;
/** How far (RGB distance) a pixel may be from the page's colour: glare and shading on a photographed screen. */
const SCREEN_COLOUR_DISTANCE = 45;
/** The tallest picture across a photographed page stepped over, as a share of the photo's height. */
const PICTURE_GAP = 0.3;

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
export async function screenCrop(rgb: Rgb, small: Rgb, ocrScale: number, region: (Box & { tilt: number }) | null): Promise<ScreenCrop | null> {
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
