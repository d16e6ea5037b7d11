/**
 * Date lines and relative times ('3 days ago', '2 h', 'March 4') in every UI language.
 */
import { MONTH_STEMS, UI_LANGUAGES, RELATIVE_TIME, phraseSource, DAY_WORDS, DATE_LINE_WORDS } from '../profiles.ts';
import { fold } from '../text.ts';


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
export function withoutDateWords(text: string): string {
  return text
    .split(/\s+/)
    .filter((t) => {
      const w = fold(t).replace(/[^a-z]/g, '');
      return w.length >= 3 && !DATE_WORDS.test(w);
    })
    .join(' ');
}

/** A line that carries a date or a relative time ('2 days ago', 'Nov 3, 2025', '11/3/2025'). */
export function isDateLine(text: string, options: { short?: boolean } = {}): boolean {
  // OCR reads a month's 'o' as a zero between letters ('n0v', 'n0vembre'), and the 'á' of 'há' as '&'.
  const folded = fold(text)
    .replace(/(?<=[a-z])0(?=[a-z])/g, 'o')
    .replace(/\bh&(?=\s)/g, 'ha');
  return DATE_PATTERNS.some((p) => p.test(folded)) || (options.short === true && SHORT_AGO.test(folded));
}
