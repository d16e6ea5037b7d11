/**
 * Finding handles in OCR lines: exact up to OCR look-alikes and zeroes, mentions ('@crumbandco'),
 * wrapped handles, and the slips that send a screenshot to the owner's review.
 */
import { type ReviewReasonCode } from '../port.ts';
import { handleKey, normaliseHandle, levenshtein } from '../text.ts';
import type { Match } from './names.ts';
import type { OcrLine, OcrText } from './ocr.ts';
import { handleTokens, oneConfusion, tokenConfidence } from './tokens.ts';


/** A handle seen on a line: where, and whether it was written as a mention ('@crumbandco'). */
export type HandleMatch = {
  line: number;
  token: number;
  mention: boolean;
  /** Several tokens joined ('Harbor Light Diner' for harborlightdiner): a name, not a handle shown as one. */
  joined: boolean;
  /**
   * Set when the token is the handle only if OCR slipped, and it may as well be another account's
   * (`handleSlip`): such a match can anchor the judgement but never accept it; the proof then goes
   * to the owner's review with this code. Absent for a sure match.
   */
  doubt?: { code: ReviewReasonCode; seen: string };
};

/**
 * Zeros in a handle as read: the digit '0', and on platforms whose handles are lowercase only
 * (Instagram, TikTok; `lowercase`) a capital 'O' inside a lowercase handle, which is how OCR reads
 * a zero there ('nOnnastrattoria' is n0nnastrattoria). OCR reads a lowercase 'o' as a lowercase
 * 'o'; a zero where the business's handle has an 'o' is another account, not OCR noise. A handle
 * read in capitals (a story's mention sticker) cannot tell them apart and counts none.
 */
function zeroes(token: string, lowercase: boolean): number {
  const bare = token.replace(/^[@©®]+/, '');
  if (!/[a-z]/.test(bare)) return 0;
  return (bare.match(zeroPattern(bare, lowercase)) ?? []).length;
}

/**
 * What reads as a zero in a handle (see `zeroes`). Elsewhere than Instagram and TikTok (X, Facebook)
 * a handle may show capitals, but they start its words ('@BlueDoorCafe'); in a handle read all
 * lowercase, a lone capital 'O' between two lowercase letters is a zero ('@bluedOorcafe' is
 * blued0orcafe), as on Instagram.
 */
function zeroPattern(bare: string, lowercase: boolean): RegExp {
  if (lowercase) return /[0O]/g;
  return /[A-NP-Z]/.test(bare) ? /0/g : /0|(?<=[a-z])O(?=[a-z])/g;
}

/** A handle as read, its zeros written as zeros: the customer sees '@blued0orcafe', not '@bluedoorcafe'. */
function withZeroes(token: string, lowercase: boolean): string {
  const bare = token.replace(/^[@©®]+/, '');
  return /[a-z]/.test(bare) ? bare.replace(zeroPattern(bare, lowercase), '0') : bare;
}

/**
 * A handle read below this confidence (0-100) is read unsure: a confident look-alike elsewhere on
 * the profile then outweighs it (see `judgeSocial`). Low confidence never makes a match (issue 31).
 */
export const UNSURE_HANDLE_CONFIDENCE = 70;

/** Whether token `i` is written as a mention: '@handle' (or '©', '®' read for the '@'), or an '@' token just before it. */
function isMention(raw: readonly string[], i: number): boolean {
  return /^[@©®]/.test(raw[i]!) || (i > 0 && /^[@©®]$/.test(raw[i - 1]!));
}

