import { describe, expect, it } from 'vitest';
import type { ReviewPlatform } from '../port.ts';
import { checkReviewLink } from './links.ts';


describe('checkReviewLink', () => {
  it.each<[ReviewPlatform, string]>([
    ['google', 'https://maps.app.goo.gl/x7Qm2aVbC9dEf'],
    ['google', 'https://g.page/r/CrumbAndCo/review'],
    ['google', 'https://www.google.com/maps/reviews/data=abc'],
    ['google', 'https://www.google.co.uk/maps/place/Crumb'],
    ['google', 'https://goo.gl/maps/abc123'],
    ['google', 'maps.app.goo.gl/x7Qm2aVbC9dEf'],
    ['google', 'HTTPS://MAPS.GOOGLE.COM/?cid=1'],
    ['yelp', 'https://www.yelp.com/biz/crumb-and-co-bakery-portland'],
    ['yelp', 'https://m.yelp.ca/biz/crumb'],
    ['yelp', 'https://yelp.to/abc'],
    ['facebook', 'https://www.facebook.com/crumbandco/reviews'],
    ['facebook', 'https://m.facebook.com/story.php?id=1'],
    ['facebook', 'https://fb.com/crumbandco'],
  ])('%s accepts %s', (platform, link) => expect(checkReviewLink(platform, link)).toEqual({ ok: true }));

  it.each<[ReviewPlatform, string, string, RegExp]>([
    ['google', 'not a link', 'not_posted', /doesn't look like a web address/],
    ['google', '', 'not_posted', /posted Google review, copy its link/],
    ['google', 'ftp://google.com/maps', 'not_posted', /https:\/\//],
    ['google', 'javascript:alert(1)', 'not_posted', /web address/],
    ['google', 'https://google.com.evil.io/maps', 'wrong_platform', /goes to google\.com\.evil\.io, not Google/],
    ['google', 'https://evilgoogle.com/maps', 'wrong_platform', /not Google/],
    ['google', 'https://www.yelp.com/biz/crumb', 'wrong_platform', /goes to Yelp, not Google/],
    ['yelp', 'https://maps.app.goo.gl/abc', 'wrong_platform', /goes to Google, not Yelp/],
    ['facebook', 'https://fakebook.com/crumb', 'wrong_platform', /not Facebook/],
  ])('%s rejects %s', (platform, link, code, reason) => {
    const verdict = checkReviewLink(platform, link);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.code).toBe(code);
      expect(verdict.reason).toMatch(reason);
    }
  });

  it('reads a link that spells umlauts as typed without those keys (issue 31)', () => {
    expect(checkReviewLink('yelp', 'https://m.yelp.com/biz/kaffeehaus-mueller-wien?hrid=x', { name: 'Kaffeehaus Müller' })).toEqual({ ok: true });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/kaffeehaus-muller-wien', { name: 'Kaffeehaus Müller' })).toEqual({ ok: true });
    expect(checkReviewLink('yelp', 'https://www.yelp.com/biz/kaffeehaus-moeller-wien', { name: 'Kaffeehaus Müller' })).toMatchObject({ ok: false, code: 'wrong_business' });
  });

  it("takes a Facebook username without the survey handle's underscores, which Facebook does not allow", () => {
    const business = { name: 'Bäckerei Sonnenschein', handle: 'baeckerei_sonnenschein' };
    expect(checkReviewLink('facebook', 'https://www.facebook.com/baeckereisonnenschein/reviews', business)).toEqual({ ok: true });
    expect(checkReviewLink('facebook', 'https://www.facebook.com/baeckerei.sonnenschein/reviews', business)).toEqual({ ok: true });
    expect(checkReviewLink('facebook', 'https://www.facebook.com/baeckereisonnenscheinberlin/reviews', business)).toMatchObject({ ok: false, code: 'wrong_business' });
  });
});
