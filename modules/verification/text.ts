/**
 * Text helpers for judging OCR output: folding (case, accents), tokens, a bounded Levenshtein
 * distance and fuzzy phrase search over OCR lines. Pure; shared by the judge and its tests.
 */
import { foldText } from '../shared/text.ts';

/** Lowercase ASCII-ish text (`foldText`: accents removed, 'José' -> 'jose'), curly quotes straightened. */
export function fold(value: string): string {
  return foldText(value).replace(/[’‘`´]/g, "'");
}

/**
 * The other common spelling of a name with German umlauts (and the Nordic ø): 'Müller' as
 * 'Mueller', 'Schön' as 'Schoen', 'Søren' as 'Soeren', as people write them on a keyboard without
 * those letters; `fold` spells them 'muller', 'schon', 'soren'. Null when the name has none.
 */
export function umlautSpelling(value: string): string | null {
  const spelled = String(value ?? '')
    .normalize('NFC')
    .replace(/[äÄöÖüÜøØ]/g, (c) => ({ ä: 'ae', Ä: 'Ae', ö: 'oe', Ö: 'Oe', ü: 'ue', Ü: 'Ue', ø: 'oe', Ø: 'Oe' })[c] ?? c);
  return spelled === String(value ?? '').normalize('NFC') ? null : spelled;
}

/**
 * The fewest edits that turn `pattern` into some run of `text` (approximate substring search),
 * giving up (max + 1) once every alignment must exceed `max`.
 */
export function substringDistance(text: string, pattern: string, max = Infinity): number {
  if (pattern.length === 0) return 0;
  return editDistance(pattern, text, max, true);
}

/** Letters and digits only ('Crumb & Co' -> 'crumbco', "O'Brien" -> 'obrien'). */
export function compact(value: string): string {
  return fold(value).replace(/[^a-z0-9]+/g, '');
}

/** Words of a folded string: runs of letters/digits; apostrophes inside words are dropped. */
export function words(value: string): string[] {
  return fold(value)
    .replace(/(\w)'(\w)/g, '$1$2')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Levenshtein distance, giving up (returning max + 1) as soon as it must exceed `max`.
 */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  return editDistance(a, b, max, false);
}

/**
 * The edit-distance table of `a` (rows) against `b` (columns), one row at a time, giving up
 * (max + 1) once a whole row exceeds `max`. `anywhere`: `a` may match any run of `b` (the first row
 * is all zeros and the best of the last row counts), else all of `b` (Levenshtein).
 */
function editDistance(a: string, b: string, max: number, anywhere: boolean): number {
  let prev = new Array<number>(b.length + 1);
  let curr = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = anywhere ? 0 : j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, curr] = [curr, prev];
  }
  return anywhere ? Math.min(...prev) : prev[b.length]!;
}

/**
 * OCR errors we forgive in a word of this length, after `ocrKey` has merged look-alike letters:
 * none up to 3 characters (short names must be exact), one up to 8, two up to 16, then one in
 * eight. Two different real names rarely differ by one letter only after that merge, while a
 * clean screenshot rarely costs more than one slip per word.
 */
export function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  if (length <= 8) return 1;
  if (length <= 16) return 2;
  return Math.floor(length / 8);
}

/**
 * Letters and digits with the characters OCR confuses merged: 0/o, 1/l/i/|, rn/m, vv/w.
 * Both sides of a comparison go through it ('Crurnb' and 'Crumb' meet as 'crumb').
 */
export function ocrKey(value: string): string {
  return fold(value)
    .replace(/[|]/g, 'l')
    .replace(/[^a-z0-9]+/g, '')
    .replace(/0/g, 'o')
    .replace(/[1i]/g, 'l')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}

/**
 * Handle as typed -> bare lowercase handle: '@Ana.Pereira' -> 'ana.pereira';
 * 'https://www.instagram.com/crumbandco/' -> 'crumbandco'; 'tiktok.com/@crumb' -> 'crumb'.
 */
export function normaliseHandle(value: string): string {
  let handle = String(value ?? '').trim();
  const url = /^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*(?:instagram\.com|facebook\.com|fb\.com|x\.com|twitter\.com|tiktok\.com)\/(.*)$/i.exec(handle);
  if (url) {
    const segments = (url[1] ?? '').split(/[/?#]/).filter(Boolean);
    handle = segments[0] ?? '';
  }
  return fold(handle.replace(/^@+/, '')).trim();
}

/** Letters of a review's text that make its duplicate key (issue 13: another screenshot of the same review may show less of it). */
export const REVIEW_KEY_LETTERS = 64;

/**
 * The key under which a review's text counts as "already rewarded": folded, letters only, with
 * the characters OCR confuses merged (i/l/1/|, o/0, rn/m, vv/w), so the same review read from a
 * re-encoded or cropped copy of the screenshot gives the same key. Null when the text is too
 * short to be told apart from another customer's ("Great!"): under 40 letters. Only the first
 * REVIEW_KEY_LETTERS letters count: a second screenshot of the same review often shows less of it
 * (cut by a crop or a 'More' fold), and two customers rarely start with the same dozen words.
 */
export function normaliseReviewText(text: string): string | null {
  const merged = fold(text)
    .replace(/[|1]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/[^a-z]+/g, '')
    .replace(/i/g, 'l')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
  return merged.length >= 40 ? merged.slice(0, REVIEW_KEY_LETTERS) : null;
}

/**
 * A handle as OCR may read it, reduced to what tells accounts apart: folded, without a leading '@'
 * (or what OCR makes of it: '©', '®'), trailing punctuation or a possessive "'s"; the characters
 * OCR confuses merged (0/o, 1/l/i/|/!, rn/m, vv/w, ',' for '.'); spaces OCR put in dropped. Every
 * other character must be the same: there is no edit distance here, so 'crumbandgo' never meets
 * 'crumbandco', and dots and underscores stay significant ('omar.haddad_' is not 'omar.haddad').
 */
export function handleKey(value: string): string {
  return fold(value)
    .trim()
    .replace(/^[@©®]+/, '')
    .replace(/'s$/, '')
    .replace(/[,]/g, '.')
    .replace(/[|!1i]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/\s+/g, '')
    .replace(/[^a-z0-9._]+/g, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/^\.+|\.+$/g, '');
}

/**
 * Keys of a business name as a screen may show it: '&' and 'and' alike, letters and digits only,
 * OCR look-alikes merged (see `ocrKey`). Two forms: with 'and' for '&', and with both dropped
 * ('Crumb & Co' shows as 'Crumb 8 Co' when OCR misreads the ampersand).
 */
export function businessKeys(value: string): string[] {
  const withAnd = ocrKey(fold(value).replace(/&/g, ' and '));
  const without = words(fold(value).replace(/&/g, ' ')).filter((w) => w !== 'and').map(ocrKey).join('');
  return [...new Set([withAnd, without].filter(Boolean))];
}
