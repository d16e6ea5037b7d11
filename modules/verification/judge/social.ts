/**
 * judgeSocial: an Instagram, TikTok, X or Facebook follow or tag screenshot, and the rules only it
 * uses (the post's lines, a business named near the author, doubtful handles).
 */
import { type SocialPlatform, type SocialVerificationType, PLATFORM_LABELS } from '../port.ts';
import { CHECK_IN as CHECK_IN_PHRASES, FACEBOOK_REVIEWS, phrasePattern, phraseSource, REPLYING_TO } from '../profiles.ts';
import { words, ocrKey, fold, levenshtein, normaliseHandle } from '../text.ts';
import { isDateLine } from './dates.ts';
import { type HandleMatch, UNSURE_HANDLE_CONFIDENCE, findHandles, findNearHandle } from './handles.ts';
import { followButton, socialComposer, suggestionsStart } from './layout.ts';
import { SOCIAL_MARKER_THRESHOLD, clearlyOther, socialPlatformScores } from './markers.ts';
import { findBusinessNames, wrappedBusinessNames } from './names.ts';
import type { OcrLine, OcrText } from './ocr.ts';
import { cleanTokens, handleTokens, tokenConfidence } from './tokens.ts';
import { type Verdict, atHandle, hasText, needsReview, quoted, reject, withArticle } from './verdicts.ts';


/** A look-alike handle read at least this sure (0-100) outweighs the handle itself read unsure. */
const CONFIDENT_LOOK_ALIKE = 80;

export type SocialJudgeInput = {
  platform: SocialPlatform;
  businessName: string;
  businessHandle: string;
  userHandle: string;
  verificationType: SocialVerificationType;
};

// A reaction summary names likers, not the author: 'sofia.rossi and 309 more' ('y 309 más', 'e 12 outros',
// Italian 'Piace a giulia e altri', German 'Gefällt 12 Mal', 'Gefällt anna und 12 weiteren').
const LIKED_LINE = /\b(liked by|likes? by|liked this|followed by|reposted|le gusta|aime par|a aime|curtiu|and \d+ others?|and others|reposted by|\d+ likes?|le gusta a|les gusta a|aime par|curtido por|y \d+ personas|et \d+ autres|e outras|and \d+ more|y \d+ mas|et \d+ personnes|e (mais )?\d+ (outras|outros|pessoas)|piace a|gefallt \d+|gefallt [\w.]+ und)\b/;
// Where a post's comments begin: Instagram's 'View all 59 comments' in the app's language ('Afficher les
// 59 commentaires', 'Alle 59 Kommentare ansehen', 'Zobacz wszystkie komentarze', 'Mostra tutti i 59 commenti').
const COMMENTS_START = /\bview (all )?\d* ?comments?\b|^comments?$|(^|\s)\d+ comments?$|\badd a comment\b|\bmost relevant\b|\bpost your reply\b|\bver (los|todos os) \d+ comentarios\b|\bvoir (les )?\d+ commentaires\b|^comentarios$|^commentaires$|\banade un comentario\b|\bajouter un commentaire\b|\badicione um comentario\b|\bafficher (les )?\d* ?commentaires\b|\balle \d* ?kommentare\b|\bkommentare ansehen\b|\bzobacz (wszystkie )?(\d+ )?komentarz|\b(mostra|visualizza) (tutti )?(i )?\d* ?commenti\b|\baggiungi un commento\b/;

/** 'Replying to', 'Antwort an', 'W odpowiedzi do' (profiles.ts). */
const REPLYING = phrasePattern(REPLYING_TO);

/**
 * A page name one word off the business's on a line of the post (Facebook tags a page by name):
 * 'Nonno's Trattoria' for 'Nonna's Trattoria', another page. Only for the reason given: the tag
 * is missing either way. Returns the name as read, or null.
 */
/** Facebook's check-in words before a place's name ('is at', 'ist bei', 'si trova presso'; profiles.ts), ending the words before it. */
const CHECK_IN = new RegExp(`\\b(${phraseSource(CHECK_IN_PHRASES)})$`);
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
      const checkIn = CHECK_IN.test(fold(raw.slice(Math.max(0, start - 3), start).join(' ')));
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

/** Facebook's action bar under a post, in any of the profiles' languages: 'Like Comment Share', 'Curtir Comentar Compartilhar', 'Gefällt mir Kommentieren Teilen'. */
const FACEBOOK_ACTION_BAR = new RegExp(`\\b(${phraseSource(FACEBOOK_REVIEWS.like)})\\b.*\\b(${phraseSource(FACEBOOK_REVIEWS.comment)})\\b.*\\b(${phraseSource(FACEBOOK_REVIEWS.share)})\\b`);

/**
 * Which lines are the post's own (its header, caption, stickers and overlays), as opposed to likes
 * and comments: 'Liked by' lines never count, nor lines after the comments start ('View all 12
 * comments', a comments sheet's heading) nor a line followed by a 'Reply' link (a comment).
 */
