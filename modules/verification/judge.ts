/**
 * The judgement of a screenshot from the text (and layout) read off it. Pure: no I/O, no clock, no
 * vendor code; the adapters read the image (OCR word boxes, button colours, star pixels, hash) and
 * ask the history, this decides (issue 13).
 *
 * A review passes when its link is a link of the claimed platform (and, where it names a business,
 * of this one), the screenshot is that platform's review layout and not another's, it is posted
 * (a date or 'ago' under the author line, no composer or Post button), the business is named
 * outside the review's words, and the author line is the customer's name. A follow passes when the
 * profile shown is the business's (its handle or name, matched exactly up to OCR look-alikes) and
 * the button next to the profile's name says Following (a filled 'Follow' button means not
 * following). A tag passes when the post's author is the customer and the post @mentions the
 * business, outside 'Liked by' lines and comments (stories' mention stickers and video overlays count).
 * Every failure has a code and a plain reason the customer can act on.
 */
import { PLATFORM_LABELS, type RejectionCode, type ReviewPlatform, type ReviewReasonCode, type SocialPlatform, type SocialVerificationType } from './port.ts';
import {
  CONTRIBUTIONS,
  COUNTER_WORDS as PROFILE_COUNTER_WORDS,
  FOLLOWED_BY,
  SOCIAL_COMPOSER_OPTIONS,
  SOCIAL_COMPOSER_TITLES,
  REPLYING_TO,
  MESSAGE,
  phraseList,
  PROFILE_WORDS,
  SOCIAL_PROFILES,
  SUGGESTIONS as SUGGESTION_HEADINGS,
  wordSet,
  DATE_LINE_WORDS,
  DAY_WORDS,
  FACEBOOK_REVIEWS,
  GOOGLE,
  MONTH_STEMS,
  OTHER_REVIEW_APPS,
  phrasePattern,
  type Phrases,
  phraseSource,
  RELATIVE_TIME,
  UI_LANGUAGES,
  YELP,
} from './profiles.ts';
import { businessKeys, fold, handleKey, levenshtein, normaliseHandle, normaliseReviewText, ocrKey, substringDistance, umlautSpelling, words } from './text.ts';

// ---------------------------------------------------------------------------------------------
// What the adapters hand over

export type Box = { x0: number; y0: number; x1: number; y1: number };
export type Rgb = { r: number; g: number; b: number };
/**
 * `fill`: the colour behind the word (the adapter samples it for words that may be a button:
 * Follow, Following, Friends, Liked...), so a filled call-to-action button can be told from a plain one.
 */
export type OcrWord = { text: string; confidence: number; bbox: Box; fill?: Rgb };
export type OcrLine = { text: string; confidence: number; bbox: Box; words: OcrWord[] };
/** OCR output in reading order; coordinates in the pixels of the image given to OCR; `background` the page's commonest colour. */
export type OcrText = { lines: OcrLine[]; width: number; height: number; background?: Rgb };

/** A row of five star shapes found in the pixels: its vertical centre and how many are filled. */
export type StarRow = { y: number; filled: number };

/** Builds an OcrText from plain lines (for tests and for adapters without boxes): one line per row, `lineHeight` apart. */
export function ocrFromText(text: string, lineHeight = 50): OcrText {
  const rows = text.split('\n');
  const lines: OcrLine[] = [];
  rows.forEach((row, index) => {
    if (!row.trim()) return;
    const y0 = index * lineHeight;
    let x = 0;
    const lineWords: OcrWord[] = row
      .trim()
      .split(/\s+/)
      .map((w) => {
        const word = { text: w, confidence: 90, bbox: { x0: x, y0, x1: x + w.length * 20, y1: y0 + lineHeight - 10 } };
        x += (w.length + 1) * 20;
        return word;
      });
    lines.push({ text: row.trim(), confidence: 90, bbox: { x0: 0, y0, x1: x, y1: y0 + lineHeight - 10 }, words: lineWords });
  });
  return { lines, width: 1080, height: Math.max(1, rows.length) * lineHeight };
}

/**
 * A judgement: accepted (`ok`), rejected (a RejectionCode and the customer's words), or sent to the
 * owner's review (`review`: a ReviewReasonCode and the owner's words, ADR 077). A review verdict is
 * `ok: false` so that code which knows only two verdicts never takes it for an acceptance.
 */
export type Verdict =
  | { ok: true; reviewText?: string; normalisedReviewText?: string; starRating?: number | null }
  | { ok: false; review?: undefined; code: RejectionCode; reason: string }
  | { ok: false; review: true; code: ReviewReasonCode; reason: string; reviewText?: string; normalisedReviewText?: string; starRating?: number | null };

export type Rejection = Extract<Verdict, { ok: false; review?: undefined }>;

const reject = (code: RejectionCode, reason: string): Rejection => ({ ok: false, code, reason });

/** The owner's review instead of an acceptance: `reason` says why the verifier was unsure, for the owner. */
export const needsReview = (code: ReviewReasonCode, reason: string): Verdict => ({ ok: false, review: true, code, reason });

/** A rejection (not an acceptance, not a review). */
export const isRejection = (verdict: Verdict): verdict is Rejection => !verdict.ok && !verdict.review;

// ---------------------------------------------------------------------------------------------
// Review links

const LINK_DOMAINS: Record<ReviewPlatform, RegExp> = {
  // google.com and country domains (google.co.uk, google.de), g.page, goo.gl (maps.app.goo.gl), g.co.
  google: /(^|\.)(google\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})|g\.page|goo\.gl|g\.co)$/,
  yelp: /(^|\.)(yelp\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})|yelp\.to)$/,
  facebook: /(^|\.)(facebook\.com|fb\.com|fb\.me)$/,
};

const LINK_EXAMPLES: Record<ReviewPlatform, string> = {
  google: 'a google.com, g.page or maps.app.goo.gl link',
  yelp: 'a yelp.com link',
  facebook: 'a facebook.com link',
};

/** Facebook paths whose first segment is not a page's name. */
const FACEBOOK_NON_PAGES = new Set(['profile.php', 'permalink.php', 'story.php', 'share', 'sharer', 'sharer.php', 'groups', 'watch', 'photo', 'photo.php', 'reel', 'events', 'marketplace', 'login', 'l.php', 'people', 'hashtag', 'stories', 'notes']);

/** The business a review link names in its path ('crumb and co bakery portland'), or null when the link is opaque (a short link, an id). */
export function businessNamedByLink(platform: ReviewPlatform, url: URL): string | null {
  const segments = url.pathname.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  });
  const host = url.hostname.toLowerCase();
  if (platform === 'yelp') {
    const biz = segments.indexOf('biz');
    const slug = biz >= 0 ? segments[biz + 1] : undefined;
    // A /biz/ slug is words and hyphens; an opaque id (22 characters of base64) is not a name.
    return slug && /-/.test(slug) ? slug.replace(/-/g, ' ') : null;
  }
  if (platform === 'google') {
    const place = segments.indexOf('place');
    if (place >= 0 && segments[place + 1] && !segments[place + 1]!.startsWith('@')) return segments[place + 1]!;
    if (/(^|\.)g\.page$/.test(host) && segments[0] && segments[0] !== 'r') return segments[0].replace(/[-_]/g, ' ');
    return null;
  }
  const first = segments[0]?.toLowerCase();
  // fb.me/<code> is a short link; facebook.com/<page> names the page.
  if (/(^|\.)fb\.me$/.test(host) || !first || FACEBOOK_NON_PAGES.has(first) || /^\d+$/.test(first)) return null;
  if (first === 'pages' && segments[1]) return segments[1].replace(/-/g, ' ');
  return segments[0]!;
}

/** Words of a business name that are long enough to mean something (not 'the', 'cafe', 'co'). */
function distinctiveWords(businessName: string): string[] {
  return words(businessName.replace(/&/g, ' ')).filter((w) => !GENERIC_BUSINESS_WORDS.has(w) && w.length >= 3);
}

/**
 * The review link must be an http(s) URL on the platform's domain (a missing scheme is forgiven)
 * and, where its path names a business, name ours: the whole name, the survey's handle, or the
 * name's first distinctive word ('crumb' in facebook.com/crumbpdx); a Google place or a Yelp slug
 * names the whole listing, so there every distinctive word must agree. Opaque short links pass.
 */
export function checkReviewLink(platform: ReviewPlatform, link: string, business?: { name: string; handle?: string }): Verdict {
  const label = PLATFORM_LABELS[platform];
  const raw = String(link ?? '').trim();
  let url: URL | null = null;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    url = null;
  }
  if (!raw || !url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname.includes('.')) {
    return reject('not_posted', `The review link doesn't look like a web address. Open your posted ${label} review, copy its link and paste it here (it starts with https://).`);
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!LINK_DOMAINS[platform].test(host)) {
    const other = (Object.keys(LINK_DOMAINS) as ReviewPlatform[]).find((p) => p !== platform && LINK_DOMAINS[p].test(host));
    return reject(
      'wrong_platform',
      other
        ? `The review link goes to ${PLATFORM_LABELS[other]}, not ${label}. Paste the link to your review on ${label}.`
        : `The review link goes to ${host}, not ${label}. Paste the link to your review on ${label} (${LINK_EXAMPLES[platform]}).`,
    );
  }
  if (business?.name.trim()) {
    const named = businessNamedByLink(platform, url);
    if (named && !linkNamesBusiness(named, business.name, business.handle, platform)) {
      return reject(
        'wrong_business',
        `The review link is for another business ("${named.slice(0, 60)}"). Paste the link to your ${label} review of ${business.name.trim()}.`,
      );
    }
  }
  return { ok: true };
}