/**
 * A token that is not the handle as read, but may be it with one OCR slip (issue 31, ADR 076 and
 * 077). Low confidence never makes a match; what it may do is send the proof to the owner:
 *
 * - `'forgiven'`: what no account can spell, at any confidence: a capital other than I before or
 *   after a handle on a platform whose handles are lowercase only (Instagram, TikTok: an icon, the
 *   '@', a verified badge or a chevron read as 'E', 'B', 'Q'...). The handle itself.
 * - `'stray_letter'` (needs_review): 'I' or '|' before or after such a handle. Instagram's and TikTok's
 *   sans-serif draw a capital I and a lowercase l alike, and 'l' + the handle is a valid account,
 *   so OCR cannot tell a stray icon from a look-alike account at any confidence.
 * - `'unsure_handle'` (needs_review): read under UNSURE_HANDLE_CONFIDENCE, one look-alike letter
 *   swapped ('@hluedoorcafe' for @bluedoorcafe) or one letter before it (where handles may have
 *   capitals, X and Facebook: '@Ilucassilva'): a blurred right handle, or another account whose
 *   owner blurred it. Only the owner, looking at the screenshot, can tell.
 * - `'unsure_handle'` too: the handle read without the underscore at its end or start, at any
 *   confidence ('@marianapena.' for @marianapena_).
 * - null: another account (read confidently, or any other edit: a letter added elsewhere, dropped,
 *   doubled or moved, a dot, a zero for an 'o').
 *
 * Only the look-alikes `handleKey` merges whatever the confidence (0/o, 1/l/i/|, rn/m, vv/w) are
 * the handle itself (no slip at all).
 */
function handleSlip(token: string, confidence: number, target: string, ownZeroes: number, lowercase: boolean): 'forgiven' | ReviewReasonCode | null {
  if (zeroes(token, lowercase) > ownZeroes) return null;
  const bare = token.replace(/^[@©®]+/, '');
  const seen = handleKey(bare);
  const unsure = confidence < UNSURE_HANDLE_CONFIDENCE;
  if (seen.length === target.length + 1 && seen.slice(1) === target) {
    if (lowercase && /^[I|]/.test(bare)) return 'stray_letter';
    if (lowercase && /^[A-Z]/.test(bare)) return 'forgiven';
    return unsure ? 'unsure_handle' : null;
  }
  // The same after the handle: Instagram's top bar draws the verified badge or the account
  // switcher's chevron right after the handle, and OCR reads it glued on as a letter.
  if (lowercase && seen.length === target.length + 1 && seen.slice(0, -1) === target) {
    if (/[I|]$/.test(bare)) return 'stray_letter';
    if (/[A-Z]$/.test(bare)) return 'forgiven';
  }
  // An underscore at the handle's end or start is a thin line on the baseline that OCR drops or reads
  // as a dot ('@marianapena.' for @marianapena_) at any confidence; '@marianapena' may also be
  // another account, so only the owner can tell.
  const bareTarget = target.replace(/^_+|_+$/g, '');
  if (bareTarget !== target && bareTarget.length >= 3 && seen.replace(/^_+|_+$/g, '') === bareTarget) return 'unsure_handle';
  return unsure && oneConfusion(seen, target) ? 'unsure_handle' : null;
}

/**
 * Every place a handle appears: one token, or up to three tokens joined across an OCR break, whose
 * `handleKey` equals the handle's (case, '@', URL form, underscores and OCR look-alikes aside;
 * nothing else forgiven, and no zero read where the handle has an 'o': see `zeroes`). `mention`:
 * written with '@' (or '©', '®', or an '@' token just before). `lowercase`: the platform's handles
 * are lowercase only.
 */
