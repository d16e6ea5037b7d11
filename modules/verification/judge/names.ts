/**
 * Finding people's and businesses' names in OCR lines: exact up to OCR look-alikes, wrapped over two
 * lines, and the doubtful readings that send a screenshot to the owner's review.
 */
import { umlautSpelling, words, ocrKey, substringDistance, businessKeys, fold, levenshtein } from '../text.ts';
import { RECOMMENDS } from './markers.ts';
import type { OcrLine, OcrText } from './ocr.ts';
import { cleanTokens, oneConfusion, oneLetterBeyondEnglish, tokenConfidence } from './tokens.ts';


// ---------------------------------------------------------------------------------------------
// Finding names and handles in OCR lines

export type Match = { line: number; score: number };

function tokenMatches(claimed: string, seen: string): boolean {
  if (!seen) return false;
  if (claimed.length === 1) return seen.startsWith(claimed); // an initial: "P." matches "Pereira"
  if (seen.length === 1) return claimed.startsWith(seen); // the screen shows an initial
  // Whole words must be equal once OCR look-alikes are merged: 'Sofia Rossa' is another person than 'Sofia Rossi'.
  return seen === claimed;
}

/**
 * Every line where a person's name appears: all its words in order on one line, each equal up to
 * case, accents and OCR look-alikes (`ocrKey`), initials matching whole words either way
 * ('Marcus L.'); or the whole name with its spaces lost or added, later words whole or cut to their
 * initial ('AnaP.'). At least one whole word must
 * match. No edit distance: a name one letter away is another person. What makes the name count
 * is also where it stands (the review's author line).
 *
 * Names as people write them (issue 31): accents, case and punctuation are folded on both sides
 * ('Lukasz Wrobel' is 'Łukasz Wróbel', 'Jurgen Weiss' is 'Jürgen Weiß', and the reverse); German
 * umlauts and the Nordic ø also match their two-letter spelling ('Mueller' is 'Müller'); a
 * hyphenated name's parts count as words ('Ana García' is the start of 'Ana García-López', as it is
 * of 'Ana García López').
 */
export function findNames(ocr: OcrText, name: string, options: { skipLines?: ReadonlySet<number> } = {}): Match[] {
  const best = new Map<number, number>();
  for (const spelling of [name, umlautSpelling(name)]) {
    if (spelling === null) continue;
    for (const m of findNamesSpelled(ocr, spelling, options)) best.set(m.line, Math.max(best.get(m.line) ?? 0, m.score));
  }
  return [...best.entries()].sort((a, b) => a[0] - b[0]).map(([line, score]) => ({ line, score }));
}

/** A line's text as it may spell a name: as read, with umlauts in two letters, with hyphens between words as spaces. */
function nameReadings(text: string): string[] {
  const unhyphenated = text.replace(/(?<=\p{L})[-‐‑](?=\p{L})/gu, ' ');
  return [...new Set([text, umlautSpelling(text), unhyphenated, umlautSpelling(unhyphenated)].filter((t): t is string => t !== null))];
}

