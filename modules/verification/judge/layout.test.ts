import { describe, expect, it } from 'vitest';
import { checkReviewLink } from './links.ts';
import { ocrFromText } from './ocr.ts';
import { judgeReview } from './review.ts';
import { judgeSocial, type SocialJudgeInput } from './social.ts';

const ocr = ocrFromText;


describe('layouts met on the train part of the independent set', () => {
  const base = { platform: 'google' as const, businessName: 'Crumb & Co Bakery', reviewerName: 'Priya Raman' };
  const tag: SocialJudgeInput = { platform: 'instagram', businessName: 'Crumb & Co Bakery', businessHandle: '@crumbandco', userHandle: 'priya.raman', verificationType: 'tag' };

  it("accepts the customer's own Contributions page (their name over 'Local Guide · N reviews')", () => {
    const text = `Contributions\nPriya Raman\nLocal Guide - 94 reviews\nReviews Photos\nCrumb & Co Bakery\nBakery - Portland, OR\n* * * * * 4 hours ago\nWe came for a birthday lunch and everything was perfect. Generous portions,\nfair prices and the dessert menu is amazing.`;
    expect(judgeReview(base, ocr(text))).toMatchObject({ ok: true, reviewText: expect.stringMatching(/^We came for a birthday/) as string });
  });

  it("accepts Facebook's 'recommends' line as the author line, in Portuguese too", () => {
    const text = `Crumb & Co Bakery\nPublicacoes Sobre Avaliacoes\nPriya Raman recomenda Crumb & Co Bakery.\nLugar aconchegante, cafe otimo e preco justo. O bolo de cenoura e imperdivel.\n5 Curtir Comentar Compartilhar`;
    expect(judgeReview({ ...base, platform: 'facebook' }, ocr(text))).toMatchObject({ ok: true });
  });

  it("a Facebook author line wrapping a look-alike page ('recommends Crumb & Co' / 'Express.') names that page", () => {
    const page = (rest: string) =>
      `< Crumb & Co ${rest} Q\nPosts About Mentions Reviews\nRecommended - 4.3\n[0K Daniel Kim recommends Crumb & Co\n${rest}. sey\nCozy spot with great coffee and friendly service.\nPriya Raman recommends Crumb\n(pr) & Co ${rest}.\nNovember 18 at 7:42 PM\nGreat value for money.\nLike Comment Share`;
    expect(judgeReview({ ...base, platform: 'facebook' }, ocr(page('Express')))).toMatchObject({ ok: false, code: 'wrong_business' });
    // The name's own last word wrapped onto the next line is the business.
    expect(judgeReview({ ...base, platform: 'facebook' }, ocr(page('Bakery')))).toMatchObject({ ok: true });
  });

  it.each([
    ['dates glued by OCR', 'Crumb & Co Bakery\nGoogle reviews\nPriya Raman\nLocal Guide - 4 reviews\n* * * * * aweekago\nLovely spot.', true],
    ['a chat with message times', 'Priya Raman\nonline\nPriya Raman\n2 days ago\nCrumb & Co Bakery - Google reviews\nLike - Share\n09:14\n09:20', false],
    ['a note', 'November 21, 2026 at 18:04\nGoogle review - Crumb & Co Bakery\nReviewer: Priya Raman\n2 days ago\nLike Share', false],
  ])('%s', (_label, text, ok) => expect(judgeReview(base, ocr(text)).ok).toBe(ok));

  it('counts a photo-tag label (the handle alone, without @) as the mention', () => {
    expect(judgeSocial(tag, ocr('Posts\npriya.raman\ncrumbandco\n196 likes\npriya.raman Could eat here every day #local\nView all 4 comments'))).toEqual({ ok: true });
  });

  it("takes a Facebook tag by the page's name, wrapped or not, and the author by name", () => {
    const fb = { ...tag, platform: 'facebook' as const, userHandle: '@priya.raman' };
    expect(judgeSocial(fb, ocr('Priya Raman\nPriya Raman is at Crumb & Co Bakery.\nBirthday cake\nLike Comment Share'))).toEqual({ ok: true });
    expect(judgeSocial(fb, ocr('Priya Raman\nPriya Raman is at Crumb & Co\nBakery.\nBirthday cake\nLike Comment Share'))).toEqual({ ok: true });
  });

  it('a review link naming another business that shares a generic word is another business', () => {
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/nonnos-trattoria-philadelphia', { name: "Nonna's Trattoria" })).toMatchObject({ ok: false, code: 'wrong_business' });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/nonnas-trattoria-philadelphia', { name: "Nonna's Trattoria" })).toEqual({ ok: true });
    expect(checkReviewLink('facebook', 'https://fb.me/8QA34L9np', { name: "Nonna's Trattoria" })).toEqual({ ok: true });
  });
});
