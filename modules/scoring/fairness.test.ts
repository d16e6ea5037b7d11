import { describe, expect, it } from 'vitest';
import {
  REVIEW_PLATFORMS,
  restaurantCafeBakery as template,
  SOCIAL_PLATFORMS,
  visibleSections,
  type Answers,
  type ReviewPolicy,
} from '../surveys/index.ts';
import { answerPaths, scoreSurvey, tierFairnessProblems, tierReport, type FairnessInput, type Verified } from './index.ts';

const rewards = { bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 };
const all = (policy: ReviewPolicy): FairnessInput => ({
  ...rewards,
  selectedReviewPlatforms: [...REVIEW_PLATFORMS],
  selectedSocialPlatforms: [...SOCIAL_PLATFORMS],
  reviewPolicy: policy,
});
const chars = (n: number) => 'a'.repeat(n);
const yes = (platforms: readonly string[]) => Object.fromEntries(platforms.map((p) => [p, true]));
const everythingVerified: Verified = { review: yes(REVIEW_PLATFORMS), follow: yes(SOCIAL_PLATFORMS), tag: yes(SOCIAL_PLATFORMS) };

/** Every question that shares nothing, answered in full (what "answers everything" means in the issue). */
const fullAnswers = (rating: number): Answers => ({
  overall_rating: rating,
  customer_email: 'a@b.co',
  recommend: 'yes',
  visit_frequency: 'Weekly',
  service_rating: 5,
  favorite_item: chars(20),
  atmosphere_rating: 5,
  value_rating: 5,
  improvement_suggestions: chars(30),
  five_star_improvement: chars(40),
});
const sharing: Answers = Object.assign(
  {},
  ...REVIEW_PLATFORMS.map((p) => ({ [`review_${p}_screenshot`]: `img:r-${p}`, [`review_${p}_reviewer_name`]: 'Ann', [`review_${p}_review_link`]: `https://${p}.example/1` })),
  ...SOCIAL_PLATFORMS.map((p) => ({ [`social_${p}_handle`]: '@ann', [`social_${p}_screenshot`]: `img:f-${p}` })),
  ...SOCIAL_PLATFORMS.map((p) => ({ [`tag_us_${p}_social_handle`]: '@ann', [`tag_us_${p}_tag_screenshot`]: `img:t-${p}` })),
);

describe('the bug of issue 14: a 2-star complaint earned Gold, a 5-star full answer Silver', () => {
  it('under the spec thresholds (Gold 17), rating-routed, the check names both problems', () => {
    const problems = tierFairnessProblems(template, { ...all('rating_routed'), tierThresholds: { Gold: 17 } });
    expect(problems.map((p) => p.message)).toEqual([
      'Gold must need sharing: customers who rate 3 stars or less can reach 17 points without a review, follow or post, and Gold starts at 17. Raise Gold above 17 points.',
      'Answering every question without sharing earns Gold for customers who rate 3 stars or less (17 points) but Silver for customers who rate 4 stars or more (12 points): a reward must not depend on the rating. Choose "Ask every customer" or change the tier points.',
    ]);
  });

  it.each<ReviewPolicy>(['ask_every', 'rating_routed'])('with the template tiers, %s: nobody reaches Gold without sharing, and full answers earn the same tier at every rating', (policy) => {
    const config = all(policy);
    expect(tierFairnessProblems(template, config)).toEqual([]);
    const tiers = [1, 2, 3, 4, 5].map((rating) => scoreSurvey({ template, config, answers: fullAnswers(rating), verified: everythingVerified }).tier);
    expect(new Set(tiers)).toEqual(new Set(['Silver']));
    const shared = [1, 2, 3, 4, 5].map((rating) => scoreSurvey({ template, config, answers: { ...fullAnswers(rating), ...sharing }, verified: everythingVerified }).tier);
    expect(new Set(shared)).toEqual(new Set(['Gold']));
  });
});

describe('Ask every customer: points never depend on the rating', () => {
  it('offers part 3 in full at every rating, and before one is given', () => {
    const ids = (rating: number | undefined) => visibleSections(template, all('ask_every'), rating).find((s) => s.id === 'part3')!.questions.map((q) => q.id);
    const expected = ['five_star_improvement', ...REVIEW_PLATFORMS.map((p) => `review_${p}`), ...SOCIAL_PLATFORMS.map((p) => `social_${p}`), ...SOCIAL_PLATFORMS.map((p) => `tag_us_${p}`)];
    for (const rating of [undefined, 1, 3, 4, 5]) expect(ids(rating)).toEqual(expected);
  });

  it('scores the same answers the same whatever the rating (rating-routed does not)', () => {
    const answers = (rating: number) => ({ ...fullAnswers(rating), ...sharing });
    const points = (policy: ReviewPolicy, rating: number) => scoreSurvey({ template, config: all(policy), answers: answers(rating), verified: everythingVerified }).points;
    expect(new Set([1, 2, 3, 4, 5].map((r) => points('ask_every', r)))).toEqual(new Set([12 + 5 + 24 + 20 + 32]));
    expect(points('rating_routed', 5)).toBe(12 + 24 + 20);
    expect(points('rating_routed', 2)).toBe(12 + 5 + 20 + 32);
  });

  it('counts one path; rating-routed counts one per branch', () => {
    expect(answerPaths(template, all('ask_every'))).toEqual([{ label: 'every customer', all: 93, withoutSharing: 17 }]);
    expect(answerPaths(template, all('rating_routed'))).toEqual([
      { label: 'customers who rate 4 stars or more', all: 56, withoutSharing: 12 },
      { label: 'customers who rate 3 stars or less', all: 69, withoutSharing: 17 },
    ]);
  });
});