function findNamesSpelled(ocr: OcrText, name: string, options: { skipLines?: ReadonlySet<number> }): Match[] {
  const claimed = words(name).map(ocrKey).filter(Boolean);
  if (claimed.length === 0) return [];
  const whole = claimed.filter((t) => t.length > 1);
  if (whole.length === 0) return [];
  const hasInitials = whole.length !== claimed.length;
  // The name with its spaces lost, whole or with later words cut to their initial as Yelp shows
  // them ('AnaP.' for Ana Pereira, 'MarcusL.' for Marcus L.).
  const joined = new Set(
    claimed.slice(1).reduce((forms, word) => forms.flatMap((f) => (word.length > 1 ? [f + word, f + word[0]] : [f + word])), [claimed[0]!]),
  );
  const longest = Math.max(...[...joined].map((j) => j.length));
  const found: Match[] = [];
  ocr.lines.forEach((line, index) => {
    if (options.skipLines?.has(index)) return;
    let best = 0;
    for (const text of nameReadings(line.text)) {
      const raw = text.split(/\s+/).filter((t) => ocrKey(t));
      const tokens = raw.map((t) => ocrKey(t));
      // OCR doubles a capital inside a word as the capital and its small letter ('NKkosi' for 'Nkosi').
      const undoubled = raw.map((t) => ocrKey(t.replace(/(?<=\p{L})(\p{Lu})(\p{Ll})/gu, (pair, big: string, small: string) => (big.toLowerCase() === small ? big : pair))));
      for (let start = 0; start + claimed.length <= tokens.length; start++) {
        const window = tokens.slice(start, start + claimed.length);
        const wholeWords = claimed.filter((c, k) => c.length > 1 && window[k]!.length > 1).length;
        if (wholeWords > 0 && claimed.every((c, k) => tokenMatches(c, window[k]!) || tokenMatches(c, undoubled[start + k]!))) best = Math.max(best, claimed.length + (hasInitials ? 0 : 0.5));
      }
      for (let start = 0; start < tokens.length; start++) {
        let window = '';
        for (let end = start; end < tokens.length && window.length < longest; end++) {
          window += tokens[end];
          // Words read whole and apart as the name's first words are those words, not the name
          // with its spaces lost: 'Fatima Zahra El' is not 'Fatima Zahra E. I.' (Fatima Zahra El
          // Idrissi's initials glued), whatever follows it.
          const apart = tokens.slice(start, end + 1).every((t, k) => t === claimed[k]);
          if (window.length >= 4 && joined.has(window) && !apart) best = Math.max(best, claimed.length);
        }
      }
    }
    // Yelp shows a member as their first name and the initial of their last ('Fatima I.', glued
    // 'FatimaI.', for Fátima El Idrissi; 'Nguyen L.' for Nguyen Thi Lan): a claim of three words or
    // more matches its first word whole and its last word's initial, where the screen shows an initial.
    if (best === 0 && claimed.length >= 3 && claimed[0]!.length > 1) {
      const first = claimed[0]!;
      const initial = claimed.at(-1)![0]!;
      for (const text of nameReadings(line.text)) {
        const tokens = text.split(/\s+/).map((t) => ocrKey(t)).filter(Boolean);
        if (tokens.some((t, k) => (t === first && tokens[k + 1] === initial) || t === first + initial)) best = 2;
      }
    }
    if (best > 0) found.push({ line: index, score: best });
  });
  return found;
}

/**
 * The lines that may show the customer's name misread (OCR's English model reads 'Łukasz' as
 * 'Fukasz', 'Gonçalves' as 'Gongalves', 'Jürgen' as 'Jiirgen'): those where the name's letters
 * (folded, OCR look-alikes merged) are found with a few edits, closest first, at most `max`. They
 * are only read again (with the models that know those letters); the name must then match as
 * `findNames` says, so a line chosen here never makes a match by itself.
 */
export function nameCandidateLines(ocr: OcrText, name: string, max = 3): number[] {
  const target = ocrKey(words(name).join(''));
  if (target.length < 3) return [];
  const allowed = Math.max(2, Math.ceil(target.length * 0.4));
  // ... or a line that is, as a whole, the name as Yelp shows a member: first name and last initial
  // ('Seren K.' read for Søren K., the customer having typed 'Soren Kjaergaard').
  const parts = words(name);
  const short = parts.length >= 2 ? ocrKey(parts[0]! + parts.at(-1)![0]!) : '';
  return ocr.lines
    .map((line, index) => {
      const text = ocrKey(line.text);
      const distance = substringDistance(text, target, allowed);
      const asShort = short.length >= 4 ? levenshtein(text, short, 2) : Infinity;
      return { index, distance: Math.min(distance <= allowed ? distance : Infinity, asShort <= 2 ? asShort : Infinity) };
    })
    .filter((c) => Number.isFinite(c.distance))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, max)
    .map((c) => c.index);
}

/**
 * Lines where the customer's name is read with one word off by one OCR look-alike letter (b/h,
 * h/n, e/c, e/g, g/q, u/v) in a word read under UNSURE_NAME_CONFIDENCE ('Ana Pcreira' blurred for
 * Ana Pereira), or with an 'l' read as the look-alike of 'ł' at any confidence ('tukasz W.' for
 * Łukasz W.): never a match (ADR 076: a name one letter away is another person), but, on the
 * review's author line, a proof for the owner to look at (`unsure_name`, ADR 077). Every other
 * word must match as `findNames` says; words of two letters or fewer are never the doubtful one.
 */
