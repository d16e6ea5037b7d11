import { describe, expect, it } from 'vitest';
import { reviewPlatformScores, socialPlatformScores } from './judge/markers.ts';
import { ocrFromText as ocr } from './judge/ocr.ts';
import { judgeReview } from './judge/review.ts';
import { judgeSocial, type SocialJudgeInput } from './judge/social.ts';
import { phrasePattern, phraseSource, UI_LANGUAGES } from './profiles.ts';

describe('platform profiles (ADR 085)', () => {
  it('matches phrases folded, as whole words, with OCR-tolerant apostrophes and spaces', () => {
    expect(phrasePattern({ de: ['Gefällt mir'] }).test('hilfreich danke gefallt mir oh nein')).toBe(true);
    expect(phrasePattern({ fr: ["J'aime"] }).test("j''aime commenter partager")).toBe(true);
    expect(phrasePattern({ pl: ['Lubię to'] }).test('lubiemy tort')).toBe(false);
    expect(phraseSource({ fr: ['suivi(e)s'] })).toBe('suivi\\(e\\)s');
    expect(UI_LANGUAGES).toEqual(['en', 'es', 'fr', 'pt', 'de', 'pl', 'it']);
  });

  it('knows a German Google review (Rezensionen, vor 3 Wochen, Hilfreich / Teilen)', () => {
    const screen = `< Bäckerei Sonnenschein
Bäckerei Sonnenschein
4.4 (975)
Übersicht Rezensionen Fotos Info
Jonas Weber
Local Guide · 51 Rezensionen · 0 Fotos
vor 3 Wochen
Super nettes Personal und das Franzbrötchen war noch warm. Preis-Leistung stimmt. Gerne wieder!
Hilfreich Teilen`;
    expect(judgeReview({ platform: 'google', businessName: 'Bäckerei Sonnenschein', reviewerName: 'Jonas Weber' }, ocr(screen))).toMatchObject({ ok: true });
  });

  it('knows a Polish Google review (Opinie, Lokalny przewodnik, 2 dni temu, glued by OCR)', () => {
    const screen = `Pierogarnia u Zosi
Przegląd Opinie Zdjęcia Informacje
Najtrafniejsze
Marek Nowak
Lokalny przewodnik · 26 opinii · 23 zdjęć
2dnitemu NOWA
Pierogi ruskie jak u babci. Obsługa bardzo miła, ceny przystępne. Polecam z całego serca!
Przydatne Udostępnij`;
    expect(judgeReview({ platform: 'google', businessName: 'Pierogarnia u Zosi', reviewerName: 'Marek Nowak' }, ocr(screen))).toMatchObject({ ok: true });
  });

  it("knows a German Yelp page (Empfohlene Beiträge, '27. Sept. 2026', Hilfreich Danke)", () => {
    const screen = `La Petite Ourse
Empfohlene Beiträge
Amara O.
Berlin
116 Freunde · 113 Beiträge · 49 Fotos
27. Sept. 2026
Super nettes Personal und das Franzbrötchen war noch warm, Preis-Leistung stimmt. Gerne wieder!
Hilfreich Danke Gefällt mir Oh nein`;
    expect(reviewPlatformScores(ocr(screen)).yelp).toBeGreaterThanOrEqual(3);
    expect(judgeReview({ platform: 'yelp', businessName: 'La Petite Ourse', reviewerName: 'Amara O.' }, ocr(screen))).toMatchObject({ ok: true });
  });

  it("takes a Facebook review whose author line recommends another page for another business's", () => {
    const screen = `< Green Fork Kitchen
Posts About Reviews Photos
95% recommend (120 Reviews)
Sam Taylor recommends Pizzeria Da ---
Enzo.
6d
Honestly a hidden gem. Ordered the seasonal special and it was perfect, parking is tricky though.
Like Comment Share`;
    expect(judgeReview({ platform: 'facebook', businessName: 'Green Fork Kitchen', reviewerName: 'Sam Taylor' }, ocr(screen))).toMatchObject({ ok: false, code: 'wrong_business' });
    const ours = screen.replace('Pizzeria Da ---\nEnzo.', 'Green Fork ---\nKitchen.');
    expect(judgeReview({ platform: 'facebook', businessName: 'Green Fork Kitchen', reviewerName: 'Sam Taylor' }, ocr(ours))).toMatchObject({ ok: true });
  });

  it("takes a Google place sheet whose search box names another place for another business's", () => {
    const screen = (box: string) => `10:47
${box}
Blue Heron Bikes
4.6 (1142)
Overview Reviews Photos About
Sergio Conceicao
Local Guide · 53 reviews
a week ago
Great service and a fair price, they fixed my flat tyre in ten minutes. Highly recommend.
Like Share`;
    const input = { platform: 'google' as const, businessName: 'Blue Heron Bikes', reviewerName: 'Sergio Conceicao' };
    expect(judgeReview(input, { ...ocr(screen('< Sunny Side Diner')), height: 2400 })).toMatchObject({ ok: false, code: 'wrong_business' });
    expect(judgeReview(input, { ...ocr(screen('< Blue Heron Bikes')), height: 2400 })).toMatchObject({ ok: true });
  });

  it('takes a Tripadvisor review for another platform', () => {
    const screen = `Tripadvisor
La Petite Ourse
Zofia Wisniewska
4 contributions
Lovely little place, friendly people, fair prices, and the croissants are the best in town.
Date of visit: October 2026
Reviewed 14 November 2026`;
    expect(judgeReview({ platform: 'google', businessName: 'La Petite Ourse', reviewerName: 'Zofia Wisniewska' }, ocr(screen))).toMatchObject({ ok: false, code: 'wrong_platform' });
  });

  it("takes Tripadvisor's 'wrote a review' line under the reviewer for another platform, not a review that says those words", () => {
    const screen = (line: string) => `Pierogarnia Złota Kaczka
3109 Reviews
#4 - Restaurant - Krakow
Reviews
Günther Weiß
${line}
Excellent!
Un endroit charmant, le café est excellent et les pâtisseries sont faites maison.`;
    const input = { platform: 'google' as const, businessName: 'Pierogarnia Złota Kaczka', reviewerName: 'Günther Weiß' };
    expect(judgeReview(input, ocr(screen('wrote a review - nov 2026')))).toMatchObject({ ok: false, code: 'wrong_platform' });
    expect(judgeReview(input, ocr(screen('hat eine Bewertung geschrieben - Nov. 2026')))).toMatchObject({ ok: false, code: 'wrong_platform' });
    const google = `< Pierogarnia Złota Kaczka\nGoogle reviews\nGünther Weiß\nLocal Guide - 18 reviews\n2 days ago\nMy friend wrote a review here last year and said the pierogi were the best in Krakow, so we came.\nLike Share`;
    expect(judgeReview(input, ocr(google))).toEqual(expect.objectContaining({ ok: true }));
  });

  const follow = (platform: SocialJudgeInput['platform'], handle: string, name: string): SocialJudgeInput => ({
    platform,
    businessName: name,
    businessHandle: handle,
    userHandle: 'ana',
    verificationType: 'follow',
  });

  it("knows German and Polish follow buttons: Instagram 'Gefolgt' / 'Obserwujesz', X 'Folge ich' / 'Folgen'", () => {
    const ig = (button: string) => `< kaffeehaus.mueller
628 845 1047
Beiträge Follower Gefolgt
Kaffeehaus Müller
${button}`;
    expect(judgeSocial(follow('instagram', 'kaffeehaus.mueller', 'Kaffeehaus Müller'), ocr(ig('Gefolgt Nachricht')))).toEqual({ ok: true });
    expect(judgeSocial(follow('instagram', 'kaffeehaus.mueller', 'Kaffeehaus Müller'), ocr(ig('Folgen Nachricht')))).toMatchObject({ ok: false, code: 'not_following' });
    const pl = `< lapetiteourse
143 1,204 618
posty obserwujący obserwowani
La Petite Ourse
Obserwowany(-a) przez diego.rmz i 12 innych
Obserwujesz Wiadomość`;
    expect(judgeSocial(follow('instagram', 'lapetiteourse', 'La Petite Ourse'), ocr(pl))).toEqual({ ok: true });
    const x = (button: string) => `Green Fork Kitchen
@greenforkkitchen
${button}
Mitglied seit Juni 2015
257 Folge ich 845 Follower`;
    expect(socialPlatformScores(ocr(x('Folge ich'))).x).toBeGreaterThanOrEqual(2);
    expect(judgeSocial(follow('x', 'greenforkkitchen', 'Green Fork Kitchen'), ocr(x('Folge ich')))).toEqual({ ok: true });
    expect(judgeSocial(follow('x', 'greenforkkitchen', 'Green Fork Kitchen'), ocr(x('Folgen')))).toMatchObject({ ok: false, code: 'not_following' });
  });

  it("does not take the handle X shows after 'Replying to' for the author", () => {
    const input: SocialJudgeInput = { platform: 'x', businessName: 'Café Lumière', businessHandle: 'cafe.lumiere', userHandle: 'tomas.obriain', verificationType: 'tag' };
    const screen = `Rafael Souza
@rafa.souza
W odpowiedzi do @tomas.obriain
@cafe.lumiere Plan perfecto de domingo
20 listopada 09:41 · 64 wyświetleń`;
    expect(judgeSocial(input, ocr(screen))).toMatchObject({ ok: false, code: 'author_mismatch' });
  });
});

