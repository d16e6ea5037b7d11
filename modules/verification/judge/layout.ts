/**
 * Layout detectors: chats and notes (not an app's page), review and post composers (not posted yet),
 * label lines, and the follow button of a profile and its state.
 */
import { fold, words, levenshtein } from '../text.ts';
import { type SocialPlatform } from '../port.ts';
import { phraseList, SOCIAL_PROFILES, wordSet, COUNTER_WORDS as PROFILE_COUNTER_WORDS, phrasePattern, SUGGESTIONS as SUGGESTION_HEADINGS, FOLLOWED_BY, MESSAGE, phraseSource, SOCIAL_COMPOSER_TITLES, SOCIAL_COMPOSER_OPTIONS, DONE, FOLLOWING_LIST } from '../profiles.ts';
import { RECOMMENDS } from './markers.ts';
import { type OcrLine, type OcrText, type Rgb, lineHeight } from './ocr.ts';


/**
 * What only a review being written shows: the composer's prompts and its Post button. A posted
 * review never shows them (the platforms' 'Write a review' buttons beside posted reviews do not count).
 */
/** Facebook's question over a page's reviews and in its composer ('Do you recommend …?'). */
const DO_YOU_RECOMMEND = /\bdo you recommend\b/;

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
  return ocr.lines.findIndex((l, index) => {
    const folded = fold(l.text).replace(/[^a-z' ]+/g, ' ').replace(/\s+/g, ' ').trim();
    // Facebook's Reviews tab asks the viewer 'Do you recommend <Page>?' (Yes / No) over the posted
    // recommendations ('Name recommends <Page>.'): with one below it, the prompt is not a composer.
    if (DO_YOU_RECOMMEND.test(folded) && ocr.lines.slice(index + 1).some((below) => RECOMMENDS.test(fold(below.text)))) return false;
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
/** ... but not a finished sheet's close and Done ('X Done', 'X Concluído'; profiles.ts). */
const CLOSE_DONE = new RegExp(`^[x×✕]\\s+(${phraseSource(DONE)})$`);

export function composerHint(ocr: OcrText): boolean {
  return ocr.lines.some((l) => ADD_PHOTO.test(fold(l.text).trim()) || (l.bbox.y1 <= ocr.height / 8 && CLOSE_TITLE.test(l.text.trim()) && !CLOSE_DONE.test(fold(l.text).trim())));
}

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

/** OCR reads a small 'g' as 'q' ('Sequi già' for Instagram's Italian 'Segui già'): two-word labels are compared with them merged. */
const gq = (value: string): string => value.replace(/q/g, 'g');

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
  if (/\bfor you\b|\bfrom people\b/.test(joined) || FOLLOWING_LIST_TITLE.test(joined)) return true;
  // A page's social proof ('mateus.costa, omar.haddad and 8 other friends follow this'): a sentence
  // about other people, not the button. So is Instagram's 'Followed by ana and 12 others' ('Gefolgt
  // von ...', 'Obserwowany(-a) przez ...'), whose first word is a follow label in some languages.
  if (SOCIAL_PROOF.test(joined) || FOLLOWED_BY_LINE.test(fold(text))) return true;
  return tokens.some((t) => ['home', 'inbox', 'profile', 'explore', 'notifications', 'search', 'shop', 'reels', 'communities'].includes(t));
}

/** A following list's title ('People you follow'; profiles.ts). */
const FOLLOWING_LIST_TITLE = phrasePattern(FOLLOWING_LIST);

const SOCIAL_PROOF =
  /\b(friends?|others?|people|amigos|amis|personas|pessoas|autres|otros|outros)\b.*\b(follows?|like|likes|siguen|sigue|suivent|suit|seguem|segue|aiment|les gusta|curtem)\b|\b(follows?|likes?) this\b/;

const COUNTER_WORDS = wordSet(PROFILE_COUNTER_WORDS);

/** Lines after a suggestions heading show other accounts, with their own Follow buttons. */
const SUGGESTIONS = phrasePattern(SUGGESTION_HEADINGS);
const FOLLOWED_BY_LINE = phrasePattern(FOLLOWED_BY);
/** The Message button (one word: 'Message', 'Nachricht', 'Wiadomość'). */
const MESSAGE_WORDS = new Set(phraseList(MESSAGE).filter((w) => !w.includes(' ')));

export function suggestionsStart(ocr: OcrText): number {
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
  const counterRows = ocr.lines.filter((l) => words(l.text).some((t) => COUNTER_WORDS.has(t)));
  // Within 40% of the screen or twelve lines of text, whichever is more (a cropped screenshot is short).
  const reach = Math.max(ocr.height * 0.4, 12 * lineHeight(ocr));
  let best: (FollowButton & { distance: number }) | null = null;
  for (const [index, line] of ocr.lines.entries()) {
    if (index >= limit || isLabelLine(line.text) || onCounterRow(line, counterRows)) continue;
    for (const [w, word] of line.words.entries()) {
      const token = fold(word.text).replace(/[^a-z]/g, '');
      if (!token) continue;
      // A label of two words ('Folge ich', 'Lubisz to', 'Follow back') is read with the next word.
      const next = line.words[w + 1] ? fold(line.words[w + 1]!.text).replace(/[^a-z]/g, '') : '';
      const pair = next ? `${token} ${next}` : null;
      const following = FOLLOWING_WORDS[platform].some((l) => (l.includes(' ') ? pair !== null && gq(pair) === gq(l) : levenshtein(token, l, 1) <= (l.length >= 8 ? 1 : 0)));
      // (OCR drops a doubled letter of 'Follow': 'Folow'.)
      const follow = !following && (NOT_FOLLOWING_WORDS[platform].has(token) || (pair !== null && NOT_FOLLOWING_WORDS[platform].has(pair)) || token === 'folow');
      if (!following && !follow) continue;
      // A count before it makes it a counter's label ('1,204 Me gusta', '12K Like'), not the button;
      // a single digit is the button's icon as OCR reads it ('5 Polubione': the thumbs-up).
      if (/^(\d[\d.,]*\d|\d[\d.,]*[kmb])$/i.test(line.words[w - 1]?.text ?? '')) continue;
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
      // ... but a word beside 'Message' on its row that is not a known label may be the Follow
      // button OCR misread ('Rogen' for 'Folgen') or one in a wording not listed: no conclusion.
      const row = ocr.lines.filter((l) => sameRow(l, line)).flatMap((l) => l.words.map((w) => fold(w.text).replace(/[^a-z]/g, '')));
      if (row.some((t) => t.length >= 3 && !MESSAGE_WORDS.has(t))) continue;
      const distance = anchors.length === 0 ? 0 : Math.min(...anchors.map((a) => Math.abs(ocr.lines[a]!.bbox.y0 - line.bbox.y0)));
      if (anchors.length > 0 && distance > reach) continue;
      return { state: 'following', line: index, filled: false };
    }
  }
  return best ? { state: best.state, line: best.line, filled: best.filled } : null;
}

/** Two lines on one row of the screen: each one's vertical centre within the other's height. */
function sameRow(a: OcrLine, b: OcrLine): boolean {
  const centre = (l: OcrLine) => (l.bbox.y0 + l.bbox.y1) / 2;
  return Math.abs(centre(a) - centre(b)) <= Math.min(a.bbox.y1 - a.bbox.y0, b.bbox.y1 - b.bbox.y0) / 2 + 1;
}

/**
 * A short line (one or two words) on the row of a profile's counters ('posts  followers' read as one
 * line, 'following' as another): a counter's label, not the button ('690 posts  42.9K followers
 * 590 following' over an Instagram 'Follow Back' button).
 */
function onCounterRow(line: OcrLine, counterRows: readonly OcrLine[]): boolean {
  return line.text.trim().split(/\s+/).length <= 2 && counterRows.some((row) => row !== line && sameRow(row, line));
}

/** 'following' when the profile's button says so, 'follow' when it is a Follow button, else null (no anchors: the nearest to nothing, i.e. the first). */
export function followState(ocr: OcrText, platform: SocialPlatform, anchors: number[] = []): 'following' | 'follow' | null {
  return followButton(ocr, platform, anchors)?.state ?? null;
}

/**
 * What only a post being written shows: the composer's title ('New post', 'Create post', 'New
 * reel', in en/es/fr/pt) or its option rows ('Tag people', 'Add location', 'Everyone can reply',
 * "What's on your mind?"). A posted post, story or video never shows them.
 */
const SOCIAL_COMPOSER_TITLE = new RegExp(`^(<\\s*)?(${phraseSource(SOCIAL_COMPOSER_TITLES)})\\b`);
const SOCIAL_COMPOSER_ROWS = new RegExp(`\\b(${phraseSource(SOCIAL_COMPOSER_OPTIONS)})\\b|\\bhashtags\\b.*\\b(mention|erwahnen|oznacz)\\b`);

export function socialComposer(ocr: OcrText): boolean {
  const folded = ocr.lines.map((l) => fold(l.text).replace(/[^a-z<' ]+/g, ' ').replace(/\s+/g, ' ').trim());
  const rows = folded.filter((t) => SOCIAL_COMPOSER_ROWS.test(t)).length;
  // The title stands alone on the top bar ('< New post', 'Create post  Post'), not inside a caption.
  const title = folded.some((t, i) => SOCIAL_COMPOSER_TITLE.test(t) && t.split(' ').length <= 5 && ocr.lines[i]!.bbox.y0 < ocr.height * 0.2);
  return title || rows >= 2;
}