function postLines(ocr: OcrText, platform: SocialPlatform): boolean[] {
  const folded = ocr.lines.map((l) => fold(l.text).replace(/\s+/g, ' ').trim());
  // On X a post's page ends with its time and views ('5 hours ago · 1,560 Views', '20 novembre -
  // 143 vues', '1,2 mil visualizaciones', 'visualizações'); its action bar, likers and replies follow.
  // On Facebook the action bar (Like, Comment, Share, in the app's language) closes the post; comments follow.
  const start = folded.findIndex(
    (t) =>
      COMMENTS_START.test(t) ||
      (platform === 'x' && /\b[\d.,]+\s?(k|m|mil)? (views|vues|visualizaciones|visualizacoes)\b/.test(t)) ||
      (platform === 'facebook' && FACEBOOK_ACTION_BAR.test(t)),
  );
  return folded.map((text, i) => {
    if (start >= 0 && i > start) return false;
    if (LIKED_LINE.test(text)) return false;
    const next = folded.slice(i + 1, i + 3);
    return !next.some((t) => /(^|\s)(reply|responder|repondre)$|^(reply|responder|repondre)\b|\d+[smhdw] (reply|responder|repondre)\b/.test(t));
  });
}

/**
 * Whether a person's name and a username share a word: a word of the username of 3 letters or more
 * that starts a word of the name, or the reverse ('priya.rag' and 'Priya Raghunathan', 'mehmet.ozturk'
 * and 'Mehmet Oztiirk' as OCR reads 'ü'). Accents and case folded.
 */
function nameSharesHandleWord(name: string, handle: string): boolean {
  const nameWords = words(fold(name)).filter((w) => w.length >= 3);
  const handleWords = fold(normaliseHandle(handle)).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3);
  // ... or a word one letter off, of five letters or more: 'juergen' for 'Jürgen' (ü typed as 'ue'),
  // 'nunez' for 'Nufiez' (ñ read as 'fi'). Only ever a reason to ask the owner, never to accept.
  return handleWords.some((h) => nameWords.some((n) => n.startsWith(h) || h.startsWith(n) || (Math.min(n.length, h.length) >= 5 && levenshtein(n, h, 1) <= 1)));
}

/**
 * The author line of a Facebook post: the first line of the post (`own`) that starts with a name of
 * two words or more and has the post's time ('3d', '2w · 🌐', 'Yesterday at 5:12 PM') on one of the
 * next two lines, as Facebook lays out every post's header. Null when there is none.
 */
function facebookAuthorLine(ocr: OcrText, own: readonly boolean[]): number | null {
  for (let i = 0; i < ocr.lines.length; i++) {
    if (!own[i]) continue;
    // The round profile picture before the name is often read as a sign or a letter ('& Dalia Núñez
    // is at …', ') Björn Åström …'): a first token of one character is skipped.
    const words = ocr.lines[i]!.text.trim().split(/\s+/);
    if (words.length > 2 && [...words[0]!].length === 1) words.shift();
    const named = words.slice(0, 2).every((w) => /^\p{Lu}[\p{L}'’-]+$/u.test(w));
    if (!named) continue;
    if (ocr.lines.slice(i + 1, i + 3).some((l) => isDateLine(l.text, { short: true }) || isDateLine(l.text))) return i;
  }
  return null;
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
    // So does a confident look-alike when the handle itself was read unsure: a profile shows its
    // handle small in the header, where OCR may read it unsure and drop a final '_'
    // ('@littlefigcoffee'), while the account's own posts below show it again, read clearly
    // ('@littlefigcoffee_'): the clear reading says which account this is.
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
    // No follow button read at all is not a sign of not following: the profile is the business's,
    // and the button is the one thing OCR missed (a label inside an outlined pill beside the avatar,
    // as X draws it; a liked page's button in a wording the profiles do not list). The owner looks.
    // A button read as "Follow" (or "Follow back", "Requested") is: that stays a rejection.
    if (!button) {
      return needsReview(
        'unsure_follow',
        `The screenshot shows the ${business} profile on ${label}, but its follow button could not be read. Check whether the button under its name says "Following" (or "Liked" on a Facebook page).`,
      );
    }
    if (button.state !== 'following') {
      return reject(
        'not_following',
        `The ${business} profile still shows a "Follow" button, so you don't follow it yet. Tap Follow on ${label}, then upload a new screenshot that shows "Following".`,
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
    // Facebook heads a post with its author's name over the time ('Priya Raghunathan' / '2w · 🌐'),
    // never the username the customer typed ('priya.rag'): a name that does not spell it is not
    // another person's for sure. The owner, who sees the name, decides.
    const authorName = facebook && !seen ? facebookAuthorLine(ocr, own) : null;
    if (authorName !== null && nameSharesHandleWord(ocr.lines[authorName]!.text, input.userHandle)) {
      return needsReview(
        'unsure_author',
        `This Facebook post tags ${input.businessName.trim()} and its author is shown as "${ocr.lines[authorName]!.text.trim().slice(0, 80)}"; Facebook shows names, not usernames, and the customer gave "${input.userHandle.trim().slice(0, 80)}". Check that the post is the customer's.`,
      );
    }
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
