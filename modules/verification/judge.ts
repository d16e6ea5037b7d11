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
 *
 * The judge lives in judge/: ocr (what the adapters hand over), verdicts (the verdict shapes and
 * the reasons around the judgement), links, tokens, names, handles, markers (platform scores),
 * dates, layout (chats, composers, follow buttons), review (judgeReview) and social (judgeSocial).
 * This index re-exports the names the rest of the repo uses.
 */
export { type Box, type Rgb, type OcrWord, type OcrLine, type OcrText, type StarRow, ocrFromText } from './judge/ocr.ts';
export { type Verdict, type Rejection, needsReview, isRejection, hasText, missingField, duplicateImage, duplicateReviewText, OCR_TIMEOUT_REASON, ocrTimeout, unreadableImage } from './judge/verdicts.ts';
export { businessNamedByLink, checkReviewLink } from './judge/links.ts';
export { type Match, findNames, nameCandidateLines, findUnsureNames, findName, findBusinessNames, findBusinessName } from './judge/names.ts';
export { type HandleMatch, findHandles, findNearHandle, findHandle } from './judge/handles.ts';
export { reviewPlatformScores, socialPlatformScores, REVIEW_MARKER_THRESHOLD, SOCIAL_MARKER_THRESHOLD } from './judge/markers.ts';
export { isDateLine } from './judge/dates.ts';
export { looksLikeChat, composerLine, isFilledButton, type FollowButton, followButton, followState, socialComposer } from './judge/layout.ts';
export { extractReviewText, pickStarRating, type ReviewJudgeInput, judgeReview } from './judge/review.ts';
export { type SocialJudgeInput, judgeSocial } from './judge/social.ts';
