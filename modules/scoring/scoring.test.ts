import { describe, expect, it } from 'vitest';
import { REVIEW_PLATFORMS, SOCIAL_PLATFORMS, restaurantCafeBakery as template, type Answers, type PlatformSelection } from '../surveys/index.ts';
import {
  formatCents,
  maxPoints,
  questionCounts,
  scoreSurvey,
  tierFor,
  tierRangeLabel,
  tierRanges,
  tierThresholds,
  wholeDollars,
  type ScoringConfig,
  type TierOverride,
  type Verified,
} from './index.ts';

const ALL: PlatformSelection = { selectedReviewPlatforms: [...REVIEW_PLATFORMS], selectedSocialPlatforms: [...SOCIAL_PLATFORMS] };
const rewards = { bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 };
const config: ScoringConfig = { ...ALL, ...rewards };
const NONE: Verified = { review: {}, follow: {}, tag: {} };

const chars = (n: number) => 'a'.repeat(n);
const review = (p: string): Answers => ({
  [`review_${p}_screenshot`]: `img:review-${p}`,
  [`review_${p}_reviewer_name`]: 'Ann Lee',
  [`review_${p}_review_link`]: `https://${p}.example/r/1`,
});
const follow = (p: string): Answers => ({ [`social_${p}_handle`]: '@ann', [`social_${p}_screenshot`]: `img:follow-${p}` });
const tag = (p: string, shot = `img:tag-${p}`, handle = '@ann'): Answers => ({
  [`tag_us_${p}_social_handle`]: handle,
  [`tag_us_${p}_tag_screenshot`]: shot,
});

const allReviews: Answers = Object.assign({}, ...REVIEW_PLATFORMS.map(review));
const allFollows: Answers = Object.assign({}, ...SOCIAL_PLATFORMS.map(follow));
const allTags: Answers = Object.assign({}, ...SOCIAL_PLATFORMS.map((p) => tag(p)));

const points = (answers: Answers, verified: Verified = NONE, cfg: ScoringConfig = config) =>
  scoreSurvey({ template, config: cfg, answers, verified }).points;

describe('regular questions earn their points when answered', () => {
  it.each<[string, number, Answers]>([
    ['nothing answered', 0, {}],
    ['overall_rating 5', 2, { overall_rating: 5 }],
    ['overall_rating as a form string', 2, { overall_rating: '4' }],
    ['overall_rating 0 is no rating', 0, { overall_rating: 0 }],
    ['overall_rating 6 is out of range', 0, { overall_rating: 6 }],
    ['overall_rating 4.5 is not a scale answer', 0, { overall_rating: 4.5 }],
    ['customer_email is worth 0', 0, { customer_email: 'a@b.co' }],
    ['recommend yes', 1, { recommend: 'yes' }],
    ['recommend blank after trimming', 0, { recommend: '   ' }],
    ['visit_frequency one of the options', 1, { visit_frequency: 'Weekly' }],
    ['visit_frequency not an option', 0, { visit_frequency: 'Daily' }],
    ['service, atmosphere and value ratings', 3, { service_rating: 3, atmosphere_rating: 1, value_rating: '5' }],
    ['favorite_item 19 chars (min 20)', 0, { favorite_item: chars(19) }],
    ['favorite_item 20 chars', 2, { favorite_item: chars(20) }],
    ['favorite_item 19 chars padded with spaces', 0, { favorite_item: `  ${chars(19)}  ` }],
    ['favorite_item 19 emoji are 19 characters, not 38 UTF-16 units', 0, { favorite_item: '\u{1F600}'.repeat(19) }],
    ['favorite_item 20 emoji', 2, { favorite_item: '\u{1F600}'.repeat(20) }],
    ['improvement_suggestions 29 chars (min 30)', 0, { improvement_suggestions: chars(29) }],
    ['improvement_suggestions 30 chars', 3, { improvement_suggestions: chars(30) }],
  ])('%s -> %i', (_name, expected, answers) => {
    expect(points(answers)).toBe(expected);
  });
});