export function findUnsureNames(ocr: OcrText, name: string): Match[] {
  const claimed = words(name).map(ocrKey).filter(Boolean);
  if (!claimed.some((t) => t.length > 1)) return [];
  const found: Match[] = [];
  ocr.lines.forEach((line, index) => {
    const raw = line.text.split(/\s+/).filter((t) => ocrKey(t));
    const tokens = raw.map((t) => ocrKey(t));
    for (let start = 0; start + claimed.length <= tokens.length; start++) {
      let slips = 0;
      const fits = claimed.every((c, k) => {
        const seen = tokens[start + k]!;
        if (tokenMatches(c, seen)) return true;
        if (c.length <= 2) return false;
        // A letter beyond English misread ('tukasz' for Łukasz) is a doubt however sure OCR was.
        if (!oneLetterBeyondEnglish(seen, c) && (!oneConfusion(seen, c) || tokenConfidence(line, raw[start + k]!) >= UNSURE_NAME_CONFIDENCE)) return false;
        slips += 1;
        return true;
      });
      if (fits && slips === 1) {
        found.push({ line: index, score: claimed.length });
        return;
      }
    }
  });
  return found;
}

/** A word read below this confidence (0-100) may hold an OCR look-alike letter; the same bar as handles. */
const UNSURE_NAME_CONFIDENCE = 70;

/** The best line for a person's name, or null (see `findNames`). */
export function findName(ocr: OcrText, name: string, options: { skipLines?: ReadonlySet<number> } = {}): Match | null {
  let best: Match | null = null;
  for (const m of findNames(ocr, name, options)) if (!best || m.score > best.score) best = m;
  return best;
}

/** Words that name the kind of business rather than this one ('Crumb & Co Bakery' -> 'crumb co'). */
export const GENERIC_BUSINESS_WORDS = new Set([
  'the', 'and', 'bakery', 'cafe', 'coffee', 'restaurant', 'bar', 'grill', 'kitchen', 'shop', 'store', 'salon', 'studio',
  'llc', 'inc', 'ltd', 'company', 'house', 'pizzeria', 'bistro', 'pub', 'diner', 'market', 'spa',
]);

/**
 * Every line showing the business's name: consecutive whole tokens whose letters equal the name's
 * ('&' and 'and' alike, OCR look-alikes merged, spaces ignored), or its distinctive words when the
 * screen shortens it ('Crumb & Co' for 'Crumb & Co Bakery'). No edit distance: 'Crumb & Go' is
 * another business.
 */
export function findBusinessNames(ocr: OcrText, businessName: string, options: { skipLines?: ReadonlySet<number> } = {}): Match[] {
  const best = new Map<number, number>();
  for (const spelling of [businessName, strokeSpelling(businessName)]) {
    if (spelling === null) continue;
    for (const m of findBusinessNamesSpelled(ocr, spelling, options)) best.set(m.line, Math.max(best.get(m.line) ?? 0, m.score));
  }
  return [...best.entries()].sort((a, b) => a[0] - b[0]).map(([line, score]) => ({ line, score }));
}

/**
 * The business's name with 'ł' as the 't' OCR reads it ('Złota Kaczka' read 'Ztota Kaczka', by the
 * English model and often by the Polish one on a bold face); null when the name has none. The name
 * is ours (the survey's), so this is not a look-alike a customer chooses: no other place is named
 * 'Ztota Kaczka'. (A customer's name one such letter off is only doubt: `findUnsureNames`.)
 */
function strokeSpelling(name: string): string | null {
  return /[łŁ]/.test(name) ? name.replace(/ł/g, 't').replace(/Ł/g, 'T') : null;
}

