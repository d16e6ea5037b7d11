/**
 * The judgement of a screenshot from the text read off it. Pure: no I/O, no clock, no vendor
 * code; the adapters read the image (OCR, star pixels, hash) and ask the history, this decides.
 *
 * A review passes when the review link is on the platform's domain, the screenshot shows the
 * platform's markers, the business's name, and the reviewer's name. A follow passes when the
 * screenshot shows the business's handle (or name), the platform's markers and a "Following"
 * state; a tag when it shows the customer's handle and an @mention of the business's handle.
 * Names are matched fuzzily (case, accents, OCR slips); each failure has its own plain reason.
 */
import { PLATFORM_LABELS, type RejectionCode, type ReviewPlatform, type SocialPlatform, type SocialVerificationType } from './port.ts';
import { allowedEdits, fold, levenshtein, normaliseHandle, normaliseReviewText, ocrKey, words } from './text.ts';

// ---------------------------------------------------------------------------------------------
// What the adapters hand over

export type Box = { x0: number; y0: number; x1: number; y1: number };
export type OcrWord = { text: string; confidence: number; bbox: Box };
export type OcrLine = { text: string; confidence: number; bbox: Box; words: OcrWord[] };
/** OCR output in reading order; coordinates in the pixels of the image given to OCR. */
export type OcrText = { lines: OcrLine[]; width: number; height: number };

/** A row of five star shapes found in the pixels: its vertical centre and how many are filled. */
export type StarRow = { y: number; filled: number };

/** Builds an OcrText from plain lines (for tests and for adapters without boxes). */
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
  return { lines, width: 1080, height: rows.length * lineHeight };
}

export type Verdict =
  | { ok: true; reviewText?: string; normalisedReviewText?: string; starRating?: number | null }
  | { ok: false; code: RejectionCode; reason: string };

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