describe('part 3 by overall rating', () => {
  const all = (platforms: readonly string[]) => Object.fromEntries(platforms.map((p) => [p, true]));
  const everything: Verified = { review: all(REVIEW_PLATFORMS), follow: all(SOCIAL_PLATFORMS), tag: all(SOCIAL_PLATFORMS) };

  it.each<[string, number, Answers, Verified]>([
    // rating 4 or more: reviews and follows
    ['4: verified review', 10, { overall_rating: 4, ...review('google') }, { ...NONE, review: { google: true } }],
    ['5: verified review', 10, { overall_rating: 5, ...review('google') }, { ...NONE, review: { google: true } }],
    ['4: unverified review screenshot', 2, { overall_rating: 4, ...review('google') }, NONE],
    ['4: review verified as false', 2, { overall_rating: 4, ...review('google') }, { ...NONE, review: { google: false } }],
    ['4: review without link', 2, { overall_rating: 4, ...review('google'), review_google_review_link: '' }, { ...NONE, review: { google: true } }],
    ['4: review without reviewer name', 2, { overall_rating: 4, ...review('yelp'), review_yelp_reviewer_name: ' ' }, { ...NONE, review: { yelp: true } }],
    ['4: review without screenshot', 2, { overall_rating: 4, ...review('yelp'), review_yelp_screenshot: undefined }, { ...NONE, review: { yelp: true } }],
    ['4: facebook review needs the review flag, not the follow flag', 2, { overall_rating: 4, ...review('facebook') }, { ...NONE, follow: { facebook: true } }],
    ['4: verified follow', 7, { overall_rating: 4, ...follow('instagram') }, { ...NONE, follow: { instagram: true } }],
    ['4: unverified follow', 2, { overall_rating: 4, ...follow('instagram') }, NONE],
    ['4: follow without screenshot', 2, { overall_rating: 4, social_x_handle: '@ann' }, { ...NONE, follow: { x: true } }],
    ['4: every review and follow', 2 + 24 + 20, { overall_rating: 4, ...allReviews, ...allFollows }, everything],
    // positive-branch answers do not count at 3 or below
    ['3: verified review does not count', 2, { overall_rating: 3, ...review('google') }, { ...NONE, review: { google: true } }],
    ['3: verified follow still counts', 7, { overall_rating: 3, ...follow('tiktok') }, { ...NONE, follow: { tiktok: true } }],
    // rating 3 or less: improvement, follows, tags
    ['3: improvement 39 chars', 2, { overall_rating: 3, five_star_improvement: chars(39) }, NONE],
    ['3: improvement 40 chars', 7, { overall_rating: 3, five_star_improvement: chars(40) }, NONE],
    ['3: improvement 39 chars padded to 41', 2, { overall_rating: 3, five_star_improvement: ` ${chars(39)} ` }, NONE],
    ['1: improvement 40 chars', 7, { overall_rating: 1, five_star_improvement: chars(40) }, NONE],
    ['3: verified tag', 10, { overall_rating: 3, ...tag('instagram') }, { ...NONE, tag: { instagram: true } }],
    ['3: unverified tag', 2, { overall_rating: 3, ...tag('instagram') }, NONE],
    ['3: tag verified as a follow only', 2, { overall_rating: 3, ...tag('instagram') }, { ...NONE, follow: { instagram: true } }],
    ['3: tag without screenshot', 2, { overall_rating: 3, ...tag('x', '') }, { ...NONE, tag: { x: true } }],
    ['3: tag without handle', 2, { overall_rating: 3, ...tag('x', 'img:tag-x', '') }, { ...NONE, tag: { x: true } }],
    // negative-branch answers do not count at 4 or above
    ['4: improvement 40 chars does not count', 2, { overall_rating: 4, five_star_improvement: chars(40) }, NONE],
    ['4: verified tag does not count', 2, { overall_rating: 4, ...tag('instagram') }, { ...NONE, tag: { instagram: true } }],
    // duplicates: the same screenshot proves one tag only
    ['3: same handle and screenshot on two platforms counts once', 10, { overall_rating: 3, ...tag('instagram', 'img:same'), ...tag('tiktok', 'img:same') }, { ...NONE, tag: { instagram: true, tiktok: true } }],
    ['3: same screenshot under different handles counts once', 10, { overall_rating: 3, ...tag('x', 'img:same', '@a'), ...tag('facebook', 'img:same', '@b') }, { ...NONE, tag: { x: true, facebook: true } }],
    ['3: same handle with different screenshots counts twice', 18, { overall_rating: 3, ...tag('instagram'), ...tag('tiktok') }, { ...NONE, tag: { instagram: true, tiktok: true } }],
    ['3: an unverified first copy does not block the verified one', 10, { overall_rating: 3, ...tag('instagram', 'img:same'), ...tag('tiktok', 'img:same') }, { ...NONE, tag: { tiktok: true } }],
    // no rating: no part 3 at all
    ['no rating: everything verified earns nothing', 1, { ...review('google'), ...follow('x'), ...tag('x'), five_star_improvement: chars(40), recommend: 'no' }, everything],
  ])('%s -> %i', (_name, expected, answers, verified) => {
    expect(points(answers, verified)).toBe(expected);
  });

  it('counts only the platforms the survey selected', () => {
    const narrow: ScoringConfig = { ...rewards, selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['instagram'] };
    const positive = { overall_rating: 5, ...review('google'), ...review('yelp'), ...follow('instagram'), ...follow('tiktok') };
    expect(points(positive, everything, narrow)).toBe(2 + 8 + 5);
    expect(points(positive, everything, config)).toBe(2 + 16 + 10);
    const negative = { overall_rating: 2, ...tag('instagram'), ...tag('x'), ...follow('x') };
    expect(points(negative, everything, narrow)).toBe(2 + 8);
    expect(points(negative, everything, config)).toBe(2 + 16 + 5);
  });

  it('lists what earned points, in survey order', () => {
    const score = scoreSurvey({
      template,
      config,
      answers: { overall_rating: 2, recommend: 'yes', visit_frequency: 'Nope', five_star_improvement: chars(45), ...tag('x'), ...follow('x') },
      verified: { ...NONE, follow: { x: true }, tag: { x: true } },
    });
    expect(score.breakdown).toEqual([
      { questionId: 'overall_rating', points: 2 },
      { questionId: 'recommend', points: 1 },
      { questionId: 'five_star_improvement', points: 5 },
      { questionId: 'social_x', points: 5 },
      { questionId: 'tag_us_x', points: 8 },
    ]);
    expect(score.points).toBe(21);
  });
});

