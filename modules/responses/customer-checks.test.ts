import { describe, expect, it } from 'vitest';
import { allQuestions, getTemplate, isBlock } from '../surveys/index.ts';
import { UPLOAD_MESSAGES } from '../uploads/index.ts';
import { blockEvidence, blockKey, blockStateKey, chosenScreenshotProblem, liveScore, sectionOfProblem, submitProblem, verificationStatus, verifiedFlags } from './customer-checks.ts';

const template = getTemplate('restaurant_cafe_bakery')!;
const config = { selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['instagram'], bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800 };
const review = { review_google_screenshot: 'v1', review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x' };

describe('what the page checks before submitting (spec 5), in order', () => {
  it.each([
    ['no rating', {}, {}, 'Required Field Missing'],
    ['a review half filled', { overall_rating: 5, review_google_reviewer_name: 'Ana' }, {}, 'Incomplete Review Submission'],
    ['a review still verifying', { overall_rating: 5, ...review, customerEmail: 'a@b.co' }, { google: { status: 'verifying' } }, 'Verification In Progress'],
    ['a review not verified', { overall_rating: 5, ...review, customerEmail: 'a@b.co' }, { google: { status: 'failed' } }, 'Screenshot Not Verified'],
    ['points without an email', { overall_rating: 5 }, {}, 'Email Required for Reward'],
    ['a bad email', { overall_rating: 5, customerEmail: 'nope' }, {}, 'Submission Failed'],
  ] as const)('%s: %s', (_name, answers, states, title) => {
    expect(submitProblem({ template, config, answers, states })?.title).toBe(title);
  });

  it('names the platform in the messages', () => {
    const p = submitProblem({ template, config, answers: { overall_rating: 5, review_google_reviewer_name: 'Ana' }, states: {} });
    expect(p?.message).toBe("Please complete all fields for your Google review or remove what you've entered.");
  });

  it('counts a chosen file as a filled screenshot field while it uploads', () => {
    const answers = { overall_rating: 5, review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x', customerEmail: 'a@b.co' };
    const p = submitProblem({ template, config, answers, states: { google: { status: 'verifying' } }, uploads: new Set(['review_google_screenshot']) });
    expect(p?.title).toBe('Verification In Progress');
  });

  it('wants 40 characters of improvement text only on the 1-3 branch', () => {
    const short = { overall_rating: 2, five_star_improvement: 'Too short', customerEmail: 'a@b.co' };
    expect(submitProblem({ template, config, answers: short, states: {} })?.message).toBe('Please provide at least 40 characters');
    expect(submitProblem({ template, config, answers: { ...short, overall_rating: 5 }, states: {} })).toBeNull();
  });

  it('passes a complete, verified survey', () => {
    expect(submitProblem({ template, config, answers: { overall_rating: 5, ...review, customerEmail: 'a@b.co' }, states: { google: { status: 'verified' } } })).toBeNull();
  });
});

describe('live points', () => {
  it('count a block only once it is verified', () => {
    const answers = { overall_rating: 5, ...review };
    expect(liveScore(template, config, answers, {}).points).toBe(2);
    expect(liveScore(template, config, answers, { google: { status: 'verified' } })).toMatchObject({ points: 10, tier: 'Silver', rewardValueCents: 300 });
  });

  it('keys states the spec way', () => {
    const qs = template.sections.flatMap((s) => [...s.questions, ...(s.negative_questions ?? [])]);
    expect(qs.map(blockStateKey).filter(Boolean)).toEqual(expect.arrayContaining(['google', 'instagram_follow', 'x_tag']));
    expect(verifiedFlags(template, { instagram_follow: { status: 'verified' }, x_tag: { status: 'failed' } })).toEqual({ review: {}, follow: { instagram: true }, tag: {} });
  });
});

describe('where a problem sends the customer', () => {
  it.each([
    [{ title: 't', message: 'm', field: 'overall_rating' }, 0],
    [{ title: 't', message: 'm', field: 'favorite_item' }, 1],
    [{ title: 't', message: 'm', field: 'review_google' }, 2],
    [{ title: 't', message: 'm', field: 'review_google_screenshot' }, 2],
    [{ title: 't', message: 'm', field: 'five_star_improvement' }, 2],
    [{ title: 't', message: 'm', field: 'customerEmail' }, 2],
    [{ title: 't', message: 'm' }, 1],
  ])('%o -> section %i', (problem, section) => {
    expect(sectionOfProblem(template, problem, 1)).toBe(section);
  });
});

describe('the informational verificationStatus', () => {
  it('splits review platforms from social follow/tag keys', () => {
    expect(verificationStatus(template, { google: { status: 'verified' }, instagram_follow: { status: 'failed' }, x_tag: { status: 'verified' } })).toEqual({
      screenshot: { google: true },
      social: { instagram_follow: false, x_tag: true },
    });
  });
});

describe('a rejected screenshot (issue 13)', () => {
  it('says why and what to do, never to wait', () => {
    const answers = { overall_rating: 5, ...review, customerEmail: 'a@b.co' };
    const p = submitProblem({ template, config, answers, states: { google: { status: 'failed', error: "We couldn't find your name \"Ana\" in the screenshot" } } });
    expect(p).toMatchObject({ title: 'Screenshot Not Verified', field: expect.any(String) });
    expect(p?.message).toBe(
      "Your Google screenshot wasn't accepted. We couldn't find your name \"Ana\" in the screenshot. Upload a different screenshot, or remove it and clear this block to submit without it.",
    );
    expect(p?.message).not.toMatch(/wait/i);
  });
});

describe('what a block\'s screenshot is checked against', () => {
  const block = (id: string) => allQuestions(template).filter(isBlock).find((q) => q.id === id)!;

  it('keys a review by platform, a follow and a tag by platform and kind; other questions have no key', () => {
    expect(blockKey(block('review_yelp'))).toBe('yelp');
    expect(blockKey(block('social_tiktok'))).toBe('tiktok_follow');
    expect(blockKey(block('tag_us_facebook'))).toBe('facebook_tag');
    expect(blockStateKey(allQuestions(template).find((q) => q.id === 'overall_rating')!)).toBeNull();
  });

  it('sends a review\'s name and link, a follow\'s handle and a tag\'s handle, each with its kind', () => {
    const answers = {
      ...review,
      social_instagram_handle: '@ana',
      tag_us_x_social_handle: '@ana_x',
      social_x_handle: '@not_this_one',
    };
    expect(blockEvidence(block('review_google'), answers)).toEqual({ kind: 'review', platform: 'google', reviewerName: 'Ana', reviewLink: 'https://g.page/r/x' });
    expect(blockEvidence(block('social_instagram'), answers)).toEqual({ kind: 'follow', platform: 'instagram', userHandle: '@ana' });
    expect(blockEvidence(block('tag_us_x'), answers)).toEqual({ kind: 'tag', platform: 'x', userHandle: '@ana_x' });
    expect(blockEvidence(block('social_tiktok'), {})).toEqual({ kind: 'follow', platform: 'tiktok', userHandle: '' });
  });

  it('reports verified tags apart from follows of the same platform', () => {
    const states = { x_tag: { status: 'verified' as const }, x_follow: { status: 'failed' as const } };
    expect(verifiedFlags(template, states)).toEqual({ review: {}, follow: {}, tag: { x: true } });
    expect(verificationStatus(template, states)).toEqual({ screenshot: {}, social: { x_tag: true, x_follow: false } });
  });
});

describe('a screenshot chosen in the browser, before any upload', () => {
  it('refuses a file over 10 MB with the upload message, and lets 10 MB or less through', () => {
    expect(chosenScreenshotProblem({ size: 10 * 1024 * 1024 + 1 })).toBe(UPLOAD_MESSAGES.tooLarge);
    expect(chosenScreenshotProblem({ size: 20 * 1024 * 1024 })).toBe(UPLOAD_MESSAGES.tooLarge);
    expect(chosenScreenshotProblem({ size: 10 * 1024 * 1024 })).toBeNull();
    expect(chosenScreenshotProblem({ size: 300_000 })).toBeNull();
  });
});