/** The review link must be an http(s) URL on the platform's domain; a missing scheme is forgiven. */
export function checkReviewLink(platform: ReviewPlatform, link: string): Verdict {
  const label = PLATFORM_LABELS[platform];
  const raw = String(link ?? '').trim();
  let url: URL | null = null;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    url = null;
  }
  if (!raw || !url || (url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname.includes('.')) {
    return {
      ok: false,
      code: 'invalid_link',
      reason: `The review link doesn't look like a web address. Paste the link to your ${label} review (it starts with https://).`,
    };
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (LINK_DOMAINS[platform].test(host)) return { ok: true };
  const other = (Object.keys(LINK_DOMAINS) as ReviewPlatform[]).find((p) => p !== platform && LINK_DOMAINS[p].test(host));
  return {
    ok: false,
    code: 'link_wrong_platform',
    reason: other
      ? `The review link goes to ${PLATFORM_LABELS[other]}, not ${label}. Paste the link to your review on ${label}.`
      : `The review link goes to ${host}, not ${label}. Paste the link to your review on ${label} (${LINK_EXAMPLES[platform]}).`,
  };
}

// ---------------------------------------------------------------------------------------------
// Finding names and handles in OCR lines

type LineTokens = { raw: string[]; folded: string[] };

function lineTokens(line: OcrLine): LineTokens {
  const raw = line.text.split(/\s+/).filter(Boolean);
  return { raw, folded: raw.map((t) => ocrKey(t)) };
}

export type Match = { line: number; score: number };

function tokenMatches(claimed: string, seen: string): boolean {
  if (!seen) return false;
  if (claimed.length === 1) return seen.startsWith(claimed); // an initial: "P." matches "Pereira"
  if (seen.length === 1) return claimed.startsWith(seen); // the screen shows an initial
  const limit = allowedEdits(claimed.length);
  return levenshtein(seen, claimed, limit) <= limit;
}

/**
 * Where a person's name (or a business name) appears: all its words in order on one line, each
 * tolerant of OCR slips, initials matching whole words either way; or the whole name with its
 * spaces lost or added ('AnaPereira', 'Pe reira'). At least one whole word must match.
 * Returns the best line, or null.
 */
export function findName(ocr: OcrText, name: string, options: { skipLines?: ReadonlySet<number> } = {}): Match | null {
  const claimed = words(name).map(ocrKey).filter(Boolean);
  if (claimed.length === 0) return null;
  const whole = claimed.filter((t) => t.length > 1);
  if (whole.length === 0) return null;
  const joined = claimed.join('');
  const hasInitials = whole.length !== claimed.length;
  // Joining words loses the word-by-word check, so the whole name gets one slip fewer.
  const joinedLimit = Math.max(1, allowedEdits(joined.length) - 1);
  let best: Match | null = null;
  ocr.lines.forEach((line, index) => {
    if (options.skipLines?.has(index)) return;
    // Tokens that are only punctuation ('&', '-') are dropped.
    const tokens = lineTokens(line).folded.filter(Boolean);
    // Words in order, one OCR token per claimed word.
    for (let start = 0; start + claimed.length <= tokens.length; start++) {
      const window = tokens.slice(start, start + claimed.length);
      const wholeWords = claimed.filter((c, k) => c.length > 1 && window[k]!.length > 1).length;
      if (wholeWords > 0 && claimed.every((c, k) => tokenMatches(c, window[k]!))) {
        const score = claimed.length + (hasInitials ? 0 : 0.5);
        if (!best || score > best.score) best = { line: index, score };
      }
    }
    // The whole name with word breaks lost or added by OCR.
    if (!hasInitials && joined.length >= 4) {
      for (let start = 0; start < tokens.length; start++) {
        let window = '';
        for (let end = start; end < tokens.length && window.length <= joined.length + joinedLimit; end++) {
          window += tokens[end];
          if (Math.abs(window.length - joined.length) <= joinedLimit && levenshtein(window, joined, joinedLimit) <= joinedLimit) {
            const score = claimed.length;
            if (!best || score > best.score) best = { line: index, score };
          }
        }
      }
    }
  });
  return best;
}

/** Words that name the kind of business rather than this one ('Crumb & Co Bakery' -> 'crumb co'). */
const GENERIC_BUSINESS_WORDS = new Set([
  'the', 'and', 'bakery', 'cafe', 'coffee', 'restaurant', 'bar', 'grill', 'kitchen', 'shop', 'store', 'salon', 'studio',
  'llc', 'inc', 'ltd', 'company', 'house', 'pizzeria', 'bistro', 'pub', 'diner', 'market', 'spa',
]);

/**
 * The business's name: the whole name fuzzily, or, when the screen shortens it, its distinctive
 * words ('Crumb & Co' for 'Crumb & Co Bakery') if they are long enough to mean something.
 */
export function findBusinessName(ocr: OcrText, businessName: string, options: { skipLines?: ReadonlySet<number> } = {}): Match | null {
  const full = findName(ocr, businessName, options);
  if (full) return full;
  const distinctive = words(businessName).filter((w) => !GENERIC_BUSINESS_WORDS.has(w));
  if (distinctive.length === words(businessName).length || distinctive.join('').length < 5) return null;
  return findName(ocr, distinctive.join(' '), options);
}

/**
 * A handle on a line: one token (or tokens joined across an OCR break) equal to the handle give
 * or take OCR slips, ignoring '@', dots and underscores. With `mention`, the token must start
 * with '@' (or what OCR makes of it: '©', '®').
 */
export function findHandle(ocr: OcrText, handle: string, options: { mention?: boolean } = {}): Match | null {
  const target = ocrKey(normaliseHandle(handle));
  if (target.length < 2) return null;
  // Handles are one word, often near-alike across businesses ('crumbandco', 'crumbandgo'): one slip, two from 12 characters.
  const limit = target.length <= 3 ? 0 : target.length < 12 ? 1 : 2;
  let best: Match | null = null;
  ocr.lines.forEach((line, index) => {
    const { raw } = lineTokens(line);
    for (let start = 0; start < raw.length; start++) {
      const first = raw[start]!.replace(/^[("'[]+/, '');
      if (options.mention && !/^[@©®]/.test(first)) continue;
      let window = '';
      for (let end = start; end < raw.length && end < start + 3; end++) {
        window += ocrKey(end === start ? first : raw[end]!);
        if (Math.abs(window.length - target.length) <= limit && levenshtein(window, target, limit) <= limit) {
          const score = 10 - levenshtein(window, target, limit);
          if (!best || score > best.score) best = { line: index, score };
        }
      }
    }
  });
  return best;
}

// ---------------------------------------------------------------------------------------------
// Platform markers

type Marker = { pattern: RegExp; weight: number };

/** Markers per review platform, matched against folded lines; each counts once. */
const REVIEW_MARKERS: Record<ReviewPlatform, Marker[]> = {
  google: [
    { pattern: /\bgoogle\b/, weight: 3 },
    { pattern: /\blocal guide\b/, weight: 2 },
    { pattern: /\bresponse from the owner\b/, weight: 2 },
    { pattern: /\b(\d+|a|an|one) (minute|hour|day|week|month|year)s? ago\b/, weight: 1 },
    { pattern: /\breviews?\b/, weight: 1 },
    { pattern: /\b(like|helpful)\b.*\bshare\b/, weight: 1 },
    { pattern: /\bmaps\b/, weight: 1 },
  ],
  yelp: [
    { pattern: /\byelp\b/, weight: 3 },
    { pattern: /\buseful\b/, weight: 2 },
    { pattern: /\bfunny\b/, weight: 1 },
    { pattern: /\bcool\b/, weight: 1 },
    { pattern: /\belite\b/, weight: 2 },
    { pattern: /\brecommended reviews\b/, weight: 2 },
    { pattern: /\b\d+ friends?\b/, weight: 1 },
    { pattern: /\bcheck-?ins?\b/, weight: 1 },
  ],
  facebook: [
    { pattern: /\bfacebook\b|\bfb\.com\b/, weight: 3 },
    { pattern: /\b(recommends|doesn'?t recommend)\b/, weight: 3 },
    { pattern: /\brecommend\b/, weight: 1 },
    { pattern: /\blike\b.*\bcomment\b|\bcomment\b.*\bshare\b/, weight: 2 },
    { pattern: /\bcomments?\b/, weight: 1 },
    { pattern: /\bpublic\b/, weight: 1 },
  ],
};

/** Markers of a profile (follow) or a post (tag) per social platform. */
const SOCIAL_MARKERS: Record<SocialPlatform, Marker[]> = {
  instagram: [
    { pattern: /\binstagram\b/, weight: 3 },
    { pattern: /\bfollowed by\b/, weight: 2 },
    { pattern: /\bliked by\b/, weight: 2 },
    { pattern: /\bview all \d+ comments?\b/, weight: 2 },
    { pattern: /\badd a comment\b/, weight: 2 },
    { pattern: /\bposts\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    { pattern: /\bfollowing\b/, weight: 1 },
    { pattern: /\bmessage\b/, weight: 1 },
    { pattern: /\b\d+ (likes|others)\b/, weight: 1 },
  ],
  x: [
    { pattern: /\bx\.com\b|\btwitter\b/, weight: 3 },
    { pattern: /\bjoined \w+ \d{4}\b/, weight: 2 },
    { pattern: /\breplies\b/, weight: 1 },
    { pattern: /\breposts?\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    { pattern: /\bfollowing\b/, weight: 1 },
    { pattern: /\bposts\b/, weight: 1 },
    { pattern: /\bmedia\b/, weight: 1 },
    { pattern: /@\w+ ?[-·.] ?\d+[smhd]\b/, weight: 1 },
  ],
  tiktok: [
    { pattern: /\btiktok\b/, weight: 3 },
    { pattern: /\bfollowing\b.*\bfollowers\b.*\blikes\b/, weight: 3 },
    { pattern: /\blikes\b/, weight: 1 },
    { pattern: /\bfollowers\b/, weight: 1 },
    { pattern: /\bfollowing\b/, weight: 1 },
    { pattern: /\bmessage\b/, weight: 1 },
    { pattern: /\bfor you\b/, weight: 1 },
    { pattern: /\badd comment\b/, weight: 1 },
  ],
  facebook: [
    { pattern: /\bfacebook\b|\bfb\.com\b/, weight: 3 },
    { pattern: /\b[\d.,]+k? likes\b.*\bfollowers\b/, weight: 2 },
    { pattern: /\bintro\b/, weight: 2 },
    { pattern: /\blike\b.*\bcomment\b|\bcomment\b.*\bshare\b/, weight: 2 },
    { pattern: /\bfollowers\b/, weight: 1 },
    { pattern: /\bfollowing\b/, weight: 1 },
    { pattern: /\bmessage\b/, weight: 1 },
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

/** A screenshot "looks like" a review platform from this score; another platform needs this much more to call it wrong. */
export const REVIEW_MARKER_THRESHOLD = 3;
export const SOCIAL_MARKER_THRESHOLD = 2;
const SOCIAL_WRONG_PLATFORM_MARGIN = 3;

// ---------------------------------------------------------------------------------------------
// Review text and stars

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
  const letters = ocr.lines.map((l) => l.text).join(' ').match(/\p{L}{2,}/gu) ?? [];
  return letters.join('').length >= 12;
}

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

export type ReviewJudgeInput = { platform: ReviewPlatform; businessName: string; reviewerName: string };

/**
 * Judges a review screenshot from its text: platform markers, business name, reviewer name.
 * The review link, the image hash and the review-text duplicate are checked around it.
 */
export function judgeReview(input: ReviewJudgeInput, ocr: OcrText, starRows: readonly StarRow[] = []): Verdict {
  const label = PLATFORM_LABELS[input.platform];
  if (!hasText(ocr)) {
    return {
      ok: false,
      code: 'no_text',
      reason: `We couldn't read any text in this screenshot. Upload a clear screenshot of your ${label} review that shows your name and the review.`,
    };
  }
  const scores = reviewPlatformScores(ocr, starRows);
  const own = scores[input.platform];
  if (own < REVIEW_MARKER_THRESHOLD) {
    const [other, otherScore] = (Object.entries(scores) as Array<[ReviewPlatform, number]>)
      .filter(([p]) => p !== input.platform)
      .sort((a, b) => b[1] - a[1])[0]!;
    if (otherScore >= REVIEW_MARKER_THRESHOLD && otherScore > own) {
      return {
        ok: false,
        code: 'wrong_platform',
        reason: `This looks like ${withArticle(PLATFORM_LABELS[other])} screenshot, but it was uploaded for ${label}. Upload a screenshot of your review on ${label}.`,
      };
    }
    return {
      ok: false,
      code: 'not_platform',
      reason: `This doesn't look like ${withArticle(label)} review. Upload a screenshot of your review as it appears on ${label}.`,
    };
  }
  const reviewer = findName(ocr, input.reviewerName);
  const body = extractReviewText(ocr, reviewer?.line ?? null);
  // The business must be named outside the review's own words (a review of another place that
  // mentions this one does not count).
  const business = findBusinessName(ocr, input.businessName, { skipLines: body?.lines });
  if (!business) {
    return {
      ok: false,
      code: 'business_not_found',
      reason: `We couldn't find ${quoted(input.businessName)} in the screenshot. Upload a screenshot of your review of ${input.businessName.trim()} that shows the business name.`,
    };
  }
  if (!reviewer) {
    return {
      ok: false,
      code: 'reviewer_not_found',
      reason: `We couldn't find your name ${quoted(input.reviewerName)} in the screenshot. Upload a screenshot that shows your review with your name, or enter your name exactly as it appears on ${label}.`,
    };
  }
  const reviewText = body?.text;
  const normalised = reviewText ? normaliseReviewText(reviewText) : null;
  return {
    ok: true,
    ...(reviewText ? { reviewText } : {}),
    ...(normalised ? { normalisedReviewText: normalised } : {}),
    starRating: pickStarRating(starRows, ocr.lines[reviewer.line] ?? null, ocr.height),
  };
}

export type SocialJudgeInput = {
  platform: SocialPlatform;
  businessName: string;
  businessHandle: string;
  userHandle: string;
  verificationType: SocialVerificationType;
};

const FOLLOWING_WORDS: Record<SocialPlatform, string[]> = {
  instagram: ['following'],
  x: ['following'],
  tiktok: ['following', 'friends'],
  facebook: ['following', 'liked'],
};

/**
 * Lines where "Following" is a label, not a button: counters ('210 Following 5,321 Followers')
 * and the feed tabs of X and TikTok ('For you  Following'), which show on any timeline.
 */
function isLabelLine(tokens: string[]): boolean {
  if (tokens.some((t) => t === 'followers' || t === 'posts' || t === 'likes' || t === 'follower')) return true;
  return tokens.join(' ').includes('for you');
}

/** 'following' when a Following button shows, 'follow' when only a Follow button does, else null. */
export function followState(ocr: OcrText, platform: SocialPlatform): 'following' | 'follow' | null {
  let sawFollow = false;
  for (const line of ocr.lines) {
    const tokens = words(line.text);
    if (isLabelLine(tokens)) continue;
    for (const token of tokens) {
      if (FOLLOWING_WORDS[platform].some((w) => levenshtein(token, w, 1) <= (w.length >= 8 ? 1 : 0))) return 'following';
      if (token === 'follow') sawFollow = true;
    }
  }
  return sawFollow ? 'follow' : null;
}

/**
 * Judges a follow or tag screenshot: platform markers, the business's handle (or, for a follow,
 * its name), a Following state (follow) or the customer's handle and an @mention (tag).
 */
export function judgeSocial(input: SocialJudgeInput, ocr: OcrText): Verdict {
  const label = PLATFORM_LABELS[input.platform];
  const business = atHandle(input.businessHandle);
  const what = input.verificationType === 'follow' ? `the ${business} profile on ${label}` : `your ${label} post that tags ${business}`;
  if (!hasText(ocr)) {
    return { ok: false, code: 'no_text', reason: `We couldn't read any text in this screenshot. Upload a clear screenshot of ${what}.` };
  }
  const scores = socialPlatformScores(ocr);
  const own = scores[input.platform];
  const [other, otherScore] = (Object.entries(scores) as Array<[SocialPlatform, number]>)
    .filter(([p]) => p !== input.platform)
    .sort((a, b) => b[1] - a[1])[0]!;
  if (own < SOCIAL_MARKER_THRESHOLD || otherScore >= own + SOCIAL_WRONG_PLATFORM_MARGIN) {
    if (otherScore >= SOCIAL_MARKER_THRESHOLD && otherScore > own) {
      return {
        ok: false,
        code: 'wrong_platform',
        reason: `This looks like ${withArticle(PLATFORM_LABELS[other])} screenshot, but it was uploaded for ${label}. Upload a screenshot of ${what}.`,
      };
    }
    return { ok: false, code: 'not_platform', reason: `This doesn't look like ${withArticle(label)} screenshot. Upload a screenshot of ${what}.` };
  }

  if (input.verificationType === 'follow') {
    const found = findHandle(ocr, input.businessHandle) ?? findBusinessName(ocr, input.businessName);
    if (!found) {
      return {
        ok: false,
        code: 'business_not_found',
        reason: `We couldn't find ${business} in the screenshot. Upload a screenshot of the ${business} profile on ${label} that shows you follow it.`,
      };
    }
    const state = followState(ocr, input.platform);
    if (state !== 'following') {
      return {
        ok: false,
        code: 'not_following',
        reason:
          state === 'follow'
            ? `The screenshot shows a "Follow" button, so it looks like you don't follow ${business} yet. Follow ${business} on ${label}, then upload a screenshot that shows "Following".`
            : `We couldn't see that you follow ${business}. Upload a screenshot of the ${business} profile on ${label} that shows the "Following" button.`,
      };
    }
    return { ok: true };
  }

  const mention = findHandle(ocr, input.businessHandle, { mention: true });
  if (!mention) {
    return {
      ok: false,
      code: 'mention_not_found',
      reason: `We couldn't find the tag ${business} in the screenshot. Tag ${business} in your ${label} post, then upload a screenshot that shows the tag.`,
    };
  }
  const user = findHandle(ocr, input.userHandle);
  if (!user) {
    return {
      ok: false,
      code: 'user_not_found',
      reason: `We couldn't find your handle ${atHandle(input.userHandle)} in the screenshot. Upload a screenshot of your own post that shows your handle and the ${business} tag.`,
    };
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Reasons used around the judgement

export function missingField(field: 'reviewerName' | 'reviewLink' | 'userHandle' | 'businessHandle', platform: ReviewPlatform | SocialPlatform): Verdict {
  const label = PLATFORM_LABELS[platform];
  const reason = {
    reviewerName: `Please enter your name as it appears on your ${label} review.`,
    reviewLink: `Please paste the link to your ${label} review.`,
    userHandle: `Please enter your ${label} handle.`,
    businessHandle: `This survey has no ${label} handle set up, so the screenshot can't be checked. Please tell the business.`,
  }[field];
  return { ok: false, code: 'missing_field', reason };
}

export function duplicateImage(businessName: string): Verdict {
  return {
    ok: false,
    code: 'duplicate_image',
    reason: `This screenshot has already been used for a reward at ${businessName.trim()}. Each review or follow can earn a reward only once.`,
  };
}

export function duplicateReviewText(businessName: string): Verdict {
  return {
    ok: false,
    code: 'duplicate_review_text',
    reason: `This review has already been used for a reward at ${businessName.trim()}. Each review can earn a reward only once.`,
  };
}

export const OCR_TIMEOUT_REASON = "We couldn't read this screenshot in time. Please try again.";

export function ocrTimeout(): Verdict {
  return { ok: false, code: 'ocr_timeout', reason: OCR_TIMEOUT_REASON };
}

export function unreadableImage(): Verdict {
  return {
    ok: false,
    code: 'unreadable_image',
    reason: "We couldn't open this image. Upload a screenshot saved as PNG or JPEG.",
  };
}