export function findHandles(ocr: OcrText, handle: string, options: { ignoreDots?: boolean; lowercase?: boolean } = {}): HandleMatch[] {
  const ownZeroes = zeroes(normaliseHandle(handle), false);
  const key = (value: string) => (options.ignoreDots ? handleKey(value).replace(/\./g, '') : handleKey(value));
  const target = key(normaliseHandle(handle));
  if (target.length < 2) return [];
  const found: HandleMatch[] = [];
  ocr.lines.forEach((line, index) => {
    const raw = handleTokens(line);
    for (let start = 0; start < raw.length; start++) {
      // OCR often reads an underscore (a thin line on the baseline) as a gap: '@thandiwe n' is
      // @thandiwe_n. A break may stand for one only where the handle itself has an underscore.
      let windows = [''];
      for (let end = start; end < raw.length && end < start + 3; end++) {
        windows = windows.flatMap((w) => (end > start && target.includes('_') ? [w + raw[end]!, `${w}_${raw[end]!}`] : [w + raw[end]!]));
        const window = windows.find((w) => key(w) === target);
        if (window !== undefined) {
          if (zeroes(window, options.lowercase === true) > ownZeroes) break;
          const at = isMention(raw, start);
          found.push({ line: index, token: start, mention: at, joined: end > start });
          break;
        }
      }
      const token = raw[start]!;
      if (found.at(-1)?.line === index && found.at(-1)?.token === start) continue;
      const slip = handleSlip(token, tokenConfidence(line, token), target, ownZeroes, options.lowercase === true);
      if (slip) {
        const at = isMention(raw, start);
        found.push({ line: index, token: start, mention: at, joined: false, ...(slip === 'forgiven' ? {} : { doubt: { code: slip, seen: token.replace(/^[@©®]+/, '') } }) });
      }
    }
  });
  return found;
}

/**
 * A handle one or two characters away from the business's ('crumbandc0' is OCR's and forgiven;
 * 'crumbandcoo', 'crumb.andco' are other accounts): the token as read, or null. Tokens of three
 * characters or fewer, and the handle itself, never count.
 */
export function findNearHandle(ocr: OcrText, handle: string, keep: (line: number, mention: boolean) => boolean, options: { lowercase?: boolean } = {}): string | null {
  const target = handleKey(normaliseHandle(handle));
  const ownZeroes = zeroes(normaliseHandle(handle), false);
  if (target.length < 5) return null;
  for (const [index, line] of ocr.lines.entries()) {
    const raw = handleTokens(line);
    for (let i = 0; i < raw.length; i++) {
      const mention = isMention(raw, i);
      const seen = handleKey(raw[i]!);
      if (seen.length < 4 || (seen === target && zeroes(raw[i]!, options.lowercase === true) <= ownZeroes) || !keep(index, mention)) continue;
      // (A slip is the handle, or for the owner to decide: `findHandles` counts it.)
      if (handleSlip(raw[i]!, tokenConfidence(line, raw[i]!), target, ownZeroes, options.lowercase === true)) continue;
      if (wrappedPart(ocr, index, seen, target)) continue;
      if (Math.abs(seen.length - target.length) <= 2 && levenshtein(seen, target, 2) <= 2) return withZeroes(raw[i]!, options.lowercase === true);
    }
  }
  return null;
}

/**
 * A piece of the handle wrapped onto two lines, its other piece on screen: X's post header
 * 'Casa Verde Cantina @ca' / 'saverdecantina · 3h' (or the two read into one line). The other
 * piece must be a token of its own, so a look-alike with a letter dropped is still one.
 */
function wrappedPart(ocr: OcrText, index: number, seen: string, target: string): boolean {
  if (seen.length === target.length) return false;
  const piece = target.endsWith(seen) ? target.slice(0, target.length - seen.length) : target.startsWith(seen) ? target.slice(seen.length) : null;
  // One letter is what a look-alike drops (and what an avatar's initial reads as).
  if (!piece || piece.length < 2) return false;
  const near = [ocr.lines[index - 1], ocr.lines[index], ocr.lines[index + 1]].filter((l): l is OcrLine => l !== undefined);
  return near.some((l) => handleTokens(l).some((t) => handleKey(t) === piece));
}

/** The first line showing a handle (as a mention, with `mention`), or null. */
export function findHandle(ocr: OcrText, handle: string, options: { mention?: boolean } = {}): Match | null {
  const m = findHandles(ocr, handle).find((h) => !h.doubt && (!options.mention || h.mention));
  return m ? { line: m.line, score: 10 } : null;
}
