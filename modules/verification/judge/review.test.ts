import { describe, expect, it } from 'vitest';
import type { ReviewPlatform } from '../port.ts';
import { normaliseReviewText } from '../text.ts';
import { type ScreenshotReader, verifyReviewWith } from '../verify.ts';
import { isDateLine } from './dates.ts';
import { FACEBOOK_PRIYA, GOOGLE_ANA, GOOGLE_JOSE, YELP_MARCUS } from '../../../tests/fixtures/screenshot-readings.ts';
import { checkReviewLink } from './links.ts';
import { reviewPlatformScores } from './markers.ts';
import { findName } from './names.ts';
import { ocrFromText } from './ocr.ts';
import { extractReviewText, judgeReview, pickStarRating } from './review.ts';
import { hasText } from './verdicts.ts';

const ocr = ocrFromText;


it("a blurred picture's reading (every line under 50% confidence) is no text", () => {
  const blurred = ocr('teh A RR RB\nma & gem\nLEB BB J\nWel Er J');
  expect(hasText(blurred)).toBe(true);
  for (const line of blurred.lines) line.confidence = 45;
  expect(hasText(blurred)).toBe(false);
  expect(judgeReview({ platform: 'google', businessName: 'Crumb & Co Bakery', reviewerName: 'Ana Pereira' }, blurred)).toMatchObject({ ok: false, code: 'unreadable' });
});

describe('extractReviewText and pickStarRating', () => {
  it('takes the largest prose block after the name, not the owner reply or the header', () => {
    const text = ocr(GOOGLE_ANA);
    const body = extractReviewText(text, findName(text, 'Ana Pereira')!.line);
    expect(body?.text).toBe(
      'Best croissants in Portland, flaky and buttery every single time. The staff remembered my order after two visits and the oat latte was perfect. Worth the short wait on a Saturday morning.',
    );
    expect([...(body?.lines ?? [])]).toEqual([10, 11, 12, 13]);
  });

  it("takes the customer's review, not a longer one by someone else below it", () => {
    const text = ocr(
      `${GOOGLE_JOSE}\nMarta K.\n3 reviews\na month ago\nWe came for breakfast on a rainy Sunday and stayed for hours, the staff kept\nthe coffee coming and the cinnamon rolls were the best we have had in years.`,
    );
    const body = extractReviewText(text, findName(text, 'Jose Alvarez')!.line);
    expect(body?.text).toMatch(/^Lovely little bakery.*sourdough\.$/);
  });

  it('finds nothing in a screen without prose', () => {
    expect(extractReviewText(ocr('Following\n210 Following 5,321 Followers'), null)).toBeNull();
  });

  const name = (y: number) => ({ text: 'Ana', confidence: 90, words: [], bbox: { x0: 0, y0: y, x1: 100, y1: y + 40 } });
  it.each([
    ['the row just below the name', [{ y: 360, filled: 4 }, { y: 840, filled: 5 }], name(700), 5],
    ['a row above the name is the place average', [{ y: 360, filled: 4 }], name(700), null],
    ['a row far below is something else', [{ y: 1600, filled: 2 }], name(700), null],
    ['the only row when the name has no position', [{ y: 840, filled: 3 }], null, 3],
    ['no guess between rows without a name', [{ y: 360, filled: 4 }, { y: 840, filled: 5 }], null, null],
    ['no rows', [], name(700), null],
  ])('%s', (_label, rows, nameLine, expected) => expect(pickStarRating(rows, nameLine, 1640)).toBe(expected));
});

