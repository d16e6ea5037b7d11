/**
 * Counts review stars from pixels (OCR does not read them): rows of five equal star shapes at an
 * even pitch, the first ones filled in the platform's colour (Google's gold, Yelp's red boxes),
 * the rest grey. Works on a small RGB copy of the screenshot (about 540 px wide).
 *
 * A row counts only when all five shapes are found, filled ones first: a partly filled star (the
 * 4.7 average in a place header) breaks the pattern and that row is skipped, so averages are not
 * mistaken for the customer's stars. Anything else (no stars, odd styles) gives no row.
 */
import type { StarRow } from '../../modules/verification/server.ts';

type Component = { x0: number; y0: number; x1: number; y1: number; count: number };

type Rgb = { data: Uint8Array; width: number; height: number };

/** Google gold (#fbbc04) or Yelp/red-box red; tolerant of JPEG, anti-aliasing and a photo of the screen (Yelp's box read (214,124,96)). */
function isFilled(r: number, g: number, b: number): boolean {
  const gold = r > 200 && g > 130 && g < 225 && b < 110 && r - b > 120;
  const red = r > 170 && g < 135 && b < 120 && r - g > 80;
  return gold || red;
}

/** Grey of empty stars: light (#dadce0, #e1e1e1) or dark-mode (#5f6368, Yelp's dark box about #3a3a3a); never near-white. */
function isEmptyGrey(r: number, g: number, b: number): boolean {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  return max - min <= 16 && max >= 45 && max <= 236;
}

function components(rgb: Rgb, test: (r: number, g: number, b: number) => boolean): Component[] {
  const { data, width, height } = rgb;
  const mask = new Uint8Array(width * height);
  for (let i = 0, p = 0; p < mask.length; i += 3, p++) if (test(data[i]!, data[i + 1]!, data[i + 2]!)) mask[p] = 1;
  const seen = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const out: Component[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    const c: Component = { x0: width, y0: height, x1: 0, y1: 0, count: 0 };
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      c.count++;
      if (x < c.x0) c.x0 = x;
      if (x > c.x1) c.x1 = x;
      if (y < c.y0) c.y0 = y;
      if (y > c.y1) c.y1 = y;
      for (const q of [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, y > 0 ? p - width : -1, y < height - 1 ? p + width : -1]) {
        if (q >= 0 && mask[q] && !seen[q]) {
          seen[q] = 1;
          stack[top++] = q;
        }
      }
    }
    out.push(c);
  }
  return out;
}

const w = (c: Component) => c.x1 - c.x0 + 1;
const h = (c: Component) => c.y1 - c.y0 + 1;
const cx = (c: Component) => (c.x0 + c.x1) / 2;
const cy = (c: Component) => (c.y0 + c.y1) / 2;

/**
 * Star-like: square-ish, between 1.2% and 10% of the width, partly filled (a star or a box with a
 * star cut out; an empty box's star, blurred small in a photo of the screen, leaves it up to 95% full).
 */
function starShaped(c: Component, imageWidth: number, maxFill = 0.85): boolean {
  const size = Math.max(w(c), h(c));
  if (size < Math.max(7, imageWidth * 0.012) || size > imageWidth * 0.1) return false;
  const aspect = w(c) / h(c);
  if (aspect < 0.75 || aspect > 1.33) return false;
  const fill = c.count / (w(c) * h(c));
  return fill > 0.3 && fill < maxFill;
}

function sameSlot(a: Component, b: Component): boolean {
  const size = Math.max(h(a), w(a));
  return Math.abs(cy(a) - cy(b)) <= size * 0.25 && Math.abs(h(a) - h(b)) <= size * 0.2 && Math.abs(w(a) - w(b)) <= size * 0.2;
}

/** The component whose centre is `pitch` to the right of `from` (±15%), in the same slot. */
function next(from: Component, pool: Component[], pitch: number | null): Component | null {
  const size = Math.max(h(from), w(from));
  const lo = pitch === null ? size * 0.95 : pitch * 0.85;
  const hi = pitch === null ? size * 1.8 : pitch * 1.15;
  let best: Component | null = null;
  for (const c of pool) {
    const dx = cx(c) - cx(from);
    if (dx >= lo && dx <= hi && sameSlot(from, c) && (!best || dx < cx(best) - cx(from))) best = c;
  }
  return best;
}

/** All rows of five stars in the image; `y` is the row's vertical centre in the image's pixels. */
export function findStarRows(rgb: Rgb): StarRow[] {
  const filled = components(rgb, isFilled).filter((c) => starShaped(c, rgb.width));
  if (filled.length === 0) return [];
  const empty = components(rgb, isEmptyGrey).filter((c) => starShaped(c, rgb.width, 0.95));
  const rows: StarRow[] = [];
  const used = new Set<Component>();
  for (const first of [...filled].sort((a, b) => a.x0 - b.x0)) {
    if (used.has(first)) continue;
    // A row starts with a filled star that has no star-shaped neighbour on its left.
    const size = Math.max(h(first), w(first));
    const hasLeft = [...filled, ...empty].some((c) => c !== first && sameSlot(first, c) && cx(first) - cx(c) > 0 && cx(first) - cx(c) < size * 1.8);
    if (hasLeft) continue;
    const row: Component[] = [first];
    let pitch: number | null = null;
    let filledCount = 1;
    let inFilled = true;
    while (row.length < 5) {
      const last = row[row.length - 1]!;
      const nextFilled: Component | null = inFilled ? next(last, filled, pitch) : null;
      const candidate: Component | null = nextFilled ?? next(last, empty, pitch);
      if (!candidate) break;
      if (nextFilled) filledCount++;
      else inFilled = false;
      pitch ??= cx(candidate) - cx(last);
      row.push(candidate);
    }
    if (row.length !== 5) continue;
    // Five and no more: a sixth shape at the same pitch means this is something else.
    if (next(row[4]!, [...filled, ...empty], pitch)) continue;
    row.forEach((c) => used.add(c));
    rows.push({ y: row.reduce((sum, c) => sum + cy(c), 0) / 5, filled: filledCount });
  }
  return rows.sort((a, b) => a.y - b.y);
}
