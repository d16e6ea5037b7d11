import { describe, expect, it } from 'vitest';
import { displayHandle, profileUrl, reviewUrl } from './links.ts';

describe('profile links (spec 5 "Links")', () => {
  it.each([
    ['instagram', '@crumbandco', 'https://www.instagram.com/crumbandco/'],
    ['instagram', 'crumbandco', 'https://www.instagram.com/crumbandco/'],
    ['facebook', 'crumbandco', 'https://www.facebook.com/crumbandco'],
    ['x', '@@crumb', 'https://x.com/crumb'],
    ['tiktok', '@crumb.co', 'https://www.tiktok.com/@crumb.co'],
    ['instagram', 'https://instagram.com/crumb', 'https://instagram.com/crumb'],
    ['instagram', '', null],
    ['instagram', '@', null],
    ['google', 'crumb', null],
    ['instagram', 'a b', 'https://www.instagram.com/a%20b/'],
  ])('%s %j -> %j', (platform, handle, expected) => {
    expect(profileUrl(platform, handle)).toBe(expected);
  });

  it('review URLs are used as stored, with a scheme added when missing', () => {
    expect(reviewUrl({ google: 'https://g.page/r/crumb/review' }, 'google')).toBe('https://g.page/r/crumb/review');
    expect(reviewUrl({ yelp: 'yelp.com/biz/crumb' }, 'yelp')).toBe('https://yelp.com/biz/crumb');
    expect(reviewUrl({}, 'facebook')).toBeNull();
  });

  it('handles display with one @', () => {
    expect(displayHandle('crumb')).toBe('@crumb');
    expect(displayHandle('@crumb')).toBe('@crumb');
    expect(displayHandle(' ')).toBeNull();
  });
});