function findBusinessNamesSpelled(ocr: OcrText, businessName: string, options: { skipLines?: ReadonlySet<number> }): Match[] {
  const full = businessKeys(businessName);
  const all = words(businessName.replace(/&/g, ' '));
  const distinct = all.filter((w) => !GENERIC_BUSINESS_WORDS.has(w));
  const short = distinct.length > 0 && distinct.length < all.length && distinct.join('').length >= 5 ? businessKeys(distinct.join(' ')) : [];
  const longest = Math.max(...full.map((k) => k.length), 1);
  const generic = all.filter((w) => GENERIC_BUSINESS_WORDS.has(w) && w.length >= 4);
  const cutGeneric = (token: string) => {
    const t = fold(token).replace(/[^a-z]/g, '');
    return t.length >= 3 && generic.some((w) => w !== t && w.startsWith(t)) && !/\p{L}/u.test(fold(token).replace(/^[a-z]+/, ''));
  };
  /** Whether a shortened name ends before `after` (the next token; on the next line: `wrapped`, where the name's own generic word may follow). */
  const endsThere = (after: string | undefined, wrapped: boolean) =>
    !/^\p{L}/u.test(after ?? '') || cutGeneric(after!) || (wrapped && generic.includes(fold(after!).replace(/[^a-z]/g, '')));
  const found: Match[] = [];
  ocr.lines.forEach((line, index) => {
    if (options.skipLines?.has(index)) return;
    const raw = cleanTokens(line.text);
    // Facebook's author line wraps the page's name: 'Daniel Kim recommends Pho Saigon' / 'Express.'
    // names 'Pho Saigon Express', not 'Pho Saigon House': a shortened name at the end of such a
    // line (no full stop) goes on with the next line's first word (past an avatar's initials).
    const next = ocr.lines[index + 1];
    const wrapped = RECOMMENDS.test(fold(line.text)) && !/\.$/.test(line.text.trim()) && next ? cleanTokens(next.text).find((t) => /^\p{L}{3}/u.test(fold(t))) : undefined;
    // Two readings of the line: '&' as 'and', and with '&', 'and' and stray one-character symbols dropped.
    const readings = [
      raw.map((t) => ocrKey(fold(t).replace(/&/g, 'and'))),
      raw.filter((t) => !/^(&|and)$/i.test(t) && !(t.length === 1 && !/[a-z]/i.test(t))).map((t) => ocrKey(t)),
    ];
    let best = 0;
    for (const [r, keys] of readings.entries()) {
      const tokens = r === 0 ? raw : raw.filter((t) => !/^(&|and)$/i.test(t) && !(t.length === 1 && !/[a-z]/i.test(t)));
      for (let start = 0; start < keys.length; start++) {
        let joined = '';
        for (let end = start; end < keys.length && joined.length < longest + 1; end++) {
          joined += keys[end];
          if (full.includes(joined)) best = Math.max(best, 2);
          // The shortened name must end there ('Little Fig' is not 'Little Fig Tea Room'), or go on
          // with the start of its own generic word ('Ember & Oak Gril': the last letter lost).
          else if (short.includes(joined) && endsThere(tokens[end + 1] ?? wrapped, tokens[end + 1] === undefined)) best = Math.max(best, 1);
        }
      }
    }
    if (best > 0) found.push({ line: index, score: best });
  });
  return found;
}

export function findBusinessName(ocr: OcrText, businessName: string, options: { skipLines?: ReadonlySet<number> } = {}): Match | null {
  let best: Match | null = null;
  for (const m of findBusinessNames(ocr, businessName, options)) if (!best || m.score > best.score) best = m;
  return best;
}

/**
 * A line's text without the words set far right of the rest: a post header's '···' menu or close
 * button beside the author line (Facebook, Instagram), which OCR reads as 'vee' or 'eee', is not
 * part of a name that wraps onto the next line. Words are far apart when the gap between them is
 * over three times the text's height (a space is about a third of it).
 */
function withoutFarRight(line: OcrLine): string {
  if (line.words.length < 2 || line.words.map((w) => w.text).join(' ') !== line.text) return line.text;
  const height = line.bbox.y1 - line.bbox.y0;
  const cut = line.words.findIndex((w, k) => k > 0 && w.bbox.x0 - line.words[k - 1]!.bbox.x1 > 3 * height);
  return cut < 0 ? line.text : line.words.slice(0, cut).map((w) => w.text).join(' ');
}

/** Lines where the business's whole name starts and wraps onto the next line. */
export function wrappedBusinessNames(ocr: OcrText, businessName: string): number[] {
  const single = new Set(findBusinessNames(ocr, businessName).filter((m) => m.score >= 2).map((m) => m.line));
  const found: number[] = [];
  for (let i = 0; i + 1 < ocr.lines.length; i++) {
    if (single.has(i) || single.has(i + 1)) continue;
    // The wrapped part starts at the text's left edge: words left of it are an avatar's initials ('DK').
    const next = ocr.lines[i + 1]!;
    const column = ocr.lines[i]!.bbox.x0;
    const rest = next.words.length > 0 ? next.words.filter((w) => w.bbox.x1 > column).map((w) => w.text).join(' ') : next.text;
    const pair = { ...ocr, lines: [{ ...ocr.lines[i]!, text: `${withoutFarRight(ocr.lines[i]!)} ${rest}` }] };
    if (findBusinessNames(pair, businessName).some((m) => m.score >= 2)) found.push(i);
  }
  return found;
}