describe('tierFairnessProblems', () => {
  it('refuses reward values that fall as the tier rises', () => {
    expect(tierFairnessProblems(template, { ...all('ask_every'), bronzeRewardValue: 500, silverRewardValue: 400, goldRewardValue: 300 })).toEqual([
      { field: 'silverRewardValue', message: 'Silver must be at least the Bronze reward' },
      { field: 'goldRewardValue', message: 'Gold must be at least the Silver reward' },
    ]);
    expect(tierFairnessProblems(template, { ...all('ask_every'), silverRewardValue: 800, goldRewardValue: 800 })).toEqual([]);
  });

  it('refuses tier points out of order', () => {
    expect(tierFairnessProblems(template, { ...all('ask_every'), tierThresholds: { Silver: 30, Gold: 25 } })).toEqual([
      { field: 'tierThresholds', message: 'Tier points must rise: Bronze below Silver, Silver below Gold' },
    ]);
    expect(tierFairnessProblems(template, { ...all('ask_every'), tierThresholds: { Bronze: 8 } })[0]?.field).toBe('tierThresholds');
  });

  it('refuses a Gold reachable without sharing under either policy', () => {
    for (const policy of ['ask_every', 'rating_routed'] as const) {
      const problems = tierFairnessProblems(template, { ...all(policy), tierThresholds: { Silver: 10, Gold: 15 } });
      expect(problems.some((p) => p.message.startsWith('Gold must need sharing'))).toBe(true);
    }
    expect(tierFairnessProblems(template, { ...all('ask_every'), tierThresholds: { Gold: 25 } })).toEqual([]);
  });

  it('refuses rating-routed when low raters cannot reach the tier high raters can', () => {
    const narrow = { ...rewards, selectedReviewPlatforms: ['google'], selectedSocialPlatforms: [] };
    expect(tierFairnessProblems(template, { ...narrow, reviewPolicy: 'rating_routed' })).toEqual([
      {
        field: 'reviewPolicy',
        message:
          'Rating-routed, customers who rate 3 stars or less can reach at most Silver (17 points) while customers who rate 4 stars or more can reach Gold: choose "Ask every customer", or add social platforms so both can reach the same tier.',
      },
    ]);
    expect(tierFairnessProblems(template, { ...narrow, reviewPolicy: 'ask_every' })).toEqual([]);
    expect(tierFairnessProblems(template, { ...narrow, selectedSocialPlatforms: ['instagram'], reviewPolicy: 'rating_routed' })).toEqual([]);
  });

  it('passes every platform selection the builder allows under "Ask every customer"', () => {
    const subsets = <T,>(xs: readonly T[]): T[][] => xs.reduce<T[][]>((acc, x) => [...acc, ...acc.map((s) => [...s, x])], [[]]);
    for (const review of subsets(REVIEW_PLATFORMS).filter((s) => s.length > 0)) {
      for (const social of subsets(SOCIAL_PLATFORMS)) {
        expect(tierFairnessProblems(template, { ...rewards, selectedReviewPlatforms: review, selectedSocialPlatforms: social, reviewPolicy: 'ask_every' })).toEqual([]);
      }
    }
  });
});

describe('tierReport: the Survey Stats and the warnings from one decision (issue 27 item 5)', () => {
  const state = (input: Parameters<typeof tierReport>[1]) => Object.fromEntries(tierReport(template, input).tiers.map((t) => [t.tier, t.state]));

  it('a fair survey: every tier Reachable and no problem', () => {
    expect(tierReport(template, { ...all('ask_every'), tierThresholds: { Gold: 25 } }).problems).toEqual([]);
    expect(state({ ...all('ask_every'), tierThresholds: { Gold: 25 } })).toEqual({ Bronze: 'reachable', Silver: 'reachable', Gold: 'reachable' });
  });

  it('Gold reachable without sharing: Gold "needs a fix" exactly when the problem is raised', () => {
    const input = { ...all('ask_every'), tierThresholds: { Silver: 10, Gold: 15 } };
    expect(tierReport(template, input).problems.map((p) => p.message).join(' ')).toContain('Gold must need sharing');
    expect(state(input).Gold).toBe('needs_fix');
    expect(tierFairnessProblems(template, input)).toEqual(tierReport(template, input).problems);
  });

  it('Gold out of reach; tier points out of order name every tier; unknown rewards skip only the reward checks', () => {
    expect(state({ ...all('ask_every'), tierThresholds: { Gold: 900 } }).Gold).toBe('out_of_reach');
    expect(state({ ...all('ask_every'), tierThresholds: { Silver: 30, Gold: 25 } })).toEqual({ Bronze: 'needs_fix', Silver: 'needs_fix', Gold: 'needs_fix' });
    const { bronzeRewardValue: _b, silverRewardValue: _s, goldRewardValue: _g, ...noRewards } = all('ask_every');
    expect(tierReport(template, { ...noRewards, tierThresholds: { Silver: 10, Gold: 15 } }).problems.map((p) => p.field)).toContain('tierThresholds');
  });
});