describe('tiers', () => {
  const defaults = tierThresholds(template);

  it.each([
    [0, null],
    [4, null],
    [5, 'Bronze'],
    [7, 'Bronze'],
    [8, 'Silver'],
    [16, 'Silver'],
    [17, 'Silver'],
    [18, 'Gold'],
    [69, 'Gold'],
  ] as const)('%i points -> %s', (pts, tier) => {
    expect(tierFor(pts, defaults)).toBe(tier);
  });

  it('picks the highest tier met whatever order the tiers come in', () => {
    expect(tierFor(10, [...defaults].reverse())).toBe('Silver');
    expect(tierFor(3, [])).toBeNull();
  });

  it.each<[string, TierOverride | null | undefined, Array<[string, number]>]>([
    ['no override', undefined, [['Bronze', 5], ['Silver', 8], ['Gold', 18]]],
    ['null override', null, [['Bronze', 5], ['Silver', 8], ['Gold', 18]]],
    ['full override', { Bronze: 10, Silver: 20, Gold: 30 }, [['Bronze', 10], ['Silver', 20], ['Gold', 30]]],
    ['partial override', { Gold: 12 }, [['Bronze', 5], ['Silver', 8], ['Gold', 12]]],
    ['invalid values are ignored', { Bronze: -1, Silver: 2.5, Gold: Number.NaN }, [['Bronze', 5], ['Silver', 8], ['Gold', 18]]],
    ['sorted by minimum', { Bronze: 9 }, [['Silver', 8], ['Bronze', 9], ['Gold', 18]]],
  ])('tierThresholds with %s', (_name, override, expected) => {
    expect(tierThresholds(template, override).map((t) => [t.tier, t.min_points])).toEqual(expected);
  });

  it('derives range labels from the thresholds', () => {
    expect(tierRanges(defaults).map((r) => [r.tier, tierRangeLabel(r)])).toEqual([
      ['Bronze', '5-7'],
      ['Silver', '8-17'],
      ['Gold', '18+'],
    ]);
    const override = tierThresholds(template, { Bronze: 7 });
    expect(tierRanges(override).map(tierRangeLabel)).toEqual(['7', '8-17', '18+']);
  });

  // Answers worth an exact number of points, each checked by scoreSurvey itself.
  const worth: Record<number, Answers> = {
    4: { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly' },
    5: { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 4 },
    7: { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 4, favorite_item: chars(20) },
    8: { overall_rating: 5, recommend: 'yes', visit_frequency: 'Weekly', service_rating: 4, favorite_item: chars(20), atmosphere_rating: 4 },
    16: { overall_rating: 4, recommend: 'yes', ...review('google'), ...follow('instagram') },
    17: { overall_rating: 4, recommend: 'yes', visit_frequency: 'Monthly', ...review('google'), ...follow('instagram') },
    18: { overall_rating: 4, recommend: 'yes', visit_frequency: 'Monthly', service_rating: 3, ...review('google'), ...follow('instagram') },
  };
  const verified: Verified = { ...NONE, review: { google: true }, follow: { instagram: true } };

  it.each([
    [4, null, 0],
    [5, 'Bronze', 100],
    [7, 'Bronze', 100],
    [8, 'Silver', 300],
    [16, 'Silver', 300],
    [17, 'Silver', 300],
    [18, 'Gold', 800],
  ] as const)('a survey worth %i points is %s, rewarding %i cents', (pts, tier, cents) => {
    const score = scoreSurvey({ template, config, answers: worth[pts]!, verified });
    expect([score.points, score.tier, score.rewardValueCents]).toEqual([pts, tier, cents]);
  });

  it("uses the survey's own thresholds when the owner overrides them", () => {
    const answers = worth[8]!;
    expect(scoreSurvey({ template, config: { ...config, tierThresholds: { Silver: 9 } }, answers, verified }).tier).toBe('Bronze');
    expect(scoreSurvey({ template, config: { ...config, tierThresholds: { Gold: 8 } }, answers, verified })).toMatchObject({
      tier: 'Gold',
      rewardValueCents: 800,
    });
  });
});

describe('maxPoints and questionCounts', () => {
  const cases: Array<[string, PlatformSelection, number, number[]]> = [
    // part1 4 + part2 8 = 12; part3 positive 24+20=44, negative 5+20+32=57
    ['all platforms', ALL, 12 + 57, [4, 5, 9]],
    // positive 8+5=13, negative 5+5+8=18 (3 questions vs 2)
    ['google + instagram', { selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['instagram'] }, 12 + 18, [4, 5, 3]],
    // positive 24 (3 questions), negative 5 (1 question)
    ['three reviews, no socials', { selectedReviewPlatforms: [...REVIEW_PLATFORMS], selectedSocialPlatforms: [] }, 12 + 24, [4, 5, 3]],
    // positive 16+10=26 (4 questions), negative 5+10+16=31 (5 questions)
    ['google, yelp + x, tiktok', { selectedReviewPlatforms: ['google', 'yelp'], selectedSocialPlatforms: ['x', 'tiktok'] }, 12 + 31, [4, 5, 5]],
    ['nothing selected', { selectedReviewPlatforms: [], selectedSocialPlatforms: [] }, 12 + 5, [4, 5, 1]],
  ];

  it.each(cases)('%s', (_name, selection, max, counts) => {
    expect(maxPoints(template, selection)).toBe(max);
    const result = questionCounts(template, selection);
    expect(result.bySection).toEqual([
      { sectionId: 'part1', title: 'Your Visit', count: counts[0] },
      { sectionId: 'part2', title: 'The Details', count: counts[1] },
      { sectionId: 'part3', title: 'Share & Earn', count: counts[2] },
    ]);
    expect(result.total).toBe(counts[0]! + counts[1]! + counts[2]!);
  });

  it.each(cases)('the better of two perfect answer sheets reaches maxPoints (%s)', (_name, selection, max) => {
    const firstParts: Answers = {
      customer_email: 'a@b.co',
      recommend: 'yes',
      visit_frequency: 'First time',
      service_rating: 5,
      favorite_item: chars(20),
      atmosphere_rating: 5,
      value_rating: 5,
      improvement_suggestions: chars(30),
    };
    const high: Answers = {
      ...firstParts,
      overall_rating: 5,
      ...allReviews,
      ...allFollows,
    };
    const low: Answers = {
      ...firstParts,
      overall_rating: 3,
      five_star_improvement: chars(40),
      ...allFollows,
      ...allTags,
    };
    const yes = (platforms: readonly string[]) => Object.fromEntries(platforms.map((p) => [p, true]));
    const verified: Verified = { review: yes(REVIEW_PLATFORMS), follow: yes(SOCIAL_PLATFORMS), tag: yes(SOCIAL_PLATFORMS) };
    const score = (answers: Answers) => points(answers, verified, { ...selection, ...rewards });
    expect(Math.max(score(high), score(low))).toBe(max);
  });
});

describe('money', () => {
  it.each([
    [0, 0, '$0.00'],
    [1, 0, '$0.01'],
    [149, 1, '$1.49'],
    [150, 2, '$1.50'],
    [500, 5, '$5.00'],
    [800, 8, '$8.00'],
    [150000, 1500, '$1,500.00'],
  ])('%i cents -> $%i whole, %s', (cents, dollars, text) => {
    expect(wholeDollars(cents)).toBe(dollars);
    expect(formatCents(cents)).toBe(text);
  });
});