describe('judgeReview', () => {
  const base = { platform: 'google' as const, businessName: 'Crumb & Co Bakery', reviewerName: 'Ana Pereira' };

  // Issue 31 part 3, ADR 077: a name read unsure one look-alike letter off never matches; on the
  // author line it goes to the owner.
  it("a reviewer's name read unsure one look-alike letter off ('Ana Pcreira' at 55%) on the author line needs the owner's review; read sure, or another edit, it is another person", async () => {
    const read = (name: string, confidence: number, text = GOOGLE_ANA) => {
      const o = ocr(text.replace('(A) Ana Pereira', `(A) ${name}`));
      for (const line of o.lines) for (const word of line.words) if (word.text === name.split(' ')[1]) word.confidence = confidence;
      return o;
    };
    const stars = [{ y: 9.5 * 50, filled: 5 }];
    const unsure = judgeReview(base, read('Ana Pcreira', 55), stars);
    expect(unsure).toMatchObject({ ok: false, review: true, code: 'unsure_name', starRating: 5 });
    expect(unsure.ok ? '' : unsure.reason).toContain('"Ana Pereira"');
    expect(unsure).toMatchObject({ reviewText: expect.stringMatching(/^Best croissants in Portland/) });
    expect(judgeReview(base, read('Ana Pcreira', 90), stars)).toMatchObject({ ok: false, code: 'name_mismatch' });
    expect(judgeReview(base, read('Ana Pcreira', 90), stars)).not.toHaveProperty('review');
    // Not an OCR look-alike (a/e), or two letters off: another person, however unsure.
    expect(judgeReview(base, read('Ana Pereire', 40), stars)).toMatchObject({ ok: false, code: 'name_mismatch' });
    expect(judgeReview(base, read('Ana Pcrcira', 40), stars)).toMatchObject({ ok: false, code: 'name_mismatch' });
    // The review's text already rewarded: a duplicate, not a review for the owner.
    const reader: ScreenshotReader = { open: async () => ({ imageHash: 'sha256:' + '1'.repeat(64), read: async () => ({ kind: 'read', ocr: read('Ana Pcreira', 55), starRows: stars }) }) };
    const request = { businessId: 'b', businessName: 'Crumb & Co Bakery', platform: 'google' as const, image: Buffer.from('x'), reviewerName: 'Ana Pereira', reviewLink: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf' };
    const texts = { isImageRewarded: async () => false, isCopyRewarded: async () => false, isReviewTextRewarded: async () => true };
    expect(await verifyReviewWith(reader, { ...texts, isReviewTextRewarded: async () => false }, request)).toMatchObject({ verdict: 'needs_review', reviewCode: 'unsure_name', isValid: true });
    expect(await verifyReviewWith(reader, texts, request)).toMatchObject({ verdict: 'rejected', rejectionCode: 'duplicate' });
  });

  it('accepts a genuine review and returns its text', () => {
    const verdict = judgeReview(base, ocr(GOOGLE_ANA), [{ y: 9.5 * 50, filled: 5 }]);
    expect(verdict).toMatchObject({ ok: true, starRating: 5 });
    if (verdict.ok) {
      expect(verdict.reviewText).toMatch(/^Best croissants in Portland/);
      expect(verdict.normalisedReviewText).toBe(normaliseReviewText(verdict.reviewText!));
    }
  });

  it.each([
    ['Yelp', { ...base, platform: 'yelp' as const, reviewerName: 'Marcus Lee' }, YELP_MARCUS],
    ['Facebook', { ...base, platform: 'facebook' as const, reviewerName: 'Priya Shah' }, FACEBOOK_PRIYA],
    ['Google, accents typed without', { ...base, reviewerName: 'Jose Alvarez' }, GOOGLE_JOSE],
    ['Google, name shortened', { ...base, reviewerName: 'ana p.' }, GOOGLE_ANA],
  ])('accepts a genuine %s review', (_label, input, text) => expect(judgeReview(input, ocr(text)).ok).toBe(true));

  it.each([
    ['blank', base, '', 'unreadable', /couldn't read any text/],
    ['a Yelp review as Google', { ...base, reviewerName: 'Marcus Lee' }, YELP_MARCUS, 'wrong_platform', /looks like a Yelp review, but it was uploaded for Google/],
    ['a Google review as Facebook', { ...base, platform: 'facebook' as const }, GOOGLE_ANA, 'wrong_platform', /looks like a Google review/],
    ['a chat screenshot', base, 'Hey are you coming tonight\nYes see you at eight\nDelivered', 'not_a_review', /looks like a message or a note/],
    ['another business', base, GOOGLE_ANA.replaceAll('Crumb & Co Bakery', 'Golden Wok Noodle House'), 'wrong_business', /couldn't find "Crumb & Co Bakery"/],
    ['someone else', { ...base, reviewerName: 'Ana Pereira' }, GOOGLE_JOSE, 'name_mismatch', /couldn't find your name "Ana Pereira"/],
    ['a short claimed name', { ...base, reviewerName: 'Ana P.' }, GOOGLE_JOSE, 'name_mismatch', /"Ana P\."/],
  ])('rejects %s', (_label, input, text, code, reason) => {
    const verdict = judgeReview(input, ocr(text));
    expect(verdict).toMatchObject({ ok: false, code });
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('does not take the business name from the review text itself', () => {
    const text = GOOGLE_ANA.replaceAll('Crumb & Co Bakery', 'Golden Wok Noodle House').replace(
      'short wait on a Saturday morning.',
      'short wait, better than Crumb & Co Bakery down the road.',
    );
    expect(judgeReview(base, ocr(text))).toMatchObject({ ok: false, code: 'wrong_business' });
  });
});

// ---------------------------------------------------------------------------------------------
// The failure classes of issue 13, one by one.

const YELP_TODAY = `9:41
Crumb & Co Bakery
4.6 (128 reviews)
Write a review Add photo Check in Save
Marcus L.
Portland, OR
Elite 25
Nov 12, 2026
Came for the sourdough, stayed for the cardamom
buns. Seating is limited but the staff are quick and
cheerful. Prices are fair for the quality.
Helpful 3 Thanks 1 Love this 2 Oh no`;

const GOOGLE_DRAFT = `Cancel Post
Crumb & Co Bakery
Ana Pereira
Posting publicly across Google
Best croissants in Portland, flaky and buttery every
single time. The staff remembered my order.
Add photos`;

const CHAT = `Ana Pereira
Today 10:15
I left a Google review for Crumb & Co Bakery
5 stars, 2 days ago, best croissants ever
Nice! Thanks Ana`;

const NOTE = `Notes
Google review - Crumb & Co Bakery
Ana Pereira
Nov 12, 2026
Best croissants in Portland, flaky and buttery every single time.`;

const GOOGLE_SIGNED_IN_AS_ANA = GOOGLE_JOSE.replace('9:41', 'Ana Pereira\n9:41');

describe('issue 13 failure classes: reviews', () => {
  const base = { platform: 'google' as const, businessName: 'Crumb & Co Bakery', reviewerName: 'Ana Pereira' };

  it("today's Yelp (reactions, Check in) is Yelp, not Google", () => {
    expect(judgeReview({ ...base, platform: 'yelp', reviewerName: 'Marcus Lee' }, ocr(YELP_TODAY))).toMatchObject({ ok: true });
    expect(judgeReview({ ...base, reviewerName: 'Marcus Lee' }, ocr(YELP_TODAY))).toMatchObject({ ok: false, code: 'wrong_platform' });
  });

  it('a draft with its Post button is not posted', () => {
    const verdict = judgeReview(base, ocr(GOOGLE_DRAFT));
    expect(verdict).toMatchObject({ ok: false, code: 'not_posted' });
    if (!verdict.ok) expect(verdict.reason).toMatch(/hasn't been posted yet/);
  });

  it.each([
    ['a chat message', CHAT],
    ['a note', NOTE],
    ['a flyer', 'Love our croissants?\nReview us on Google!\nCrumb & Co Bakery\nAna Pereira, owner'],
  ])('%s naming the platform, the business and the reviewer is not a review', (_label, text) => {
    expect(judgeReview(base, ocr(text))).toMatchObject({ ok: false, code: 'not_a_review' });
  });

  it("the customer's name elsewhere on screen (signed in) is not the author line", () => {
    const verdict = judgeReview(base, ocr(GOOGLE_SIGNED_IN_AS_ANA));
    expect(verdict).toMatchObject({ ok: false, code: 'name_mismatch' });
    if (!verdict.ok) expect(verdict.reason).toMatch(/isn't shown as the author/);
  });

  it('a business one letter away is another business', () => {
    expect(judgeReview(base, ocr(GOOGLE_ANA.replaceAll('Crumb & Co', 'Crumb & Go')))).toMatchObject({ ok: false, code: 'wrong_business' });
    expect(judgeReview(base, ocr(GOOGLE_ANA.replaceAll('Crumb & Co Bakery', 'Crumbs & Co Bakery')))).toMatchObject({ ok: false, code: 'wrong_business' });
  });

  it.each<[ReviewPlatform, string, boolean]>([
    ['yelp', 'https://www.yelp.com/biz/crumb-and-co-bakery-portland', true],
    ['yelp', 'https://www.yelp.com/biz/crumb-pdx-2', true],
    ['yelp', 'https://www.yelp.com/biz/golden-wok-noodle-house-portland', false],
    ['yelp', 'https://www.yelp.com/biz/Wq3kX9aBcD1eFgH2iJkLmN', true], // an id names nothing
    ['google', 'https://www.google.com/maps/place/Crumb+%26+Co+Bakery/@45.5,-122.6,17z', true],
    ['google', 'https://www.google.com/maps/place/Golden+Wok/@45.5,-122.6,17z', false],
    ['google', 'https://g.page/r/CrumbAndCo/review', true],
    ['facebook', 'https://www.facebook.com/crumbandco/reviews', true],
    ['facebook', 'https://www.facebook.com/crumbandcoofficial/reviews', true], // without the survey's handle, unknowable
    ['facebook', 'https://www.facebook.com/goldenwokpdx/reviews', false],
    ['facebook', 'https://www.facebook.com/permalink.php?story_fbid=1', true],
  ])('%s link %s names the right business: %s', (platform, link, right) => {
    const verdict = checkReviewLink(platform, link, { name: 'Crumb & Co Bakery' });
    expect(verdict.ok ? true : verdict.code).toBe(right ? true : 'wrong_business');
  });

  it.each<[string, boolean]>([
    ['https://www.facebook.com/cc.pdx/reviews', true], // the survey's own page handle
    ['https://m.facebook.com/CC.PDX/', true],
    ['https://www.facebook.com/crumbandcoofficial/reviews', false], // our name, another page
    ['https://www.facebook.com/crumbandco/reviews', false],
    ['https://www.facebook.com/pages/Crumb-Co-Bakery/123456', true], // a page named by its title
    ['https://www.facebook.com/share/p/AbC123/', true],
  ])('with the survey\'s Facebook handle, the link %s names its page: %s', (link, right) => {
    const verdict = checkReviewLink('facebook', link, { name: 'Crumb & Co Bakery', handle: '@cc.pdx' });
    expect(verdict.ok ? true : verdict.code).toBe(right ? true : 'wrong_business');
  });
});

describe('reviews as the apps show them in every language (train 2)', () => {
  const base = { platform: 'google' as const, businessName: 'Harbor Light Diner', reviewerName: 'Noah Williams' };
  const GOOGLE_FR = `9:12
< Harbor Light Diner
Harbor Light Diner
4.6 (545) - Diner
Présentation Menu Avis Photos À propos
545 avis
Les plus pertinents Les plus récents
Noah Williams
74 avis - 242 photos
il y a 2 jours
Petit endroit charmant, café excellent et pâtisseries
délicieuses. Je recommande vivement.
J'aime Partager
Daniel Kim
Local Guide - 4 avis - 20 photos`;

  it("a French Google review (J'aime, Partager; the reviewer's own 'je recommande') is Google's, not Facebook's", () => {
    expect(reviewPlatformScores(ocr(GOOGLE_FR)).facebook).toBeLessThan(3);
    expect(judgeReview(base, ocr(GOOGLE_FR))).toMatchObject({ ok: true });
  });

  it("OCR's glued French date ('ilya2 jours') still dates the review", () => {
    expect(judgeReview(base, ocr(GOOGLE_FR.replace('il y a 2 jours', 'ilya2 jours')))).toMatchObject({ ok: true });
  });

  it("a date OCR glued whole, with a zero for the month's 'o' ('19n0v2026'), still dates the review", () => {
    expect(isDateLine('B88 > * 19n0v2026')).toBe(true);
    expect(isDateLine('19nov.2026')).toBe(true);
    expect(isDateLine('h& uma semana')).toBe(true); // 'há uma semana'
    expect(isDateLine('jays ago')).toBe(true); // '5 days ago' on a dim photo, its number lost
    expect(isDateLine('I had a few days ago')).toBe(false);
    expect(judgeReview(base, ocr(GOOGLE_FR.replace('il y a 2 jours', '* * * 19n0v2026')))).toMatchObject({ ok: true });
    expect(isDateLine('Order 19n0v2 ready')).toBe(false);
  });

  it("a date line with the stars read as letters ('w % % % % Edited 5 days ago') still dates the review", () => {
    expect(judgeReview(base, ocr(GOOGLE_FR.replace('il y a 2 jours', 'w % % % % Edited 5 days ago')))).toMatchObject({ ok: true });
  });

  it("a chat's title bar ('< Reviews online') makes it a chat; a place's 'Order online' does not", () => {
    const bubble = `7:43\n< RE: online Reviews\n${'\n'.repeat(2)}Noah Williams\n* * * * * 2 days ago\nLovely little place, the owner came over.\nHarbor Light Diner - Google reviews\nLike - Share\nPost it!\n09:20\n\n\n\n\n\n\n\n\n\n\n\n\n\nMessage`;
    expect(judgeReview(base, ocr(bubble))).toMatchObject({ ok: false, code: 'not_a_review' });
    expect(judgeReview(base, ocr(bubble.replace('< RE: online Reviews', '< Harbor Light Diner Order online')))).toMatchObject({ ok: true });
  });

  it("'Yesterday' dates a review; a chat's 'Today 10:15' is a chat", () => {
    expect(judgeReview(base, ocr(GOOGLE_FR.replace('il y a 2 jours', 'yesterday')))).toMatchObject({ ok: true });
    expect(judgeReview(base, ocr(`Noah Williams\nToday 10:15\nI left a Google review for Harbor Light Diner\n5 stars, best diner ever`))).toMatchObject({ ok: false, code: 'not_a_review' });
  });

  it("Yelp in French, Spanish and Portuguese: 'Avis recommandés', the reactions row ('Utile Merci J'adore')", () => {
    const yelpFr = `yelp\nBlue Door Café\n* * * * * 654 avis\nÉcrire un avis Ajouter photo\nAvis recommandés\nSofia R.\nAustin, TX\n12/11/2026\nPetit endroit charmant, café excellent.`;
    expect(judgeReview({ ...base, platform: 'yelp', reviewerName: 'Sofia Rossi', businessName: 'Blue Door Café' }, ocr(yelpFr))).toMatchObject({ ok: true });
    expect(reviewPlatformScores(ocr('Útil 9 Obrigado 2 Adorei 1 Ah, não')).yelp).toBeGreaterThanOrEqual(3);
    expect(reviewPlatformScores(ocr('Me encanta este lugar, muy útil el personal, gracias')).yelp).toBe(0);
  });

  it("a composer's title bar ('X Rosa's Taqueria') over the text being typed is a review not posted yet", () => {
    const draft = `X Rosa's Taqueria\nTell us what happened.\nCozy spot with great coffee and\nfriendly service. The almond cake is a\nmust. A little busy on weekends but\nworth the wait |${'\n'.repeat(6)}`; // the empty box below
    const input = { platform: 'yelp' as const, businessName: "Rosa's Taqueria", reviewerName: 'Carmen Ruiz' };
    expect(judgeReview(input, ocr(draft))).toMatchObject({ ok: false, code: 'not_posted' });
    // A back arrow there is a page, not a composer.
    expect(judgeReview(input, ocr(draft.replace('X Rosa', '< Rosa')))).toMatchObject({ ok: false, code: 'not_a_review' });
  });

  it("icons and stars read as a short scrap ('tes', 'arm') do not push the date off the author line", () => {
    // A photographed Yelp page: the author's stats row and stars read as scraps between name and date.
    const photo = `yelp.com/biz/pho-saigon-house-houston\nyelp\nPho Saigon House\nRecommended Reviews\n® Fatima Z. Be Ha\nHouston, TX\ni6 *40 Ww 223\ntes\narm\n11/21/2026\nUpdated review\nTheir sourdough is the real deal. Crunchy crust open\nQ Helpful 1 ® Thanks 2`;
    const input = { platform: 'yelp' as const, businessName: 'Pho Saigon House', reviewerName: 'Fatima Zahra' };
    expect(judgeReview(input, ocr(photo))).toMatchObject({ ok: true });
    // Lines of text between still count: five of them and the name is not the author's.
    expect(judgeReview(input, ocr(photo.replace('tes\narm', 'Elite 2026\nFollow Fatima')))).toMatchObject({ ok: false, code: 'name_mismatch' });
  });

  it("a Facebook page's author line in French still counts for Facebook", () => {
    expect(reviewPlatformScores(ocr('Noah Williams recommande Harbor Light Diner\n2 j\nJ\'aime Commenter Partager')).facebook).toBeGreaterThanOrEqual(6);
  });

  it("the customer's own Contributions page: the name under the heading is the author", () => {
    const mine = `< Contributions\nNoah Williams\nFa\nReviews Photos\nHarbor Light Diner\nDiner - Portland\n3 days ago\nLovely little place, the owner came over to ask how everything was.\nLike Share`;
    expect(judgeReview(base, ocr(mine))).toMatchObject({ ok: true });
  });

  it("the Contributions page in Portuguese, its accents misread ('ContribuicGes', 'avaliacdes'), still names its owner", () => {
    const mine = `9:57\n< ContribuicGes VI\nNoah Williams\n111 avaliacdes\nAvaliacdes Fotos\nHarbor Light Diner .\nRestaurante - Portland, OR\nha uma semana\nLugar aconchegante, café ótimo e preço justo.\n5 Curtir Compartilhar`;
    expect(judgeReview(base, ocr(mine))).toMatchObject({ ok: true });
    // Someone else's review under the heading-free business page is still not the customer's.
    expect(judgeReview(base, ocr(mine.replace('< ContribuicGes VI\n', '').replace('111 avaliacdes\n', '').replace('Noah Williams', 'Noah Wilson')))).toMatchObject({ ok: false });
  });

  it("a composer in Spanish or French ('Publicar reseña' read 'Publicar reseia', 'Ajouter photo') is not posted", () => {
    const es = `2:26\nX Harbor Light Diner\nGreat! Let's hear more.\nLugar acogedor, buen café y precios justos.\nestaban buenisimos |\n[31 Afiadir foto\nPublicar reseia`;
    expect(judgeReview({ ...base, platform: 'yelp' }, ocr(es))).toMatchObject({ ok: false, code: 'not_posted' });
    // The photo button alone, its Post button cut off.
    const fr = `12:59\nX Harbor Light Diner\nPetit endroit charmant, café excellent et\npatisseries délicieuses.\nAjouter photo`;
    expect(judgeReview({ ...base, platform: 'yelp' }, ocr(fr))).toMatchObject({ ok: false, code: 'not_posted' });
    expect(judgeReview({ ...base, platform: 'yelp' }, ocr(`12:59\nX Harbor Light Diner\nPetit endroit charmant.\nPublier l'avis`))).toMatchObject({ ok: false, code: 'not_posted' });
  });

  it('a composer with its photo button and no date is not posted, even with the Post button cut off', () => {
    const draft = `11:31\nX Harbor Light Diner\nGreat! Let's hear more.\nCozy spot with great coffee and friendly service. The almond\ncake is a must.|\n[@] Add photo`;
    expect(judgeReview({ ...base, platform: 'yelp' }, ocr(draft))).toMatchObject({ ok: false, code: 'not_posted' });
    // A business page's 'Add photo' beside posted, dated reviews is not a composer.
    expect(judgeReview(base, ocr(`${GOOGLE_FR}\nAdd photo`))).toMatchObject({ ok: true });
  });

  it("a Google place link must name the whole business: a look-alike sharing its first words is another business", () => {
    const place = (name: string) => `https://www.google.com/maps/place/${name}/@41.87,-87.62,17z/data=!4m8`;
    expect(checkReviewLink('google', place('Casa+Verde+Cocina'), { name: 'Casa Verde Cantina' })).toMatchObject({ ok: false, code: 'wrong_business' });
    expect(checkReviewLink('google', place('Casa+Verde+Cantina'), { name: 'Casa Verde Cantina' })).toEqual({ ok: true });
    expect(checkReviewLink('google', place('Casa+Verde'), { name: 'Casa Verde Cantina' })).toEqual({ ok: true });
    // A Yelp slug is the whole name and the city: every distinctive word of ours must be in it.
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/casa-verde-cantina-miami', { name: 'Casa Verde Cantina' })).toEqual({ ok: true });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/rosas-taqueria-san-diego', { name: "Rosa's Taqueria" })).toEqual({ ok: true });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/crumb-and-co-bakery-portland', { name: 'Crumb & Co Bakery' })).toEqual({ ok: true });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/the-copper-pot-savannah', { name: 'The Copper Kettle' })).toMatchObject({ ok: false, code: 'wrong_business' });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/casa-verde-chicago', { name: 'Casa Verde Cantina' })).toMatchObject({ ok: false, code: 'wrong_business' });
  });
});

describe("a review on the member's own Yelp profile (issue 31)", () => {
  // Yelp's profile: the member's name, their city, a stats row of three counts, the tabs, then each
  // review under the business's name, its city, the stars and the date.
  const profile = (stats: string) => ocr(`François L.\nValencia\n${stats}\nReseñas Photos Check-ins\nCrumb & Co Bakery\nPortland, OR\n2 oct 2026\n¡Buenísimo! Los croissants están increíbles y el servicio muy rápido.\nÚtil Gracias Me encanta`);
  const input = { platform: 'yelp' as const, businessName: 'Crumb & Co Bakery', reviewerName: 'François L.' };
  it('takes the name over the stats row as the author, whatever the language or a garbled word of it', () => {
    expect(judgeReview(input, profile('84 amigos · 19 reseñas · 181 fotos'))).toMatchObject({ ok: true });
    expect(judgeReview(input, profile('84 amigos - 19 resefias - 181 fotos'))).toMatchObject({ ok: true });
    expect(judgeReview(input, profile('16 amigos • 41 avaliagdes • 171 fotos'))).toMatchObject({ ok: true });
    expect(judgeReview(input, profile('55 amigos + 54 avaliagoes - 198 fotos'))).toMatchObject({ ok: true }); // a dot read '+'
  });
  it('takes the full name the customer typed for the first name and initial Yelp shows', () => {
    expect(judgeReview({ ...input, reviewerName: 'François Lefèvre' }, profile('84 amigos · 19 reseñas · 181 fotos'))).toMatchObject({ ok: true });
  });
  it('does not take any line under a name for a stats row', () => {
    expect(judgeReview(input, profile('Open until 6 pm'))).toMatchObject({ ok: false, code: 'name_mismatch' });
  });
});

describe('screens of the third draw of set C (ADR 096, rules 19-25)', () => {
  it("Google's 'Review posted' sheet under 'X Done' is a posted review, not a composer", () => {
    const posted = (close: string) =>
      ocr(`${close}\nReview posted\nThanks for sharing! Your review is now public on\nGoogle Maps.\nCasa Verde Cantina\nRestaurant - Ciudad de México\nGunther Weiss\nCafé incroyable et un accueil adorable.\nEdit Delete${'\n'.repeat(4)}`); // the sheet's empty space below
    const input = { platform: 'google' as const, businessName: 'Casa Verde Cantina', reviewerName: 'Gunther Weiss' };
    expect(judgeReview(input, posted('X Done'))).not.toMatchObject({ code: 'not_posted' });
    expect(judgeReview(input, posted('X Concluído'))).not.toMatchObject({ code: 'not_posted' });
    expect(judgeReview(input, posted('X Casa Verde Cantina'))).toMatchObject({ ok: false, code: 'not_posted' });
  });

  it("sends a name whose 'ß' was read 'f' or 'B' to the owner, never accepts it", () => {
    const page = (name: string) => `< Contributions\n${name}\nLocal Guide - 12 reviews\nReviews Photos\nCafé Lumière\nLyon\n3 days ago\nPasta fatta in casa buonissima.`;
    const input = { platform: 'google' as const, businessName: 'Café Lumière', reviewerName: 'Jurgen Grossmann' };
    expect(judgeReview(input, ocr(page('Jurgen Grofmann')))).toMatchObject({ ok: false, review: true, code: 'unsure_name' });
    expect(judgeReview(input, ocr(page('Jurgen GroBmann')))).toMatchObject({ ok: false, review: true, code: 'unsure_name' });
    expect(judgeReview(input, ocr(page('Jurgen Grotmann')))).toMatchObject({ ok: false, code: 'name_mismatch' });
  });

  it("reads 'Local Guide' in Polish with its 'l' read as '|'", () => {
    expect(reviewPlatformScores(ocr('Jurgen Grossmann\nprzewodnik |okalny\n3 dni temu')).google).toBeGreaterThanOrEqual(3);
  });

  it("takes a Yelp member's stats row with its review count garbled past recognition", () => {
    const profile = ocr(`Günther W.\nLyon, France\n66 amigos 180 resefias\nResefias Photos Tips\nCrumb & Co Bakery\nRestaurante - Bologna\n24 nov 2026\nDas beste Brot der Stadt.\nÚtil Gracias Me encanta`);
    expect(judgeReview({ platform: 'yelp', businessName: 'Crumb & Co Bakery', reviewerName: 'Günther W.' }, profile)).toMatchObject({ ok: true });
  });
});
