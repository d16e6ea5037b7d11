/**
 * Masks of text that greyscale loses (black for the text, white for the rest), for the closer
 * reading: white text, strongly coloured text, light text over a varying background. Split from
 * preprocess.ts (issue 28).
 */
import type { Rgb } from './pixels.ts';

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