function linkNamesBusiness(named: string, businessName: string, handle?: string, platform?: ReviewPlatform): boolean {
  // A Google place link carries the listing's whole name ('Casa+Verde+Cocina'): one name must
  // hold every distinctive word of the other, so a look-alike sharing the first words is not ours.
  if (platform === 'google') {
    const ours = distinctiveWords(businessName);
    const theirs = distinctiveWords(named);
    if (ours.length > 0 && theirs.length > 0 && !theirs.every((w) => ours.includes(w)) && !ours.every((w) => theirs.includes(w))) return false;
  }
  // A Yelp slug is the listing's whole name and its city ('the-copper-pot-savannah'): every
  // distinctive word of ours must be in it, so 'Copper Pot' is not 'The Copper Kettle'.
  if (platform === 'yelp') {
    const ours = distinctiveWords(businessName);
    const slug = words(named).map(ocrKey);
    if (ours.length > 0 && !ours.every((w) => slug.includes(ocrKey(w))) && !(handle && normaliseHandle(handle) && handleKey(named).includes(handleKey(normaliseHandle(handle))))) return false;
  }
  // A Facebook page's username is unique: where the survey has the page's handle, a link to a page
  // by another username is another page, even one with our name in it ('rosastaqueriaofficial'
  // beside the survey's 'rosastaqueria'). (A /pages/<Name>/<id> link names the page by its title.)
  // Facebook ignores periods in usernames ('pierogarniauzosi' is the page 'pierogarnia.uzosi').
  if (platform === 'facebook' && handle && normaliseHandle(handle) && !/\s/.test(named)) return handleKey(named).replace(/\./g, '') === handleKey(normaliseHandle(handle)).replace(/\./g, '');
  const linkKeys = businessKeys(named);
  if (businessKeys(businessName).some((k) => linkKeys.some((l) => l.includes(k)))) return true;
  if (handle && normaliseHandle(handle) && handleKey(named) === handleKey(normaliseHandle(handle))) return true;
  // Else the name's first distinctive word ('crumb' in yelp.com/biz/crumb-pdx); 'trattoria' alone
  // does not make nonnos-trattoria ours.
  const head = distinctiveWords(businessName)[0];
  return head !== undefined && linkKeys.some((l) => l.includes(ocrKey(head)));
}

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
          if (window.length >= 4 && joined.has(window)) best = Math.max(best, claimed.length);
        }
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
  return ocr.lines
    .map((line, index) => ({ index, distance: substringDistance(ocrKey(line.text), target, allowed) }))
    .filter((c) => c.distance <= allowed)
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, max)
    .map((c) => c.index);
}

