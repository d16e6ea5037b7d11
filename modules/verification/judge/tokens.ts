/**
 * Tokens of an OCR line (cleaned of punctuation, as handles), a token's confidence, and the letter
 * pairs OCR confuses; shared by the name and handle matching.
 */
import type { OcrLine } from './ocr.ts';


/** Tokens of a line cleaned of wrapping punctuation ('(@crumbandco)' -> '@crumbandco'). */
export function cleanTokens(text: string): string[] {
  return text
    .split(/\s+/)
    .map((t) => t.replace(/^[("'[“‘]+/, '').replace(/[)"'\]”’:;,!?]+$/, ''))
    .filter(Boolean);
}

/**
 * Tokens of a line for finding handles: `cleanTokens`, except that words OCR split with next to no
 * gap between their boxes (under a sixth of the text's height) are glued back: '@sunrisebagels.'
 * and 'p' set tight are one handle on screen, '@sunrisebagels.p', another account.
 */
export function handleTokens(line: OcrLine): string[] {
  // A separator glued to a handle ('oliviasmith»38m', 'bencarter·5h': a story's or a post's time
  // after it) is never part of one: handles are letters, digits, dots and underscores. OCR also
  // reads that dot as '=' ('danielkim=38m').
  const split = (text: string) => cleanTokens(text.replace(/[»·•›‧=]+/g, ' '));
  if (line.words.length === 0 || line.words.map((w) => w.text).join(' ') !== line.text) return split(line.text);
  const glued: string[] = [];
  line.words.forEach((word, i) => {
    const previous = line.words[i - 1];
    const height = word.bbox.y1 - word.bbox.y0;
    if (previous && glued.length > 0 && word.bbox.x0 - previous.bbox.x1 < height / 6 && /[._]$/.test(previous.text) && /^[a-z0-9_]/i.test(word.text)) {
      glued[glued.length - 1] += word.text;
    } else glued.push(word.text);
  });
  return split(glued.join(' '));
}

/** How sure OCR was of the word holding a token (the line's confidence when no word box holds it). */
export function tokenConfidence(line: OcrLine, token: string): number {
  const core = token.replace(/^[@©®]+/, '');
  return line.words.find((w) => w.text.includes(core))?.confidence ?? line.confidence;
}

/** Letter pairs OCR confuses in a word it reads unsure of (b/h, h/n, e/c, e/g, g/q, u/v). */
const OCR_CONFUSIONS = new Set(['bh', 'hb', 'hn', 'nh', 'ec', 'ce', 'eg', 'ge', 'gq', 'qg', 'uv', 'vu']);

/** `seen` is `target` with exactly one letter swapped for its OCR look-alike (OCR_CONFUSIONS). */
export function oneConfusion(seen: string, target: string): boolean {
  if (seen.length !== target.length) return false;
  const swaps = [...seen].flatMap((c, i) => (c === target[i] ? [] : [c + target[i]!]));
  return swaps.length === 1 && OCR_CONFUSIONS.has(swaps[0]!);
}

/**
 * Letter pairs the English model makes of a letter it does not know: 'Ł' and 'ł' read as 't' or 'f'
 * ('Łukasz' as 'tukasz', 'Michał' as 'Michat'), also by the Polish model on a small or bold face.
 */
const BEYOND_ENGLISH_CONFUSIONS = new Set(['tl', 'fl']);

/**
 * `seen` is `target` with exactly one 'l' read as the look-alike of 'ł' (BEYOND_ENGLISH_CONFUSIONS),
 * or one 'ß' (folded 'ss') read as the 'B' or 'f' it looks like ('Grofmann', 'GroBmann' for Großmann).
 */
export function oneLetterBeyondEnglish(seen: string, target: string): boolean {
  if (seen.length === target.length - 1) {
    for (let i = target.indexOf('ss'); i >= 0; i = target.indexOf('ss', i + 1)) {
      if (/^[bf8]$/.test(seen[i] ?? '') && seen === target.slice(0, i) + seen[i] + target.slice(i + 2)) return true;
    }
    return false;
  }
  if (seen.length !== target.length) return false;
  const swaps = [...seen].flatMap((c, i) => (c === target[i] ? [] : [c + target[i]!]));
  return swaps.length === 1 && BEYOND_ENGLISH_CONFUSIONS.has(swaps[0]!);
}
