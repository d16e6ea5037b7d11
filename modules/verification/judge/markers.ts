/**
 * Platform markers: the words and layouts each app shows (profiles.ts holds them per UI language,
 * ADR 085), scored to tell which platform a screenshot is from.
 */
import { phraseSource, FACEBOOK_REVIEWS, type Phrases, UI_LANGUAGES, RELATIVE_TIME, phrasePattern, GOOGLE, YELP, PROFILE_WORDS, FOLLOWED_BY, SOCIAL_PROFILES, MESSAGE, FOLLOWING_SORTED_BY } from '../profiles.ts';
import { type ReviewPlatform, type SocialPlatform } from '../port.ts';
import { fold } from '../text.ts';
import type { OcrText, StarRow } from './ocr.ts';


// ---------------------------------------------------------------------------------------------
// Platform markers

/**
 * Facebook's author line ('Priya Shah recommends Crumb & Co', 'empfiehlt', 'poleca'); French
 * 'recommande' only when no 'je', 'nous'... stands before it (a reviewer's own 'je recommande' in
 * the text is not the author line).
 */
export const RECOMMENDS = new RegExp(`\\b(${phraseSource(FACEBOOK_REVIEWS.recommends)})\\b|(?<!\\b(je|j'|nous|vous|on|tu|ne)\\s?)\\brecommande\\b`);

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
    // The sort line over the customer's own Following list ('Sorted by Default', 'Ordinati per: predefinito').
    { pattern: phrasePattern(FOLLOWING_SORTED_BY), weight: 2 },
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
    // A page's tab bar in the app's language: 'Posts  About  Reviews  Photos', 'Publications  À propos
    // Avis  Photos', 'Posty  Informacje  Opinie  Zdjęcia', 'Beiträge  Info  Bewertungen  Fotos'.
    { pattern: /\b(about|a ?propos|informacje|sobre|info|informazioni|informacion)\b.*\b(photos|fotos|zdjecia|foto)\b/, weight: 2 },
  ],
};

function markerScore(lines: string[], markers: Marker[]): number {
  let score = 0;
  for (const marker of markers) if (lines.some((line) => marker.pattern.test(line))) score += marker.weight;
  return score;
}

/** A line as the chrome's words are matched on it: folded, a '|' before a letter read as the 'l' it is ('|okalny przewodnik'). */
export const foldChrome = (text: string): string => fold(text).replace(/\|(?=[a-z])/g, 'l');
const markerLines = (ocr: OcrText): string[] => ocr.lines.map((l) => foldChrome(l.text));

/** The platform markers' scores of every review platform (a star row counts for Google and Yelp). */
export function reviewPlatformScores(ocr: OcrText, starRows: readonly StarRow[] = []): Record<ReviewPlatform, number> {
  const lines = markerLines(ocr);
  const stars = starRows.length > 0 ? 1 : 0;
  return {
    google: markerScore(lines, REVIEW_MARKERS.google) + stars,
    yelp: markerScore(lines, REVIEW_MARKERS.yelp) + stars,
    facebook: markerScore(lines, REVIEW_MARKERS.facebook),
  };
}

export function socialPlatformScores(ocr: OcrText): Record<SocialPlatform, number> {
  const lines = markerLines(ocr);
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

/** The other platform the markers point to, when it beats the claimed one clearly. */
export function clearlyOther<P extends string>(scores: Record<P, number>, claimed: P, threshold: number): P | null {
  const own = scores[claimed];
  const [other, otherScore] = (Object.entries(scores) as Array<[P, number]>).filter(([p]) => p !== claimed).sort((a, b) => b[1] - a[1])[0]!;
  return otherScore >= threshold && otherScore >= own + WRONG_PLATFORM_MARGIN ? other : null;
}
