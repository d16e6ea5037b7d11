/**
 * judgeReview: a Google, Yelp or Facebook review screenshot, and the rules only it uses (the author
 * line, the review's words and stars, another place named).
 */
import { type ReviewPlatform, PLATFORM_LABELS } from '../port.ts';
import { fold, words, ocrKey, levenshtein, normaliseReviewText } from '../text.ts';
import { OTHER_REVIEW_APPS, phrasePattern, phraseSource, GOOGLE, YELP, CONTRIBUTIONS } from '../profiles.ts';
import { isDateLine, withoutDateWords } from './dates.ts';
import { composerHint, composerLine, looksLikeChat } from './layout.ts';
import { RECOMMENDS, REVIEW_MARKER_THRESHOLD, clearlyOther, foldChrome, reviewPlatformScores } from './markers.ts';
import { type Match, findBusinessName, findNames, findUnsureNames } from './names.ts';
import { type OcrLine, type OcrText, type StarRow, gap, lineHeight } from './ocr.ts';
import { type Verdict, hasText, needsReview, quoted, reject, withArticle } from './verdicts.ts';


/** Words of a line, not counting what OCR made of star icons and bullets ('w % % % %'). */
function wordCount(text: string): number {
  return text.split(/\s+/).filter((t) => /[\p{L}\p{N}]{2}/u.test(t)).length;
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
    const header =
      ocr.lines.slice(name.line + 1, name.line + 3).some((l) => PROFILE_HEADER.test(foldChrome(l.text)) || (platform === 'yelp' && YELP_STATS_ROW.test(fold(l.text)))) ||
      (contributions >= 0 && contributions < name.line && name.line - contributions <= 3);
    if (header && dates.some((d) => d > name.line)) return name.line;
  }
  return null;
}

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
  // The empty box's placeholder ('Search here', 'Rechercher ici') and the title bar of the
  // reviewer's own page ('Your contributions', 'Tus contribuciones') after the same back arrow name no place.
  if (SEARCH_HERE.test(fold(box.text)) || CONTRIBUTIONS_TITLE.test(fold(box.text))) return false;
  const name = box.text.trim().replace(/^\S+\s+/, '').replace(/\s+\S$/, '');
  return words(name).filter((w) => w.length >= 3).length >= 2 && namesAnotherPlace(name, businessName);
}

/**
 * A review app we do not reward (Tripadvisor, Trustpilot): its name in the top bar, or a label only
 * it shows ('Date of visit', 'Datum des Besuchs', 'Data wizyty', Tripadvisor's 'wrote a review · Nov
 * 2026' under the reviewer's name) on a short line. Returns the app's name, or null.
 */
function otherReviewApp(ocr: OcrText): string | null {
  for (const [app, profile] of Object.entries(OTHER_REVIEW_APPS)) {
    const name = phrasePattern({ en: profile.names });
    const labels = phrasePattern(profile.labels);
    // A label is a short line of the app's chrome, not a sentence of a review that quotes it.
    const label = (l: OcrLine) => l.text.trim().split(/\s+/).length <= 8 && labels.test(fold(l.text));
    if (ocr.lines.some((l) => (l.bbox.y1 < ocr.height * 0.15 && name.test(fold(l.text))) || label(l))) return app;
  }
  return null;
}

const SEARCH_HERE = phrasePattern(GOOGLE.searchHere);
const CONTRIBUTIONS_TITLE = phrasePattern(CONTRIBUTIONS);

/**
 * The line under the name on a reviewer's own profile: Google's 'Local Guide · 124 reviews' ('Lokalny
 * przewodnik · 11 opinii') or 'N reviews', the heading 'Contributions'; Yelp's '12 friends · 34
 * reviews · 5 photos' ('5 amis · 32 avis', '108 Freunde · 49 Beiträge'; its second word may be
 * garbled, 'resefias' for 'reseñas': a friends count and another count are the shape). ('Contribuições' read
 * 'ContribuicGes': the heading is known by its stem.)
 */
const PROFILE_HEADER = new RegExp(
  `\\b(${phraseSource(GOOGLE.localGuide)})\\b|^\\d+ (${phraseSource(GOOGLE.reviewCounts, YELP.reviewCounts)})\\b|^\\d+ (${phraseSource(YELP.friends)})\\b.*\\b\\d+ [a-z]{3,}|\\bcontribu[a-z]{4,9}\\b|\\b(${phraseSource({ ...CONTRIBUTIONS, en: [], es: [], fr: [], pt: [] })})\\b`,
);

/**
 * Yelp's profile stats row under the member's name, in any language: three counts, each a number and
 * a word, joined by dots ('84 friends · 19 reviews · 181 photos', '16 amigos · 41 avaliações · 171
 * fotos'); OCR reads the dots as '-', '•' or '+' and may garble a word ('reseñas' as 'resefias'),
 * never the shape.
 */
const YELP_STATS_ROW = /^\d[\d.,]*k? \p{L}{3,} [-·•.+] \d[\d.,]*k? \p{L}{3,} [-·•.+] \d[\d.,]*k? \p{L}{3,}$/u;

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
