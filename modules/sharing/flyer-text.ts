/**
 * The flyer's fonts and text (split from flyer.ts, issue 28 item 4): DejaVu Sans registered under our
 * own family names, and text fitted to a box (wrapped, long words split, shrunk down to a minimum
 * size, ellipsized) and drawn centred.
 */
import { createRequire } from 'node:module';
import { GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';

const SANS = 'RewardLoop Flyer Sans';
export const MONO = 'RewardLoop Flyer Mono';

// ---------------------------------------------------------------------------------------------
// Fonts

export function ensureFonts(): void {
  if (GlobalFonts.has(SANS) && GlobalFonts.has(MONO)) return;
  const require = createRequire(import.meta.url);
  const files: Array<[string, string]> = [
    ['DejaVuSans.ttf', SANS],
    ['DejaVuSans-Bold.ttf', SANS],
    ['DejaVuSansMono.ttf', MONO],
  ];
  for (const [file, family] of files) {
    const path = require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
    if (!GlobalFonts.registerFromPath(path, family)) throw new Error(`could not register the flyer font ${path}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Text fitting

export type Ctx = SKRSContext2D;
type Weight = 400 | 700;

export function setFont(ctx: Ctx, size: number, weight: Weight = 400, family = SANS): void {
  ctx.font = `${weight} ${size}px "${family}"`;
}

/** Characters (code points) of a word that fit in maxWidth, at least one. */
function splitLongWord(ctx: Ctx, word: string, maxWidth: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const ch of word) {
    if (current && ctx.measureText(current + ch).width > maxWidth) {
      out.push(current);
      current = ch;
    } else {
      current += ch;
    }
  }
  if (current) out.push(current);
  return out;
}

/** Greedy line breaking of tokens joined by `joiner` (' ' for prose, '' for a URL cut at slashes). */
function wrapTokens(ctx: Ctx, tokens: string[], joiner: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    const candidate = line ? line + joiner + token : token;
    if (ctx.measureText(candidate).width <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    if (ctx.measureText(token).width <= maxWidth) {
      line = token;
    } else {
      const pieces = splitLongWord(ctx, token, maxWidth);
      line = pieces.pop() ?? '';
      lines.push(...pieces);
    }
  }
  if (line) lines.push(line);
  return lines;
}

function ellipsize(ctx: Ctx, line: string, maxWidth: number): string {
  let chars = Array.from(line.trimEnd());
  while (chars.length && ctx.measureText(`${chars.join('').trimEnd()}…`).width > maxWidth) chars = chars.slice(0, -1);
  return `${chars.join('').trimEnd()}…`;
}

type FitOptions = {
  maxWidth: number;
  maxSize: number;
  minSize: number;
  maxLines: number;
  weight?: Weight;
  family?: string;
  /** Split a URL after / ? & = instead of at spaces. */
  url?: boolean;
};

type FittedText = { size: number; lines: string[]; weight: Weight; family: string };

/**
 * The largest size (from maxSize down to minSize) at which the text wraps into maxLines lines of
 * maxWidth; at minSize the last line is cut with an ellipsis. The result never exceeds maxWidth.
 */
export function fitText(ctx: Ctx, text: string, o: FitOptions): FittedText {
  const weight = o.weight ?? 400;
  const family = o.family ?? SANS;
  const tokens = o.url ? text.split(/(?<=[/?&=])/) : text.split(' ');
  const joiner = o.url ? '' : ' ';
  for (let size = o.maxSize; ; size = Math.max(o.minSize, size - Math.max(2, Math.round(size * 0.05)))) {
    setFont(ctx, size, weight, family);
    const lines = wrapTokens(ctx, tokens, joiner, o.maxWidth);
    if (lines.length <= o.maxLines) return { size, lines, weight, family };
    if (size === o.minSize) {
      const kept = lines.slice(0, o.maxLines);
      kept[kept.length - 1] = ellipsize(ctx, kept[kept.length - 1]!, o.maxWidth);
      return { size, lines: kept, weight, family };
    }
  }
}

export function blockHeight(t: FittedText, lineHeight: number): number {
  return Math.round(t.lines.length * t.size * lineHeight);
}

/** Draws fitted lines centred on cx from top y; returns the height used. */
export function drawCentered(ctx: Ctx, t: FittedText, cx: number, y: number, lineHeight: number, color: string): number {
  setFont(ctx, t.size, t.weight, t.family);
  ctx.fillStyle = color;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const step = t.size * lineHeight;
  t.lines.forEach((line, i) => ctx.fillText(line, cx, y + step * i + step / 2));
  return blockHeight(t, lineHeight);
}