describe("Instagram's 'Followed by' line in German and Polish", () => {
  it("is not the follow button ('Gefolgt von ana und 12 weiteren' over a Follow button OCR cannot read)", () => {
    const screen = `< harborlanebooks
171 2,310 1436
Beiträge Follower Gefolgt
Harbor Lane Books
Come say hi! Takeaway & delivery
Gefolgt von rafa.souza und 12 weiteren
Personen
ams] Nachricht`;
    const input: SocialJudgeInput = { platform: 'instagram', businessName: 'Harbor Lane Books', businessHandle: 'harborlanebooks', userHandle: 'ana', verificationType: 'follow' };
    // The unread button goes to the owner; the 'Followed by' line never counts as 'Following'.
    expect(judgeSocial(input, ocr(screen))).toMatchObject({ ok: false, review: true, code: 'unsure_follow' });
    expect(judgeSocial(input, ocr(screen.replace('ams] Nachricht', 'Gefolgt Nachricht')))).toEqual({ ok: true });
  });
});

describe('Italian screens (ADR 096)', () => {
  it("reads a Google review's relative date, counts and tabs in Italian", () => {
    const screen = `< Bäckerei Morgenrot
Panoramica Menu Recensioni Informazioni
Più pertinenti Più recenti
Hélène Dubois
Local Guide - 50 recensioni
6 giorni fa
Lovely sourdough and the cardamom buns are unreal.
Mi piace Condividi`;
    expect(judgeReview({ platform: 'google', businessName: 'Bäckerei Morgenrot', reviewerName: 'Helene Dubois' }, ocr(screen))).toEqual(expect.objectContaining({ ok: true }));
  });

  it("takes Instagram's 'Segui già' for following and 'Segui' for not yet", () => {
    const profile = (button: string) => `< trattoria.gabbiano
128 4.210 310
post follower seguiti
Trattoria Il Gabbiano
${button} Messaggio`;
    const input: SocialJudgeInput = { platform: 'instagram', businessName: 'Trattoria Il Gabbiano', businessHandle: 'trattoria.gabbiano', userHandle: 'marco', verificationType: 'follow' };
    expect(judgeSocial(input, ocr(profile('Segui già')))).toEqual({ ok: true });
    expect(judgeSocial(input, ocr(profile('Segui')))).toMatchObject({ ok: false, code: 'not_following' });
  });
});

