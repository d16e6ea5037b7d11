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
});