/**
 * Lines where the customer's name is read with one word off by one OCR look-alike letter (b/h,
 * h/n, e/c, e/g, g/q, u/v) in a word read under UNSURE_NAME_CONFIDENCE ('Ana Pcreira' blurred for
 * Ana Pereira): never a match (ADR 076: a name one letter away is another person), but, on the
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
        if (c.length <= 2 || !oneConfusion(seen, c) || tokenConfidence(line, raw[start + k]!) >= UNSURE_NAME_CONFIDENCE) return false;
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
const GENERIC_BUSINESS_WORDS = new Set([
  'the', 'and', 'bakery', 'cafe', 'coffee', 'restaurant', 'bar', 'grill', 'kitchen', 'shop', 'store', 'salon', 'studio',
  'llc', 'inc', 'ltd', 'company', 'house', 'pizzeria', 'bistro', 'pub', 'diner', 'market', 'spa',
]);

/** Tokens of a line cleaned of wrapping punctuation ('(@crumbandco)' -> '@crumbandco'). */
function cleanTokens(text: string): string[] {
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
function handleTokens(line: OcrLine): string[] {
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

/**
 * Every line showing the business's name: consecutive whole tokens whose letters equal the name's
 * ('&' and 'and' alike, OCR look-alikes merged, spaces ignored), or its distinctive words when the
 * screen shortens it ('Crumb & Co' for 'Crumb & Co Bakery'). No edit distance: 'Crumb & Go' is
 * another business.
 */
export function findBusinessNames(ocr: OcrText, businessName: string, options: { skipLines?: ReadonlySet<number> } = {}): Match[] {
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

/** Lines where the business's whole name starts and wraps onto the next line. */
function wrappedBusinessNames(ocr: OcrText, businessName: string): number[] {
  const single = new Set(findBusinessNames(ocr, businessName).filter((m) => m.score >= 2).map((m) => m.line));
  const found: number[] = [];
  for (let i = 0; i + 1 < ocr.lines.length; i++) {
    if (single.has(i) || single.has(i + 1)) continue;
    // The wrapped part starts at the text's left edge: words left of it are an avatar's initials ('DK').
    const next = ocr.lines[i + 1]!;
    const column = ocr.lines[i]!.bbox.x0;
    const rest = next.words.length > 0 ? next.words.filter((w) => w.bbox.x1 > column).map((w) => w.text).join(' ') : next.text;
    const pair = { ...ocr, lines: [{ ...ocr.lines[i]!, text: `${ocr.lines[i]!.text} ${rest}` }] };
    if (findBusinessNames(pair, businessName).some((m) => m.score >= 2)) found.push(i);
  }
  return found;
}

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
const UNSURE_HANDLE_CONFIDENCE = 70;

/** A look-alike handle read at least this sure (0-100) outweighs the handle itself read unsure. */
const CONFIDENT_LOOK_ALIKE = 80;

/** Whether token `i` is written as a mention: '@handle' (or '©', '®' read for the '@'), or an '@' token just before it. */
function isMention(raw: readonly string[], i: number): boolean {
  return /^[@©®]/.test(raw[i]!) || (i > 0 && /^[@©®]$/.test(raw[i - 1]!));
}

/** How sure OCR was of the word holding a token (the line's confidence when no word box holds it). */
function tokenConfidence(line: OcrLine, token: string): number {
  const core = token.replace(/^[@©®]+/, '');
  return line.words.find((w) => w.text.includes(core))?.confidence ?? line.confidence;
}

/** Letter pairs OCR confuses in a word it reads unsure of (b/h, h/n, e/c, e/g, g/q, u/v). */
const OCR_CONFUSIONS = new Set(['bh', 'hb', 'hn', 'nh', 'ec', 'ce', 'eg', 'ge', 'gq', 'qg', 'uv', 'vu']);

/** `seen` is `target` with exactly one letter swapped for its OCR look-alike (OCR_CONFUSIONS). */
function oneConfusion(seen: string, target: string): boolean {
  if (seen.length !== target.length) return false;
  const swaps = [...seen].flatMap((c, i) => (c === target[i] ? [] : [c + target[i]!]));
  return swaps.length === 1 && OCR_CONFUSIONS.has(swaps[0]!);
}

/**
 * A token that is not the handle as read, but may be it with one OCR slip (issue 31, ADR 076 and
 * 077). Low confidence never makes a match; what it may do is send the proof to the owner:
 *
 * - `'forgiven'`: what no account can spell, at any confidence: a capital other than I before a
 *   handle on a platform whose handles are lowercase only (Instagram, TikTok: an icon or the '@'
 *   read as 'E', 'B'...). The handle itself.
 * - `'stray_letter'` (needs_review): 'I' or '|' before such a handle. Instagram's and TikTok's
 *   sans-serif draw a capital I and a lowercase l alike, and 'l' + the handle is a valid account,
 *   so OCR cannot tell a stray icon from a look-alike account at any confidence.
 * - `'unsure_handle'` (needs_review): read under UNSURE_HANDLE_CONFIDENCE, one look-alike letter
 *   swapped ('@hluedoorcafe' for @bluedoorcafe) or one letter before it (where handles may have
 *   capitals, X and Facebook: '@Ilucassilva'): a blurred right handle, or another account whose
 *   owner blurred it. Only the owner, looking at the screenshot, can tell.
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

// ---------------------------------------------------------------------------------------------
// Platform markers

/**
 * Facebook's author line ('Priya Shah recommends Crumb & Co', 'empfiehlt', 'poleca'); French
 * 'recommande' only when no 'je', 'nous'... stands before it (a reviewer's own 'je recommande' in
 * the text is not the author line).
 */
const RECOMMENDS = new RegExp(`\\b(${phraseSource(FACEBOOK_REVIEWS.recommends)})\\b|(?<!\\b(je|j'|nous|vous|on|tu|ne)\\s?)\\brecommande\\b`);

type Marker = { pattern: RegExp; weight: number };

/** A number then one of the words ('23 reviews', '12 Rezensionen', '5 opinii'). */
const counted = (...lists: Phrases[]) => new RegExp(`\\b\\d+ (${phraseSource(...lists)})\\b`);
/** Any of the phrases, then any of the others later on the line. */
const thenOn = (a: Phrases, b: Phrases) => new RegExp(`\\b(${phraseSource(a)})\\b.*\\b(${phraseSource(b)})\\b`);

/** Relative times in every language (see `RELATIVE_TIME`). */
const RELATIVE = new RegExp(UI_LANGUAGES.map((l) => RELATIVE_TIME[l]).join('|'), 'u');

/**
 * Markers per review platform, matched against folded lines; each counts once. What both Google
 * and Yelp show (a star row, 'N reviews') counts for both, so the platform's own words decide:
 * today's Yelp shows reactions (Helpful, Thanks, Love this, Oh no), 'Check in', friends and Elite
 * badges; Google shows 'Local Guide', '... ago', Like/Share and the owner's response. The words
 * per language are in `profiles.ts`.
 */
const REVIEW_MARKERS: Record<ReviewPlatform, Marker[]> = {
  google: [
    { pattern: /\bgoogle\b/, weight: 2 },
    { pattern: phrasePattern(GOOGLE.localGuide), weight: 3 },
    { pattern: phrasePattern(GOOGLE.ownerResponse), weight: 2 },
    // The review's relative date ('3 days ago', 'vor 3 Wochen', '2 dni temu'; OCR may glue the
    // words: '3daysago', '2dnitemu').
    { pattern: RELATIVE, weight: 1 },
    { pattern: counted(GOOGLE.reviewCounts), weight: 1 },
    // Google's Like and Share under a review (Facebook's row also has Comment).
    { pattern: new RegExp(`^(?!.*\\b(${phraseSource(FACEBOOK_REVIEWS.comment)})\\b).*\\b(${phraseSource(GOOGLE.like)})\\b.*\\b(${phraseSource(GOOGLE.share)})\\b`), weight: 2 },
    { pattern: /\bmaps\b/, weight: 1 },
    { pattern: phrasePattern(GOOGLE.visited), weight: 2 },
    // The place sheet's tabs ('Overview  Reviews  Photos', 'Übersicht Rezensionen', 'Przegląd Opinie')
    // and the sort chips ('Most relevant', 'Newest  Highest').
    { pattern: new RegExp(`${thenOn(GOOGLE.overview, GOOGLE.reviewsTab).source}|\\bnewest\\b.*\\bhighest\\b|\\b(${phraseSource(GOOGLE.tabs)})\\b`), weight: 1 },
  ],
  yelp: [
    { pattern: /\byelp\b/, weight: 2 },
    // The reactions row ('Helpful  Thanks  Love this  Oh no'): two of them on one line.
    { pattern: new RegExp(`\\b(${phraseSource({ en: [...YELP.helpful.en, ...YELP.thanks.en, ...YELP.loveThis.en, ...YELP.ohNo.en] })})\\b.*\\b(${phraseSource({ en: [...YELP.thanks.en, ...YELP.loveThis.en, ...YELP.ohNo.en] })})\\b`), weight: 3 },
    // ... in the other languages the first two side by side, only counts and icons between ('Útil
    // 9 Gracias 2', 'Utile Merci', 'Hilfreich Danke', 'Pomocne Dzięki'): those words alone are
    // common in a review's text.
    { pattern: new RegExp(`\\b(${phraseSource({ ...YELP.helpful, en: [] })})\\b[^a-z]{0,8}\\b(${phraseSource({ ...YELP.thanks, en: [] })})\\b`), weight: 3 },
    { pattern: phrasePattern(YELP.ownReactions), weight: 2 },
    { pattern: phrasePattern({ en: YELP.helpful.en }), weight: 1 },
    { pattern: /\buseful\b.*\bfunny\b|\bfunny\b.*\bcool\b/, weight: 3 },
    { pattern: /\buseful\b/, weight: 1 },
    { pattern: phrasePattern(YELP.elite), weight: 2 },
    { pattern: phrasePattern(YELP.recommendedReviews), weight: 2 },
    // The reviewer's friends ('12 friends', '108 Freunde'): Google has no friends.
    { pattern: counted(YELP.friends), weight: 2 },
    { pattern: phrasePattern(YELP.checkIns), weight: 2 },
    { pattern: counted(YELP.reviewCounts), weight: 1 },
    { pattern: phrasePattern(YELP.updated), weight: 2 },
  ],
  facebook: [
    { pattern: /\bfacebook\b|\bfb\.com\b/, weight: 3 },
    { pattern: RECOMMENDS, weight: 3 },
    // The action bar: Like, Comment, Share (Google's has no Comment).
    { pattern: new RegExp(`${thenOn(FACEBOOK_REVIEWS.like, FACEBOOK_REVIEWS.comment).source}|${thenOn(FACEBOOK_REVIEWS.comment, FACEBOOK_REVIEWS.share).source}`), weight: 3 },
    { pattern: phrasePattern(FACEBOOK_REVIEWS.recommend), weight: 1 },
    { pattern: phrasePattern(FACEBOOK_REVIEWS.comments), weight: 1 },
    { pattern: phrasePattern(FACEBOOK_REVIEWS.audience), weight: 1 },
  ],
};

/** Profile words of every platform in the languages other than English (counters, tabs, Message): they say 'a profile', not which. */
const PROFILE_WORDS_OTHER_LANGUAGES: Marker = { pattern: phrasePattern(PROFILE_WORDS), weight: 1 };

const SOCIAL_MARKERS: Record<SocialPlatform, Marker[]> = {
  instagram: [
    PROFILE_WORDS_OTHER_LANGUAGES,
    { pattern: /\binstagram\b/, weight: 3 },
    // The profile's counter row names posts and followers together ('posts followers following',
    // 'publicaciones seguidores seguidos'); X, TikTok and Facebook count no posts there.
    // ('publicações' often reads with its accented ending garbled: 'publicacées').
    // German 'Beiträge  Follower  Gefolgt', Polish 'posty  obserwujących  obserwowani'.
    { pattern: /\b(posts|publica[a-z]{3,6}|publications|beitrage|posty|postow)\b.*\b(followers|seguidores|abonnes|abonnees|follower|obserwujacych)\b/, weight: 2 },
    // 'Followed by ana and 12 others', 'Gefolgt von', 'Obserwowany(-a) przez'.
    { pattern: phrasePattern(FOLLOWED_BY), weight: 2 },
    { pattern: /\bliked by\b/, weight: 2 },
    { pattern: /\bview all \d+ comments?\b/, weight: 2 },
    { pattern: /\badd a comment\b/, weight: 2 },
    { pattern: /\bsend message\b/, weight: 2 },
    { pattern: /\boriginal audio\b/, weight: 2 },
    { pattern: /\bposts\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    // The follow button's label when followed ('Following', 'Gefolgt', 'Folge ich', 'Obserwujesz').
    { pattern: phrasePattern(SOCIAL_PROFILES.instagram.following), weight: 1 },
    { pattern: phrasePattern(MESSAGE), weight: 1 },
    { pattern: /\breels?\b/, weight: 1 },
    { pattern: /\b\d+ (likes|others)\b/, weight: 1 },
  ],
  x: [
    PROFILE_WORDS_OTHER_LANGUAGES,
    { pattern: /\bx\.com\b|\btwitter\b/, weight: 3 },
    // 'Joined March 2019', German 'Mitglied seit März 2019', Polish 'Dołączył(a) w marcu 2019'.
    { pattern: /\bjoined \w+ \d{4}\b|\bmitglied seit\b|\bdolaczyl(a|\(a\))? w\b/, weight: 2 },
    { pattern: /\bpost your reply\b/, weight: 2 },
    { pattern: /\bfollows you\b|\bfolgt dir\b|\bobserwuje cie\b/, weight: 1 },
    { pattern: /\breplies\b/, weight: 1 },
    { pattern: /\breposts?\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    // The follow button's label when followed ('Following', 'Gefolgt', 'Folge ich', 'Obserwujesz').
    { pattern: phrasePattern(SOCIAL_PROFILES.x.following), weight: 1 },
    { pattern: /\bposts\b/, weight: 1 },
    { pattern: /\bmedia\b/, weight: 1 },
    { pattern: /@\w+ ?[-·.] ?\d+[smhd]\b/, weight: 1 },
  ],
  tiktok: [
    PROFILE_WORDS_OTHER_LANGUAGES,
    { pattern: /\btiktok\b/, weight: 3 },
    // The profile's counter row, in en/es/fr/pt ('Seguindo Seguidores Curtidas').
    // German 'Gefolgt  Follower  Likes', Polish 'Obserwowani  Obserwujący  Polubienia'.
    { pattern: /\b(following|siguiendo|seguindo|abonnements|gefolgt|obserwowani)\b.*\b(followers|seguidores|abonnes|abonnees|follower|obserwujacy)\b.*\b(likes|me gusta|curtidas|j'+aime|polubienia)\b/, weight: 3 },
    { pattern: /\boriginal sound\b/, weight: 2 },
    { pattern: /\blikes\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    // The follow button's label when followed ('Following', 'Gefolgt', 'Folge ich', 'Obserwujesz').
    { pattern: phrasePattern(SOCIAL_PROFILES.tiktok.following), weight: 1 },
    { pattern: phrasePattern(MESSAGE), weight: 1 },
    { pattern: /\bfor you\b/, weight: 1 },
    { pattern: /\badd comment\b/, weight: 1 },
  ],
  facebook: [
    PROFILE_WORDS_OTHER_LANGUAGES,
    { pattern: /\bfacebook\b|\bfb\.com\b/, weight: 3 },
    // (OCR doubles the apostrophe of 'J’aime': 'J’'aime'.)
    // German '1.234 „Gefällt mir“-Angaben · 2.345 Follower', Polish '1234 polubień · 2345 obserwujących'.
    { pattern: /\b[\d.,]+k? (likes|curtidas|me gusta|j'+aime|\W*gefallt mir\W*-angaben|polubien)\b.*\b(followers|seguidores|abonnes|follower|obserwujacych)\b/, weight: 2 },
    { pattern: /\bintro\b/, weight: 2 },
    { pattern: /\blike\b.*\bcomment\b|\bcomment\b.*\bshare\b/, weight: 2 },
    // A post's time followed by its audience icon (the globe, read as '@', '®' or '©'):
    // 'November 20 · 🌐', '2 hours ago · 🌐'. Other apps put nothing after a post's time.
    { pattern: /(\d|\bago|\byesterday|\bjust now|\bhace\b|\bayer\b|\bil y a\b|\bhier\b|\bha\b|\bontem\b).*\s[-·•]\s?[@®©]$/, weight: 2 },
    // The reactions row counts comments and shares in words ('128  2 comments  3 shares');
    // Instagram's is 'View all 2 comments'.
    { pattern: /(?<!\bview all )\b\d+ (comments?|shares?|comentarios|commentaires)\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    // The follow button's label when followed ('Following', 'Gefolgt', 'Folge ich', 'Obserwujesz').
    { pattern: phrasePattern(SOCIAL_PROFILES.facebook.following), weight: 1 },
    { pattern: phrasePattern(MESSAGE), weight: 1 },
    { pattern: /\babout\b/, weight: 1 },
    { pattern: /\breviews\b/, weight: 1 },
  ],
};

function markerScore(lines: string[], markers: Marker[]): number {
  let score = 0;
  for (const marker of markers) if (lines.some((line) => marker.pattern.test(line))) score += marker.weight;
  return score;
}

/** The platform markers' scores of every review platform (a star row counts for Google and Yelp). */
export function reviewPlatformScores(ocr: OcrText, starRows: readonly StarRow[] = []): Record<ReviewPlatform, number> {
  const lines = ocr.lines.map((l) => fold(l.text));
  const stars = starRows.length > 0 ? 1 : 0;
  return {
    google: markerScore(lines, REVIEW_MARKERS.google) + stars,
    yelp: markerScore(lines, REVIEW_MARKERS.yelp) + stars,
    facebook: markerScore(lines, REVIEW_MARKERS.facebook),
  };
}

export function socialPlatformScores(ocr: OcrText): Record<SocialPlatform, number> {
  const lines = ocr.lines.map((l) => fold(l.text));
  return {
    instagram: markerScore(lines, SOCIAL_MARKERS.instagram),
    x: markerScore(lines, SOCIAL_MARKERS.x),
    tiktok: markerScore(lines, SOCIAL_MARKERS.tiktok),
    facebook: markerScore(lines, SOCIAL_MARKERS.facebook),
  };
}

/** A screenshot "looks like" a platform from this score; another platform must beat the claimed one by the margin to call it wrong. */
export const REVIEW_MARKER_THRESHOLD = 3;
export const SOCIAL_MARKER_THRESHOLD = 2;
const WRONG_PLATFORM_MARGIN = 2;

// ---------------------------------------------------------------------------------------------
// Layout: dates, composers, review text, stars

// Month names by their first letters in every UI language (profiles.ts), and OCR's '0ct'.
const MONTHS = `(${MONTH_STEMS.join('|')})[a-z]*\\.?`;
const DATE_PATTERNS = [
  // '2 days ago', 'hace 2 días', 'il y a 3 jours', 'há 2 semanas', 'vor 2 Tagen', '2 dni temu'
  ...UI_LANGUAGES.map((lang) => new RegExp(RELATIVE_TIME[lang], 'u')),
  new RegExp(`\\b${MONTHS}\\s*\\d{1,2}(st|nd|rd|th)?\\b(,?\\s*\\d{4})?`),
  // '3 Nov 2026', '3 de noviembre de 2026', German '27. Sept. 2026', Polish '27 wrz 2026'
  new RegExp(`\\b\\d{1,2}\\.?\\s*(de\\s+)?${MONTHS}(\\s+(de\\s+)?\\d{4})?\\b`),
  // OCR glued or garbled the day: 'Novio2026', 'Nov19,2026'
  new RegExp(`\\b${MONTHS}[0-9il]{1,2}[,.\\s]*\\d{2,4}\\b`),
  // ... or glued the whole date: '19nov2026', '19n0v.2026' (French and Portuguese order)
  new RegExp(`\\b\\d{1,2}${MONTHS}\\s*\\d{4}\\b`),
  /\b\d{1,2}[/.]\d{1,2}[/.](\d{4}|\d{2})\b/,
  /\b\d{4}-\d{2}-\d{2}\b/,
  /\bjust now\b/,
  // A relative time alone on its line, its number lost and first letter misread ('jays ago' on a dim photo)
  /^\W{0,3}[a-z]?(ays|ours|eeks|onths|ears) ago\W{0,3}$/,
  // 'Yesterday', 'Today' (Facebook's 'Yesterday at 3:14 PM'), 'Gestern', 'Wczoraj'
  new RegExp(`(^|[^a-z])(${phraseSource(DAY_WORDS)})($|[^a-z])`),
];
/** Short relative times of social posts and Facebook reviews: '2h', '3d', '1w' as a token of its own. */
const SHORT_AGO = /(^|[^a-z0-9])\d{1,2}\s?[smhdwj]($|[^a-z0-9])/;

const DATE_WORDS = new RegExp(`^(${phraseSource(DATE_LINE_WORDS, DAY_WORDS)}|${MONTH_STEMS.join('|')})$`);

/** The line without its date words, numbers and stray marks (what is left tells a date line from a sentence). */
function withoutDateWords(text: string): string {
  return text
    .split(/\s+/)
    .filter((t) => {
      const w = fold(t).replace(/[^a-z]/g, '');
      return w.length >= 3 && !DATE_WORDS.test(w);
    })
    .join(' ');
}

/** Words of a line, not counting what OCR made of star icons and bullets ('w % % % %'). */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((t) => /[\p{L}\p{N}]{2}/u.test(t)).length;
}

/** A line that carries a date or a relative time ('2 days ago', 'Nov 3, 2025', '11/3/2025'). */
export function isDateLine(text: string, options: { short?: boolean } = {}): boolean {
  // OCR reads a month's 'o' as a zero between letters ('n0v', 'n0vembre'), and the 'á' of 'há' as '&'.
  const folded = fold(text)
    .replace(/(?<=[a-z])0(?=[a-z])/g, 'o')
    .replace(/\bh&(?=\s)/g, 'ha');
  return DATE_PATTERNS.some((p) => p.test(folded)) || (options.short === true && SHORT_AGO.test(folded));
}

/**
 * What only a review being written shows: the composer's prompts and its Post button. A posted
 * review never shows them (the platforms' 'Write a review' buttons beside posted reviews do not count).
 */
const COMPOSER_PATTERNS = [
  /\bposting publicly\b/,
  /\bshare (more )?(details|about) (of )?your (own )?experience\b/,
  /\bstart your review\b/,
  /\bselect your rating\b/,
  /\btap to rate\b/,
  /\breviews need to be at least\b/,
  /\bwhat do you recommend\b/,
  /\bdo you recommend\b/,
  /\bkeep (your )?draft\b|\bsave draft\b|\bdiscard\b/,
];

/** A messaging app's words: presence, receipts, the message box. */
const CHAT_WORDS = /^(online|en linea|en ligne|last seen|typing|delivered|read \d|imessage|text message|type a message|escribe un mensaje|ecrire un message|digite uma mensagem|mensagem)\b/;
/** A contact's presence in a messaging app's title bar. */
const CHAT_PRESENCE = /\b(online|last seen|typing|en linea|en ligne|escribiendo|digitando)\b/;
/** A note or a form that writes a review out: 'Reviewer: Sam', 'Rating: 5', a note's 'November 21, 2026 at 18:04'. */
const NOTE_WORDS = /^(reviewer|rating|review|stars|business|restaurant|place)\s*:|\b(19|20)\d{2},? at \d{1,2}:\d{2}\b|\bpost (it )?on (google|yelp|facebook)\b|\breview us\b|\bscan to (review|leave)\b|\bleave us a review\b/;
/** A time of day on a line of its own, beside a message ('09:14', '9:14 PM ✓✓'). */
const CHAT_TIME = /^\d{1,2}:\d{2}( ?[ap]\.?m\.?)?( \S{1,3})?$/;
/** A messaging app's day separator with a time ('Today 10:15'; Facebook's review date says 'Yesterday at 3:14 PM'). */
const CHAT_DAY = /^(today|yesterday|hoy|ayer|aujourd'?hui|hier|hoje|ontem),? \d{1,2}:\d{2}\b/;

/**
 * A chat (or a note) that quotes a review: a messaging app's words, or two message times below the
 * status bar. A review pasted into a chat is not the review.
 */
export function looksLikeChat(ocr: OcrText): boolean {
  const belowStatusBar = ocr.height * 0.06;
  const times = ocr.lines.filter((l) => l.bbox.y0 > belowStatusBar && CHAT_TIME.test(fold(l.text).trim())).length;
  // A conversation's title bar: the contact's presence beside or under their name ('< Reviews online').
  const header = ocr.lines.some((l) => l.bbox.y1 < ocr.height * 0.12 && CHAT_PRESENCE.test(fold(l.text)) && !/\b(order|pedir|commander|pedido)\b/.test(fold(l.text)));
  return times >= 2 || header || ocr.lines.some((l) => CHAT_WORDS.test(fold(l.text).trim()) || NOTE_WORDS.test(fold(l.text).trim()) || CHAT_DAY.test(fold(l.text).trim()));
}

/** A composer's Post button in every language of the apps' chrome ('Publicar reseña', "Publier l'avis"). */
const COMPOSER_BUTTONS = new Set(['post', 'submit', 'publish', 'publicar', 'publier', 'postar', 'enviar', 'envoyer']);
const COMPOSER_COMPANIONS = new Set(['review', 'cancel', 'x', 'next', 'back', 'avis', "l'avis", 'cancelar', 'annuler', 'avaliacao', 'resena']);
/** 'reseña' as OCR reads its ñ ('reseia', 'resefia', 'resena'). */
const companion = (w: string) => COMPOSER_COMPANIONS.has(w) || /^rese[a-z]{1,3}a$/.test(w) || /^avalia[a-z]{2,4}$/.test(w);

/** The first line that belongs to a review composer (a prompt, or a Post button on a line of its own), or -1. */
export function composerLine(ocr: OcrText): number {
  return ocr.lines.findIndex((l) => {
    const folded = fold(l.text).replace(/[^a-z' ]+/g, ' ').replace(/\s+/g, ' ').trim();
    if (COMPOSER_PATTERNS.some((p) => p.test(folded))) return true;
    const ws = folded.split(' ').filter((w) => w.length > 1 || w === 'x');
    return ws.length > 0 && ws.length <= 3 && ws.some((w) => COMPOSER_BUTTONS.has(w)) && ws.every((w) => COMPOSER_BUTTONS.has(w) || companion(w));
  });
}

/**
 * A composer's photo button on a line of its own ('Add photo', 'Add photos or videos'): with no
 * date and no author line around it, the review is still being written (its Post button may be
 * cut off the screenshot).
 */
const ADD_PHOTO = /^\W{0,4}\w{0,2}\W{0,3}(add (a )?photos?( or videos?)?|a(n|fi|ni|ri)adir fotos?|agregar fotos?|ajouter (des |une )?photos?|adicionar fotos?)\W*$/;

/**
 * ... or the composer's title bar: a close mark before the business's name at the top ('X Rosa's
 * Taqueria' over the stars and the text being typed, its Post button cropped off). A posted review
 * has a back arrow there, and a date.
 */
const CLOSE_TITLE = /^[xX×✕]\s+\p{L}{3,}/u;

function composerHint(ocr: OcrText): boolean {
  return ocr.lines.some((l) => ADD_PHOTO.test(fold(l.text).trim()) || (l.bbox.y1 <= ocr.height / 8 && CLOSE_TITLE.test(l.text.trim())));
}

const notPostedYet = (label: string): Verdict =>
  reject(
    'not_posted',
    `This review hasn't been posted yet: the screenshot shows it being written. Post your review on ${label}, then upload a screenshot of it as it shows after posting, with your name and the date.`,
  );

/** A line of prose: four words or more, mostly letters. */
function isProse(text: string): boolean {
  const tokens = text.split(/\s+/).filter((t) => /[a-z]{2,}/i.test(t));
  if (tokens.length < 4) return false;
  const visible = text.replace(/\s+/g, '');
  const letters = visible.replace(/[^\p{L}]/gu, '');
  return letters.length / Math.max(1, visible.length) >= 0.75;
}

/**
 * The review's body: the first block of consecutive prose lines after the reviewer's name line
 * that has eight words or more (shorter blocks there are the reviewer's details: 'Local Guide ·
 * 23 reviews'). Not the largest block: another customer's review below it may be longer, and
 * keying this reward to their words would later turn them away as a duplicate. Without a name
 * line, the largest block. Returns the text and the lines it covers.
 */
export function extractReviewText(ocr: OcrText, afterLine: number | null): { text: string; lines: Set<number> } | null {
  const blocks: number[][] = [];
  let current: number[] = [];
  ocr.lines.forEach((line, index) => {
    if (afterLine !== null && index <= afterLine) return;
    if (isProse(line.text)) {
      current.push(index);
    } else if (current.length > 0) {
      blocks.push(current);
      current = [];
    }
  });
  if (current.length > 0) blocks.push(current);
  const textOf = (block: number[]) => block.map((i) => ocr.lines[i]!.text.trim()).join(' ');
  const wordCount = (block: number[]) => textOf(block).split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
  const chosen =
    afterLine !== null
      ? blocks.find((block) => wordCount(block) >= 8)
      : blocks.sort((a, b) => textOf(b).replace(/[^\p{L}]/gu, '').length - textOf(a).replace(/[^\p{L}]/gu, '').length)[0];
  return chosen ? { text: textOf(chosen), lines: new Set(chosen) } : null;
}

/**
 * The review's stars: the star row nearest below the reviewer's name (within a quarter of the
 * screen), or the only row when the name has no position. Null when none fits.
 */
export function pickStarRating(starRows: readonly StarRow[], nameLine: OcrLine | null, imageHeight: number): number | null {
  if (starRows.length === 0) return null;
  if (!nameLine) return starRows.length === 1 ? starRows[0]!.filled : null;
  const below = starRows
    .filter((row) => row.y > nameLine.bbox.y0 && row.y - nameLine.bbox.y1 < imageHeight / 4)
    .sort((a, b) => a.y - b.y);
  return below[0]?.filled ?? null;
}

// ---------------------------------------------------------------------------------------------
// Verdicts

/** Enough text to judge: a blank or a photo gives a handful of stray characters at most. */
export function hasText(ocr: OcrText): boolean {
  // Lines OCR itself doubts (a blurred picture gives 'teh A RR RB' at 40-50%) do not count.
  const letters = ocr.lines.filter((l) => l.confidence >= READABLE_LINE_CONFIDENCE).map((l) => l.text).join(' ').match(/\p{L}{2,}/gu) ?? [];
  return letters.join('').length >= 12;
}

/** Below this confidence (0-100) a line is what OCR made of a blur or a picture, not text. */
const READABLE_LINE_CONFIDENCE = 50;

/** 'a Google', 'an Instagram', 'an X'. */
function withArticle(label: string): string {
  return `${/^(Instagram|X)$/.test(label) ? 'an' : 'a'} ${label}`;
}

function quoted(value: string): string {
  return `"${value.trim()}"`;
}

function atHandle(handle: string): string {
  return `@${normaliseHandle(handle)}`;
}

/** The median height of a line of text. */
function lineHeight(ocr: OcrText): number {
  const heights = ocr.lines.map((l) => l.bbox.y1 - l.bbox.y0).sort((x, y) => x - y);
  return heights[Math.floor(heights.length / 2)] ?? 0;
}

/** Vertical gap between two lines in the image (0 when they overlap). */
function gap(a: OcrLine, b: OcrLine): number {
  return Math.max(0, Math.max(a.bbox.y0, b.bbox.y0) - Math.min(a.bbox.y1, b.bbox.y1));
}

/** The other platform the markers point to, when it beats the claimed one clearly. */
function clearlyOther<P extends string>(scores: Record<P, number>, claimed: P, threshold: number): P | null {
  const own = scores[claimed];
  const [other, otherScore] = (Object.entries(scores) as Array<[P, number]>).filter(([p]) => p !== claimed).sort((a, b) => b[1] - a[1])[0]!;
  return otherScore >= threshold && otherScore >= own + WRONG_PLATFORM_MARGIN ? other : null;
}

export type ReviewJudgeInput = { platform: ReviewPlatform; businessName: string; reviewerName: string };

/**
 * The author line of the review: a line with the reviewer's name that has a date (or 'ago') on it
 * or within the next four lines (of four letters or digits or more) and a sixth of the screen (or six lines of text) below it. Null when the name is nowhere
 * in that position.
 */
function authorLine(ocr: OcrText, names: Match[], dates: number[], starRows: readonly StarRow[], platform: ReviewPlatform): number | null {
  const reach = Math.max(ocr.height / 6, 6 * lineHeight(ocr));
  for (const name of names) {
    const nameLine = ocr.lines[name.line]!;
    // (Scraps of icons and stars read as a short word, 'tes', 'arm', do not count as lines between.)
    const linesTo = (d: number) => ocr.lines.slice(name.line + 1, d + 1).filter((l) => l.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 4).length;
    const near = dates.some((d) => d >= name.line && linesTo(d) <= 4 && gap(nameLine, ocr.lines[d]!) <= reach);
    // The review's own star row just below the name stands for the date when OCR garbled it.
    const stars = starRows.some((row) => row.y > nameLine.bbox.y0 && row.y - nameLine.bbox.y1 <= reach);
    // Facebook's author line says it: 'Priya Shah recommends Crumb & Co Bakery'.
    const recommends = platform === 'facebook' && RECOMMENDS.test(fold(nameLine.text));
    if (near || stars || recommends) return name.line;
  }
  // The customer's own profile (Google's Contributions, Yelp's profile): their name over
  // 'Local Guide · 124 reviews' or 'N reviews', and their reviews below, each with its date.
  // (Google's heading 'Contributions' above the name says the same.)
  // ('Contribuições' read 'ContribuicGes': the heading is known by its stem.)
  const contributions = ocr.lines.findIndex((l) => /^\W*\w?\W*contribu[a-z]{4,9}\b/.test(fold(l.text).trim()));
  for (const name of names) {
    const header = ocr.lines.slice(name.line + 1, name.line + 3).some((l) => PROFILE_HEADER.test(fold(l.text))) || (contributions >= 0 && contributions < name.line && name.line - contributions <= 3);
    if (header && dates.some((d) => d > name.line)) return name.line;
  }
  return null;
}

/**
 * The line under the name on a reviewer's own profile: Google's 'Local Guide · 124 reviews' ('Lokalny
 * przewodnik · 11 opinii') or 'N reviews', the heading 'Contributions'; Yelp's '12 friends · 34
 * reviews · 5 photos' ('5 amis · 32 avis', '108 Freunde · 49 Beiträge'). ('Contribuições' read
 * 'ContribuicGes': the heading is known by its stem.)
 */
/**
 * Whether Facebook's author line ('Priya Shah recommends Crumb & Co.', its end wrapped onto the
 * next line) names a page none of whose words is the business's. Unsure (false) when the line has
 * no words after the verb.
 */
function recommendsAnotherPage(ocr: OcrText, line: number, businessName: string): boolean {
  const text = fold(ocr.lines[line]!.text);
  const verb = RECOMMENDS.exec(text);
  if (!verb) return false;
  let rest = text.slice(verb.index + verb[0].length);
  // A name cut at the line's end continues on the next line ('Pizzeria Da ---' / 'Enzo.').
  if (!/\.\s*\S{0,4}\s*$/.test(rest) && ocr.lines[line + 1]) rest += ` ${fold(ocr.lines[line + 1]!.text)}`;
  return namesAnotherPlace(rest, businessName);
}

/**
 * Whether a place's name as shown ('Pizzeria Da Enzo', 'Bistro Marcel') shares no word with the
 * business's name, up to one OCR slip per word or a word cut short. False when either has no word
 * of three letters or more.
 */
function namesAnotherPlace(shown: string, businessName: string): boolean {
  const seen = words(shown).filter((w) => w.length >= 3).map(ocrKey);
  const ours = words(businessName.replace(/&/g, ' ')).filter((w) => w.length >= 3).map(ocrKey);
  if (seen.length === 0 || ours.length === 0) return false;
  return !ours.some((w) => seen.some((t) => levenshtein(t, w, 1) <= 1 || (w.length >= 5 && t.length >= 4 && w.startsWith(t))));
}

/**
 * Google Maps' place sheet shows the place's name in the search box at the top, after the back
 * arrow (OCR reads the arrow as '<', '{', '4' or '«'): a box naming another place than ours is
 * another place's sheet with our name put on it. False when there is no such box.
 */
function searchBoxNamesAnotherPlace(ocr: OcrText, businessName: string): boolean {
  const box = ocr.lines.find((l) => l.bbox.y1 < ocr.height * 0.12 && /^[<{4«‹←(]\s+\p{L}/u.test(l.text.trim()));
  if (!box) return false;
  const name = box.text.trim().replace(/^\S+\s+/, '').replace(/\s+\S$/, '');
  return words(name).filter((w) => w.length >= 3).length >= 2 && namesAnotherPlace(name, businessName);
}

/**
 * A review app we do not reward (Tripadvisor, Trustpilot): its name in the top bar, or a label only
 * it shows ('Date of visit', 'Datum des Besuchs', 'Data wizyty'). Returns the app's name, or null.
 */
function otherReviewApp(ocr: OcrText): string | null {
  for (const [app, profile] of Object.entries(OTHER_REVIEW_APPS)) {
    const name = phrasePattern({ en: profile.names });
    const labels = phrasePattern(profile.labels);
    if (ocr.lines.some((l) => (l.bbox.y1 < ocr.height * 0.15 && name.test(fold(l.text))) || labels.test(fold(l.text)))) return app;
  }
  return null;
}

const PROFILE_HEADER = new RegExp(
  `\\b(${phraseSource(GOOGLE.localGuide)})\\b|^\\d+ (${phraseSource(GOOGLE.reviewCounts, YELP.reviewCounts)})\\b|^\\d+ (${phraseSource(YELP.friends)})\\b.*\\b\\d+ (${phraseSource(YELP.reviewCounts)})\\b|\\bcontribu[a-z]{4,9}\\b|\\b(${phraseSource({ ...CONTRIBUTIONS, en: [], es: [], fr: [], pt: [] })})\\b`,
);

/**
 * Judges a review screenshot from its text and layout: the platform's markers (and not another
 * platform's), a posted review (no composer, a date under the author line), the business's name
 * outside the review's words, and the customer's name on the author line. The review link, the
 * image hash and the review-text duplicate are checked around it.
 */
export function judgeReview(input: ReviewJudgeInput, ocr: OcrText, starRows: readonly StarRow[] = []): Verdict {
  const label = PLATFORM_LABELS[input.platform];
  if (!hasText(ocr)) {
    return reject('unreadable', `We couldn't read any text in this screenshot. Upload a clear, full screenshot of your ${label} review that shows your name and the review.`);
  }
  const scores = reviewPlatformScores(ocr, starRows);
  const other = clearlyOther(scores, input.platform, REVIEW_MARKER_THRESHOLD);
  if (other) {
    return reject(
      'wrong_platform',
      `This looks like ${withArticle(PLATFORM_LABELS[other])} review, but it was uploaded for ${label}. Upload a screenshot of your review on ${label}, or add it in the ${PLATFORM_LABELS[other]} section.`,
    );
  }
  if (looksLikeChat(ocr)) {
    return reject('not_a_review', `This looks like a message or a note, not your ${label} review. Upload a screenshot of the review itself as it appears on ${label}, showing your name and the date.`);
  }
  if (composerLine(ocr) >= 0) return notPostedYet(label);
  // A review's date stands on a short line of its own (with the stars, 'Edited', 'Public'), not in a sentence.
  const dates = ocr.lines
    .map((l, i) => (wordCount(l.text) <= 8 && !isProse(withoutDateWords(l.text)) && isDateLine(l.text, { short: input.platform === 'facebook' }) ? i : -1))
    .filter((i) => i >= 0);
  if (dates.length === 0 && composerHint(ocr)) return notPostedYet(label);
  const elsewhere = otherReviewApp(ocr);
  if (elsewhere) {
    return reject(
      'wrong_platform',
      `This looks like a review on ${elsewhere}, but it was uploaded for ${label}. Upload a screenshot of your review on ${label}.`,
    );
  }
  if (scores[input.platform] < REVIEW_MARKER_THRESHOLD) {
    return reject('not_a_review', `This doesn't look like ${withArticle(label)} review. Upload a screenshot of your review as it appears on ${label}, showing your name, the date and the review.`);
  }
  const recommendLine = input.platform === 'facebook' && ocr.lines.some((l) => RECOMMENDS.test(fold(l.text)));
  if (dates.length === 0 && starRows.length === 0 && !recommendLine) {
    return reject(
      'not_a_review',
      `This doesn't look like a posted ${label} review: we can't see when it was posted. Upload a screenshot of your review as it appears on ${label}, showing your name and the date above the review.`,
    );
  }
  const names = findNames(ocr, input.reviewerName);
  const author = authorLine(ocr, names, dates, starRows, input.platform);
  // The review's words start after its date (the author line, the stars and date come first).
  const from = author ?? names[0]?.line ?? null;
  const bodyStart = from === null ? null : (dates.find((d) => d >= from) ?? from);
  const body = extractReviewText(ocr, bodyStart);
  // The business must be named outside the review's own words (a review of another place that
  // mentions this one does not count).
  const business = findBusinessName(ocr, input.businessName, { skipLines: body?.lines });
  if (!business) {
    return reject(
      'wrong_business',
      `We couldn't find ${quoted(input.businessName)} in the screenshot. Upload a screenshot of your review of ${input.businessName.trim()} that shows the business name.`,
    );
  }
  if (names.length === 0) {
    // The name read unsure one look-alike letter off, on the author line: the owner decides (ADR 077).
    const unsure = findUnsureNames(ocr, input.reviewerName);
    const unsureAuthor = authorLine(ocr, unsure, dates, starRows, input.platform);
    if (unsureAuthor !== null) {
      const text = extractReviewText(ocr, dates.find((d) => d >= unsureAuthor) ?? unsureAuthor)?.text;
      const normalised = text ? normaliseReviewText(text) : null;
      return {
        ...needsReview(
          'unsure_name',
          `The author's name was read unsure (a blurred or small picture) as "${ocr.lines[unsureAuthor]!.text.trim().slice(0, 80)}", one look-alike letter from ${quoted(input.reviewerName)}. It may be the customer's review, or someone else's with a name like theirs. Check the name on the screenshot.`,
        ),
        ...(text ? { reviewText: text } : {}),
        ...(normalised ? { normalisedReviewText: normalised } : {}),
        starRating: pickStarRating(starRows, ocr.lines[unsureAuthor] ?? null, ocr.height),
      } as Verdict;
    }
    return reject(
      'name_mismatch',
      `We couldn't find your name ${quoted(input.reviewerName)} in the screenshot. Enter your name exactly as it appears on your ${label} review, or upload a screenshot that shows your review with your name.`,
    );
  }
  // Facebook's author line names the page reviewed ('Sam Taylor recommends Pizzeria Da Enzo.'):
  // another page there is a review of another business, whatever the page's header shows.
  if (input.platform === 'google' && searchBoxNamesAnotherPlace(ocr, input.businessName)) {
    return reject(
      'wrong_business',
      `This review is on another place's page, not ${quoted(input.businessName)}. Upload a screenshot of your review of ${input.businessName.trim()}.`,
    );
  }
  if (author !== null && input.platform === 'facebook' && recommendsAnotherPage(ocr, author, input.businessName)) {
    return reject(
      'wrong_business',
      `This review recommends another page, not ${quoted(input.businessName)}. Upload a screenshot of your review of ${input.businessName.trim()}.`,
    );
  }
  if (author === null) {
    return reject(
      'name_mismatch',
      `Your name ${quoted(input.reviewerName)} isn't shown as the author of the review in this screenshot. Upload a screenshot of your own review, with your name above it and the date.`,
    );
  }
  const reviewText = body?.text;
  const normalised = reviewText ? normaliseReviewText(reviewText) : null;
  return {
    ok: true,
    ...(reviewText ? { reviewText } : {}),
    ...(normalised ? { normalisedReviewText: normalised } : {}),
    starRating: pickStarRating(starRows, ocr.lines[author] ?? null, ocr.height),
  };
}

export type SocialJudgeInput = {
  platform: SocialPlatform;
  businessName: string;
  businessHandle: string;
  userHandle: string;
  verificationType: SocialVerificationType;
};

/** Labels of a follow button that mean "you follow this account", one or two words (profiles.ts). */
const FOLLOWING_WORDS: Record<SocialPlatform, string[]> = {
  instagram: phraseList(SOCIAL_PROFILES.instagram.following),
  x: phraseList(SOCIAL_PROFILES.x.following),
  tiktok: phraseList(SOCIAL_PROFILES.tiktok.following),
  facebook: phraseList(SOCIAL_PROFILES.facebook.following),
};
/** Labels of a button that mean "you don't follow yet" ('Follow', 'Follow back', 'Requested', 'Folgen', 'Obserwuj'). */
const NOT_FOLLOWING_WORDS: Record<SocialPlatform, Set<string>> = {
  instagram: new Set(phraseList(SOCIAL_PROFILES.instagram.notFollowing).map((w) => w.replace(/[^a-z ]/g, ''))),
  x: new Set(phraseList(SOCIAL_PROFILES.x.notFollowing).map((w) => w.replace(/[^a-z ]/g, ''))),
  tiktok: new Set(phraseList(SOCIAL_PROFILES.tiktok.notFollowing).map((w) => w.replace(/[^a-z ]/g, ''))),
  facebook: new Set(phraseList(SOCIAL_PROFILES.facebook.notFollowing).map((w) => w.replace(/[^a-z ]/g, ''))),
};

/**
 * Lines where a follow word is a label, not a button: counters ('210 Following 5,321 Followers'),
 * feed tabs ('For you  Following'), navigation bars and 'Followed by' lines.
 */
function isLabelLine(text: string): boolean {
  const tokens = words(text);
  if (tokens.some((t) => COUNTER_WORDS.has(t))) return true;
  // A number next to a follow word is a counter ('210 Following', '187 suivi(e)s'); a stray digit
  // elsewhere on a button row ('Following  Message  2t', an icon read as text) is not.
  const raw = text.split(/\s+/).filter(Boolean);
  const counter = (t: string | undefined) => t !== undefined && /^[\d.,]+[kmb]?$/i.test(t);
  const followWord = /^(following|siguiendo|seguindo|seguidos|abonne|abonnes|abonnements|suivi|suivis|suivie|suivies|gefolgt|obserwowani|obserwujacy|obserwujacych)$/;
  if (raw.some((t, i) => followWord.test(words(t).join('')) && (counter(raw[i - 1]) || counter(raw[i + 1])))) return true;
  const joined = tokens.join(' ');
  if (/\bfor you\b|\bpeople you follow\b|\bfollowing list\b|\bfrom people\b/.test(joined)) return true;
  // A page's social proof ('mateus.costa, omar.haddad and 8 other friends follow this'): a sentence
  // about other people, not the button. So is Instagram's 'Followed by ana and 12 others' ('Gefolgt
  // von ...', 'Obserwowany(-a) przez ...'), whose first word is a follow label in some languages.
  if (SOCIAL_PROOF.test(joined) || FOLLOWED_BY_LINE.test(fold(text))) return true;
  return tokens.some((t) => ['home', 'inbox', 'profile', 'explore', 'notifications', 'search', 'shop', 'reels', 'communities'].includes(t));
}

const SOCIAL_PROOF =
  /\b(friends?|others?|people|amigos|amis|personas|pessoas|autres|otros|outros)\b.*\b(follows?|like|likes|siguen|sigue|suivent|suit|seguem|segue|aiment|les gusta|curtem)\b|\b(follows?|likes?) this\b/;

const COUNTER_WORDS = wordSet(PROFILE_COUNTER_WORDS);

/** Lines after a suggestions heading show other accounts, with their own Follow buttons. */
const SUGGESTIONS = phrasePattern(SUGGESTION_HEADINGS);
const FOLLOWED_BY_LINE = phrasePattern(FOLLOWED_BY);
/** The Message button (one word: 'Message', 'Nachricht', 'Wiadomość'). */
const MESSAGE_WORDS = new Set(phraseList(MESSAGE).filter((w) => !w.includes(' ')));

function suggestionsStart(ocr: OcrText): number {
  const index = ocr.lines.findIndex((l) => SUGGESTIONS.test(fold(l.text)));
  return index < 0 ? ocr.lines.length : index;
}

function luminance(c: Rgb): number {
  return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b;
}

/**
 * A filled call-to-action button: a saturated colour (Instagram's and Facebook's blue, TikTok's red)
 * or a strong contrast with the page (X's black button on white, white on black). 'Following'
 * buttons are plain: the page's colour, an outline, or a light (dark-mode: dark) grey.
 */
export function isFilledButton(fill: Rgb | undefined, background: Rgb | undefined): boolean {
  if (!fill) return false;
  const saturation = Math.max(fill.r, fill.g, fill.b) - Math.min(fill.r, fill.g, fill.b);
  if (saturation >= 90) return true;
  return background !== undefined && Math.abs(luminance(fill) - luminance(background)) >= 120;
}

export type FollowButton = { state: 'following' | 'follow'; line: number; filled: boolean };

/**
 * The follow button of the profile: the follow word nearest to the profile's name or handle
 * (`anchors`, line indexes), within 40% of the screen height or twelve lines, ignoring counters, tabs, navigation
 * bars and suggestion lists. Its text decides ('Following', TikTok's 'Friends', Facebook's 'Liked';
 * 'Follow', 'Follow back', 'Requested' are not following) and so does its colour: a filled
 * button is a 'Follow' button whatever OCR made of its text. Null when no button is near.
 */
export function followButton(ocr: OcrText, platform: SocialPlatform, anchors: number[]): FollowButton | null {
  const limit = suggestionsStart(ocr);
  // Within 40% of the screen or twelve lines of text, whichever is more (a cropped screenshot is short).
  const reach = Math.max(ocr.height * 0.4, 12 * lineHeight(ocr));
  let best: (FollowButton & { distance: number }) | null = null;
  for (const [index, line] of ocr.lines.entries()) {
    if (index >= limit || isLabelLine(line.text)) continue;
    for (const [w, word] of line.words.entries()) {
      const token = fold(word.text).replace(/[^a-z]/g, '');
      if (!token) continue;
      // A label of two words ('Folge ich', 'Lubisz to', 'Follow back') is read with the next word.
      const next = line.words[w + 1] ? fold(line.words[w + 1]!.text).replace(/[^a-z]/g, '') : '';
      const pair = next ? `${token} ${next}` : null;
      const following = FOLLOWING_WORDS[platform].some((l) => (l.includes(' ') ? pair === l : levenshtein(token, l, 1) <= (l.length >= 8 ? 1 : 0)));
      // (OCR drops a doubled letter of 'Follow': 'Folow'.)
      const follow = !following && (NOT_FOLLOWING_WORDS[platform].has(token) || (pair !== null && NOT_FOLLOWING_WORDS[platform].has(pair)) || token === 'folow');
      if (!following && !follow) continue;
      const distance =
        anchors.length === 0 ? 0 : Math.min(...anchors.map((a) => Math.abs((ocr.lines[a]!.bbox.y0 + ocr.lines[a]!.bbox.y1) / 2 - (word.bbox.y0 + word.bbox.y1) / 2)));
      if (anchors.length > 0 && distance > reach) continue;
      const filled = isFilledButton(word.fill, ocr.background);
      const state = following && !filled ? 'following' : 'follow';
      if (!best || distance < best.distance) best = { state, line: index, filled, distance };
    }
  }
  if (!best && platform === 'tiktok') {
    // TikTok shows a followed account's profile with 'Message' and a person-check icon, no word.
    for (const [index, line] of ocr.lines.entries()) {
      if (index >= limit || isLabelLine(line.text)) continue;
      if (!line.words.some((w) => MESSAGE_WORDS.has(fold(w.text).replace(/[^a-z]/g, '')))) continue;
      const distance = anchors.length === 0 ? 0 : Math.min(...anchors.map((a) => Math.abs(ocr.lines[a]!.bbox.y0 - line.bbox.y0)));
      if (anchors.length > 0 && distance > reach) continue;
      return { state: 'following', line: index, filled: false };
    }
  }
  return best ? { state: best.state, line: best.line, filled: best.filled } : null;
}

/** 'following' when the profile's button says so, 'follow' when it is a Follow button, else null (no anchors: the nearest to nothing, i.e. the first). */
export function followState(ocr: OcrText, platform: SocialPlatform, anchors: number[] = []): 'following' | 'follow' | null {
  return followButton(ocr, platform, anchors)?.state ?? null;
}

/** TikTok's sound line of a video whose sound is its author's own, in en/es/fr/pt. */
const ORIGINAL_SOUND = /\b(original sound|sonido original|son original|som original)\b\s*[-–·]/;

// A reaction summary names likers, not the author: 'sofia.rossi and 309 more' ('y 309 más', 'e 12 outros').
const LIKED_LINE = /\b(liked by|likes? by|liked this|followed by|reposted|le gusta|aime par|a aime|curtiu|and \d+ others?|and others|reposted by|\d+ likes?|le gusta a|les gusta a|aime par|curtido por|y \d+ personas|et \d+ autres|e outras|and \d+ more|y \d+ mas|et \d+ personnes|e (mais )?\d+ (outras|outros|pessoas))\b/;
const COMMENTS_START = /\bview (all )?\d* ?comments?\b|^comments?$|(^|\s)\d+ comments?$|\badd a comment\b|\bmost relevant\b|\bpost your reply\b|\bver (los|todos os) \d+ comentarios\b|\bvoir (les )?\d+ commentaires\b|^comentarios$|^commentaires$|\banade un comentario\b|\bajouter un commentaire\b|\badicione um comentario\b/;

/**
 * What only a post being written shows: the composer's title ('New post', 'Create post', 'New
 * reel', in en/es/fr/pt) or its option rows ('Tag people', 'Add location', 'Everyone can reply',
 * "What's on your mind?"). A posted post, story or video never shows them.
 */
const SOCIAL_COMPOSER_TITLE = new RegExp(`^(<\\s*)?(${phraseSource(SOCIAL_COMPOSER_TITLES)})\\b`);
const SOCIAL_COMPOSER_ROWS = new RegExp(`\\b(${phraseSource(SOCIAL_COMPOSER_OPTIONS)})\\b|\\bhashtags\\b.*\\b(mention|erwahnen|oznacz)\\b`);

/** 'Replying to', 'Antwort an', 'W odpowiedzi do' (profiles.ts). */
const REPLYING = phrasePattern(REPLYING_TO);

export function socialComposer(ocr: OcrText): boolean {
  const folded = ocr.lines.map((l) => fold(l.text).replace(/[^a-z<' ]+/g, ' ').replace(/\s+/g, ' ').trim());
  const rows = folded.filter((t) => SOCIAL_COMPOSER_ROWS.test(t)).length;
  // The title stands alone on the top bar ('< New post', 'Create post  Post'), not inside a caption.
  const title = folded.some((t, i) => SOCIAL_COMPOSER_TITLE.test(t) && t.split(' ').length <= 5 && ocr.lines[i]!.bbox.y0 < ocr.height * 0.2);
  return title || rows >= 2;
}

/**
 * A page name one word off the business's on a line of the post (Facebook tags a page by name):
 * 'Nonno's Trattoria' for 'Nonna's Trattoria', another page. Only for the reason given: the tag
 * is missing either way. Returns the name as read, or null.
 */
const CHECK_IN = /\b(is at|was at|esta en|estaba en|est a|etait a|esta em|estava em)$/;
/** Words before a place's name: 'at' (en/es/fr/pt; not 'with', which names company as often as a place). */
const PLACE_WORD = /^(at|en|chez|au|em|no|na)$/;

function findNearBusinessName(ocr: OcrText, businessName: string, keep: (line: number) => boolean): string | null {
  const tagMark = /^[@©®]$/;
  const name = words(businessName.replace(/&/g, ' ')).map(ocrKey).filter(Boolean);
  if (name.length < 2) return null;
  for (const [index, line] of ocr.lines.entries()) {
    if (!keep(index)) continue;
    const raw = cleanTokens(line.text);
    const tokens = raw.map((t) => words(t.replace(/&/g, ' ')).map(ocrKey).join(''));
    for (let start = 0; start + name.length <= tokens.length; start++) {
      const window = tokens.slice(start, start + name.length);
      const off = window.filter((t, k) => t !== name[k]);
      if (off.length !== 1) continue;
      const k = window.findIndex((t, j) => t !== name[j]);
      // After a tag's '@' (or its misreading '®', '©') the words are a page's name whatever that
      // word is: '@ La Petite Patisserie' tags another page than La Petite Boulangerie.
      // So are the words of Facebook's check-in ('Sam is at Casa Verde Cocina.', 'está en', 'est à', 'está em').
      const checkIn = CHECK_IN.test(fold(raw.slice(Math.max(0, start - 2), start).join(' ')));
      const tagged = start > 0 && (tagMark.test(raw[start - 1]!) || checkIn) && window[k]!.length >= 4;
      // So are capitalised words after 'at' (Facebook shows a tagged page as its name in link
      // colour: 'Coffee date at Little Fig Tea Room!' tags another page than Little Fig Coffee),
      // even a short one.
      const capitalised = raw.slice(start, start + name.length).every((t) => /^\p{Lu}/u.test(t) || !/\p{L}/u.test(t));
      const named = start > 0 && PLACE_WORD.test(fold(raw[start - 1]!)) && capitalised && window[k]!.length >= 3;
      if (tagged || named || (name[k]!.length >= 4 && levenshtein(window[k]!, name[k]!, 2) <= 2)) return raw.slice(start, start + name.length).join(' ').replace(/[.!,]+$/, '');
    }
  }
  return null;
}

/**
 * Which lines are the post's own (its header, caption, stickers and overlays), as opposed to likes
 * and comments: 'Liked by' lines never count, nor lines after the comments start ('View all 12
 * comments', a comments sheet's heading) nor a line followed by a 'Reply' link (a comment).
 */
function postLines(ocr: OcrText, platform: SocialPlatform): boolean[] {
  const folded = ocr.lines.map((l) => fold(l.text).replace(/\s+/g, ' ').trim());
  // On X a post's page ends with its time and views ('5 hours ago · 1,560 Views', '20 novembre -
  // 143 vues', '1,2 mil visualizaciones', 'visualizações'); its action bar, likers and replies follow.
  // On Facebook the action bar (Like, Comment, Share) closes the post; comments follow.
  const start = folded.findIndex(
    (t) =>
      COMMENTS_START.test(t) ||
      (platform === 'x' && /\b[\d.,]+\s?(k|m|mil)? (views|vues|visualizaciones|visualizacoes)\b/.test(t)) ||
      (platform === 'facebook' && /\blike\b.*\bcomment\b.*\bshare\b/.test(t)),
  );
  return folded.map((text, i) => {
    if (start >= 0 && i > start) return false;
    if (LIKED_LINE.test(text)) return false;
    const next = folded.slice(i + 1, i + 3);
    return !next.some((t) => /(^|\s)(reply|responder|repondre)$|^(reply|responder|repondre)\b|\d+[smhdw] (reply|responder|repondre)\b/.test(t));
  });
}

/**
 * The doubt that decides when no match is sure (ADR 077): the first doubtful match when every match
 * is doubtful, else null. `joinedSure`: whether a handle spelled across tokens counts as sure (a
 * tag's mention or author line does; on a profile a display name spelling the handle does not show
 * which account it is).
 */
function onlyDoubtful(matches: readonly HandleMatch[], joinedSure: boolean): NonNullable<HandleMatch['doubt']> | null {
  const shown = joinedSure ? matches : matches.filter((h) => !h.joined);
  if (shown.length === 0 || shown.some((h) => !h.doubt)) return null;
  return shown[0]!.doubt ?? null;
}

/** The owner's words for a handle read with a doubt: what was read, what was expected, and what it may be instead. */
function doubtReason(doubt: NonNullable<HandleMatch['doubt']>, expected: string, where: 'profile' | 'tag' | 'author'): string {
  const place = where === 'profile' ? "The profile's handle" : where === 'tag' ? 'The tag in the post' : "The post's author";
  const want = atHandle(expected);
  if (doubt.code === 'stray_letter') {
    return `${place} was read as "@${doubt.seen}": ${want} with an "I" or "l" before it. That may be an icon read as a letter, or the look-alike account @l${normaliseHandle(expected)}; the verifier cannot tell them apart. Check the handle on the screenshot.`;
  }
  return `${place} was read unsure (a blurred or small picture) as "@${doubt.seen}", one look-alike letter from ${want}. It may be ${want}, or another account whose handle looks like it. Check the handle on the screenshot.`;
}

/**
 * Judges a follow or tag screenshot. Follow: the profile shown is the business's (its handle, or
 * its name, matched exactly up to OCR look-alikes) and the button next to it says Following. Tag:
 * the post @mentions the business and its author is the customer, both outside likes and comments.
 */
export function judgeSocial(input: SocialJudgeInput, ocr: OcrText): Verdict {
  const label = PLATFORM_LABELS[input.platform];
  const business = atHandle(input.businessHandle);
  const what = input.verificationType === 'follow' ? `the ${business} profile on ${label}` : `your ${label} post that tags ${business}`;
  if (!hasText(ocr)) {
    return reject('unreadable', `We couldn't read any text in this screenshot. Upload a clear, full screenshot of ${what}.`);
  }
  // Instagram and TikTok handles are lowercase only (see `zeroes`).
  const lowercase = input.platform === 'instagram' || input.platform === 'tiktok';
  const scores = socialPlatformScores(ocr);
  const other = clearlyOther(scores, input.platform, SOCIAL_MARKER_THRESHOLD);
  if (other) {
    return reject('wrong_platform', `This looks like ${withArticle(PLATFORM_LABELS[other])} screenshot, but it was uploaded for ${label}. Upload a screenshot of ${what}.`);
  }

  if (input.verificationType === 'follow') {
    if (scores[input.platform] < SOCIAL_MARKER_THRESHOLD) {
      return reject('not_following', `This doesn't look like ${withArticle(label)} profile. Upload a screenshot of the ${business} profile on ${label} that shows "Following".`);
    }
    const limit = suggestionsStart(ocr);
    const exact = findHandles(ocr, input.businessHandle, { lowercase }).filter((h) => h.line < limit);
    // A display name that spells the handle ('Harbor Light Diner') does not show which account this is:
    // a look-alike handle on screen ('@harboorlightdiner') still means another account.
    // So does a confident look-alike when the handle itself was read unsure: the profile's header
    // '@littlefigcoffee' (read at 65%, its final '_' lost) over its own post by '@littlefigcoffee_'.
    const displayOnly = exact.every((h) => h.joined);
    const unsure = exact.every((h) => h.joined || tokenConfidence(ocr.lines[h.line]!, handleTokens(ocr.lines[h.line]!)[h.token] ?? '') < UNSURE_HANDLE_CONFIDENCE);
    const near = unsure
      ? findNearHandle(ocr, input.businessHandle, (line) => line < limit && (displayOnly || ocr.lines[line]!.confidence >= CONFIDENT_LOOK_ALIKE), { lowercase })
      : null;
    if (near) {
      return reject(
        'wrong_account',
        `This profile is @${normaliseHandle(near)}, not ${business}: another account. Open ${business} on ${label}, follow it, and upload a screenshot of its profile showing "Following".`,
      );
    }
    const anchors = [
      ...exact.map((h) => h.line),
      ...findBusinessNames(ocr, input.businessName).map((m) => m.line),
    ].filter((line) => line < limit);
    if (anchors.length === 0) {
      return reject(
        'wrong_account',
        `This screenshot doesn't show the ${business} profile. Open ${business} on ${label}, follow it, and upload a screenshot of its profile showing "Following".`,
      );
    }
    const button = followButton(ocr, input.platform, anchors);
    if (button?.state !== 'following') {
      return reject(
        'not_following',
        button
          ? `The ${business} profile still shows a "Follow" button, so you don't follow it yet. Tap Follow on ${label}, then upload a new screenshot that shows "Following".`
          : `We couldn't see that you follow ${business}. Upload a screenshot of the ${business} profile on ${label} where the button under its name says "Following".`,
      );
    }
    // The handle on screen is the business's only if OCR slipped: the owner decides, never the verifier.
    const doubt = onlyDoubtful(exact, false);
    if (doubt) return needsReview(doubt.code, doubtReason(doubt, input.businessHandle, 'profile'));
    return { ok: true };
  }

  if (socialComposer(ocr)) {
    return reject(
      'not_posted',
      `This post hasn't been shared yet: the screenshot shows it being written. Share your post on ${label}, then upload a screenshot of it as posted, with the tag ${business}.`,
    );
  }
  const own = postLines(ocr, input.platform);
  // Facebook tags a page by its name ('Léa is at Little Fig Coffee', 'with Little Fig Coffee'), not '@handle'.
  const facebook = input.platform === 'facebook';
  // A photo tag shows the handle alone in a label on the picture, without '@'.
  const alone = (line: number) => cleanTokens(ocr.lines[line]!.text).filter((t) => t.length > 2).length === 1;
  const handleMentions = findHandles(ocr, input.businessHandle, { lowercase }).filter((h) => (h.mention || alone(h.line)) && own[h.line]);
  const mentions = [
    ...handleMentions,
    ...(facebook ? findBusinessNames(ocr, input.businessName).filter((m) => own[m.line] && m.score >= 2) : []),
    // ... also when the page's name wraps onto the next line ('Léa is at Sunrise' / 'Bagels').
    ...(facebook ? wrappedBusinessNames(ocr, input.businessName).filter((line) => own[line] && own[line + 1]) : []),
  ];
  const user = normaliseHandle(input.userHandle);
  // A Facebook username is usually the person's name with dots ('lea.dubois' shows as 'Léa Dubois').
  // X's 'Replying to @name' over a reply names the person replied to, not the author (also when
  // OCR read the handle again as a line of its own over it).
  const replyingTo = ocr.lines.filter((l) => REPLYING.test(fold(l.text)));
  const onReplyingLine = (line: OcrLine) => replyingTo.some((r) => Math.abs((r.bbox.y0 + r.bbox.y1) / 2 - (line.bbox.y0 + line.bbox.y1) / 2) < (r.bbox.y1 - r.bbox.y0) / 2);
  const authored = findHandles(ocr, input.userHandle, { ignoreDots: facebook, lowercase }).filter((h) => {
    if (!own[h.line]) return false;
    if (onReplyingLine(ocr.lines[h.line]!)) return false;
    // An author line starts with the handle (Instagram's header and caption, a story's corner,
    // a video's overlay); on X it follows the display name as '@handle · 2h'. An avatar's initial
    // or its ring read as one-character tokens before it ('B | bencarter 5h') is not a word.
    if (handleTokens(ocr.lines[h.line]!).slice(0, h.token).filter((t) => t.replace(/[^\p{L}\p{N}]/gu, '').length > 1).length <= 1) return true;
    // TikTok names the video's author in its sound line: 'original sound - emilychen'.
    if (input.platform === 'tiktok' && ORIGINAL_SOUND.test(fold(ocr.lines[h.line]!.text))) return true;
    return h.mention && h.token <= 5 && isDateLine(ocr.lines[h.line]!.text, { short: true });
  });
  if (mentions.length === 0) {
    // The customer's handle only in the 'Liked by' line of a post that tags nobody: the post is
    // someone else's, which says more than the missing tag. (Not a comment: a comments sheet
    // shows the author's own caption as its first comment.)
    if (authored.length === 0 && findHandles(ocr, input.userHandle).some((h) => !own[h.line] && LIKED_LINE.test(fold(ocr.lines[h.line]!.text)))) {
      return reject(
        'author_mismatch',
        `This post isn't yours: ${atHandle(user)} appears only in its likes or comments. Upload a screenshot of your own post that tags ${business}, showing your handle at the top.`,
      );
    }
    const near = findNearHandle(ocr, input.businessHandle, (line, mention) => mention && own[line] === true, { lowercase });
    if (near) {
      return reject(
        'wrong_account',
        `Your post tags @${normaliseHandle(near)}, which is another account than ${business}. Tag ${business} exactly, then upload a new screenshot.`,
      );
    }
    const nearPage = facebook ? findNearBusinessName(ocr, input.businessName, (line) => own[line] === true) : null;
    if (nearPage) {
      return reject(
        'wrong_account',
        `Your post tags ${quoted(nearPage)}, which is another page than ${input.businessName}. Tag ${input.businessName} (${business}) exactly, then upload a new screenshot.`,
      );
    }
    return reject(
      'missing_mention',
      `We couldn't find the tag ${business} in your post (tags in likes or comments don't count). Tag ${business} in your ${label} post or story, then upload a screenshot that shows the tag.`,
    );
  }
  // A display name that spells the customer's handle ('Kenji Watanabe' for kenjiwatanabe) over a
  // look-alike handle ('@kenji.watanabe') is another account's post: the handle says whose it is.
  if (!facebook && authored.length > 0 && authored.every((h) => h.joined && !h.mention)) {
    const other = findNearHandle(ocr, input.userHandle, (line, mention) => mention && own[line] === true, { lowercase });
    if (other) {
      return reject(
        'author_mismatch',
        `This post is by @${normaliseHandle(other)}, not ${atHandle(user)}. Upload a screenshot of your own ${label} post that tags ${business}, or enter your handle exactly as it appears on ${label}.`,
      );
    }
  }
  if (authored.length === 0) {
    const seen = findHandles(ocr, input.userHandle, { lowercase }).length > 0;
    return reject(
      'author_mismatch',
      seen
        ? `This post isn't yours: ${atHandle(user)} appears only in its likes or comments. Upload a screenshot of your own post that tags ${business}, showing your handle at the top.`
        : `We couldn't find your handle ${atHandle(user)} as the author of this post. Upload a screenshot of your own ${label} post that tags ${business}, or enter your handle exactly as it appears on ${label}.`,
    );
  }
  // The tag, or the author, is the expected handle only if OCR slipped: the owner decides.
  const tagDoubt = mentions.length === handleMentions.length ? onlyDoubtful(handleMentions, true) : null;
  if (tagDoubt) return needsReview(tagDoubt.code, doubtReason(tagDoubt, input.businessHandle, 'tag'));
  // (A display name spelling the customer's handle does not say whose post it is when a handle is shown.)
  const authorDoubt = onlyDoubtful(authored, false);
  if (authorDoubt) return needsReview(authorDoubt.code, doubtReason(authorDoubt, input.userHandle, 'author'));
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Reasons used around the judgement

export function missingField(field: 'reviewerName' | 'reviewLink' | 'userHandle' | 'businessHandle', platform: ReviewPlatform | SocialPlatform, kind?: SocialVerificationType): Verdict {
  const label = PLATFORM_LABELS[platform];
  switch (field) {
    case 'reviewerName':
      return reject('name_mismatch', `Please enter your name as it appears on your ${label} review.`);
    case 'reviewLink':
      return reject('not_posted', `Please paste the link to your posted ${label} review.`);
    case 'userHandle':
      return reject(kind === 'tag' ? 'author_mismatch' : 'wrong_account', `Please enter your ${label} handle.`);
    case 'businessHandle':
      return reject('wrong_business', `This survey has no ${label} handle set up, so the screenshot can't be checked. Please tell the business.`);
  }
}

export function duplicateImage(businessName: string): Verdict {
  return reject('duplicate', `This screenshot has already been used for a reward at ${businessName.trim()}. Each review or follow can earn a reward only once.`);
}

export function duplicateReviewText(businessName: string): Verdict {
  return reject('duplicate', `This review has already been used for a reward at ${businessName.trim()}. Each review can earn a reward only once.`);
}

export const OCR_TIMEOUT_REASON = "We couldn't read this screenshot in time. Please try again.";

export function ocrTimeout(): Verdict {
  return reject('unreadable', OCR_TIMEOUT_REASON);
}

export function unreadableImage(): Verdict {
  return reject('unreadable', "We couldn't open this image. Upload a screenshot saved as PNG, JPEG or WebP.");
}