describe('Google and Facebook chrome that names no place and writes no review (ADR 096)', () => {
  it("does not take the map's 'Search here' box or the 'Your contributions' title for another place's name", () => {
    const place = (top: string) => `${top}
Trattoria Il Gabbiano
Restaurant - Bologna
Présentation Menu Avis À propos
Les plus pertinents
Fatima El Idrissi
Local Guide - 23 avis
il y a 2 jours
Comida maravilhosa, o bacalhau estava perfeito.`;
    const input = { platform: 'google' as const, businessName: 'Trattoria Il Gabbiano', reviewerName: 'Fátima El Idrissi' };
    expect(judgeReview(input, ocr(place('{ Rechercher ici')))).toEqual(expect.objectContaining({ ok: true }));
    expect(judgeReview(input, ocr(place('< Tus contribuciones')))).toEqual(expect.objectContaining({ ok: true }));
    expect(judgeReview(input, ocr(place('< Pizzeria Da Enzo')))).toMatchObject({ ok: false, code: 'wrong_business' });
  });

  it("reads Facebook's 'Do you recommend …?' over posted recommendations as the Reviews tab, not a composer", () => {
    const tab = (below: string) => `< Pierogarnia Złota Kaczka
Posts About Reviews Photos
Rating - 4,8 (based on 3109 reviews)
Do you recommend Pierogarnia Złota Kaczka?
Yes No
${below}`;
    const input = { platform: 'facebook' as const, businessName: 'Pierogarnia Złota Kaczka', reviewerName: 'Marco Bellini' };
    expect(judgeReview(input, ocr(tab('Marco Bellini recommends Pierogarnia Złota Kaczka.\n9d\nGreat service and good food.\nLike Comment Share')))).toEqual(expect.objectContaining({ ok: true }));
    expect(judgeReview(input, ocr(tab('Tell people what you think\nPost')))).toMatchObject({ ok: false, code: 'not_posted' });
  });
});
