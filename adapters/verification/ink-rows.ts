/**
 * Rows of ink the first OCR pass read nothing in, cut out for single-line OCR: bands of dark rows,
 * the labels of outlined buttons inside them, and rows of rating stars painted out so that the date
 * beside them is read on its own. Split from preprocess.ts (issue 28).
 */
import type { Box } from './pixels.ts';

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
