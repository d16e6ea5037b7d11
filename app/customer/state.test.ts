import { describe, expect, it } from 'vitest';
import { allQuestions, getTemplate } from '../../modules/surveys/index.ts';
import { firstStep, simulatedStep, submittedStep, withAnswer, withRejectedBlock, type SurveyStep } from './state.ts';

const template = getTemplate('restaurant_cafe_bakery')!;
const step = (over: Partial<SurveyStep>): SurveyStep => ({ ...firstStep(), ...over });

describe('an answer changed on the page', () => {
  it('is set, cleared by an empty value, and takes its inline error with it', () => {
    const before = step({ answers: { overall_rating: 4, favorite_item: 'Bread' }, errors: { favorite_item: 'Please answer', overall_rating: 'x' } });
    const set = withAnswer(before, 'overall_rating', 5);
    expect(set.answers).toEqual({ overall_rating: 5, favorite_item: 'Bread' });
    expect(set.errors).toEqual({ favorite_item: 'Please answer' });
    const cleared = withAnswer(before, 'favorite_item', '');
    expect(cleared.answers).toEqual({ overall_rating: 4 });
    expect(cleared.errors).toEqual({ overall_rating: 'x' });
    expect(before.answers).toEqual({ overall_rating: 4, favorite_item: 'Bread' });
  });

  it("clears the claim box's email error when the template's email question changes", () => {
    const after = withAnswer(step({ errors: { customerEmail: 'Please enter a valid email address' } }), 'customer_email', 'a@b.co');
    expect(after.errors).toEqual({});
  });
});

describe('the Thank You after a submission', () => {
  it('says the gift card is on its way, or that it is checked first (ADR 050)', () => {
    expect(submittedStep({ totalPoints: 12, rewardTier: 'Silver', rewardValue: 500 }, 'a@b.co')).toEqual({
      done: { points: 12, tier: 'Silver', rewardValue: 500, email: 'a@b.co', demoGiftCard: null },
      toast: { title: 'Survey Submitted!', description: 'Your gift card is on its way to your inbox.', type: 'success' },
    });
    const checked = submittedStep({ totalPoints: 12, rewardTier: 'Silver', rewardValue: 500, rewardChecking: true, confirmEmail: true }, 'a@b.co');
    expect(checked.done).toMatchObject({ checking: true, confirmEmail: true });
    expect(checked.toast?.description).toBe('Your reward will arrive by email.');
    expect(submittedStep({ totalPoints: 2, rewardTier: null, rewardValue: 0 }, null).toast?.description).toBe('Thank you for your feedback.');
  });

  it('simulates a preview or demo completion with a pretend card only for a tier', () => {
    const demo = simulatedStep('demo', { totalPoints: 20, rewardTier: 'Gold', rewardValue: 1000 }, null, () => 0.5);
    expect(demo.done).toEqual({ points: 20, tier: 'Gold', rewardValue: 1000, email: null, demoGiftCard: 'DEMO-5555-5555-5555' });
    expect(demo.toast?.title).toBe('Demo Survey Completed!');
    const preview = simulatedStep('preview', { totalPoints: 1, rewardTier: null, rewardValue: 0 }, 'a@b.co');
    expect(preview.done?.demoGiftCard).toBeNull();
    expect(preview.toast?.title).toBe('Preview Survey Completed!');
  });
});

describe('a screenshot the submission refused (spec 8)', () => {
  it("clears that block's fields only, marks it failed with the reason and says so", () => {
    const q = allQuestions(template).find((x) => x.id === 'review_google');
    const before = step({
      answers: { overall_rating: 5, review_google_screenshot: 'v1', review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x', social_x_handle: '@ana' },
      states: { google: { status: 'verified' }, x_follow: { status: 'verified' } },
    });
    const after = withRejectedBlock(before, q, 'Already used for a reward.');
    expect(after.answers).toEqual({ overall_rating: 5, social_x_handle: '@ana' });
    expect(after.states).toEqual({ google: { status: 'failed', error: 'Already used for a reward.' }, x_follow: { status: 'verified' } });
    expect(after.toast).toEqual({ title: 'Screenshot Verification Failed', description: 'Already used for a reward.', type: 'error' });
  });

  it('still says why when the block is unknown', () => {
    const after = withRejectedBlock(step({ answers: { overall_rating: 5 } }), undefined, 'No.');
    expect(after.answers).toEqual({ overall_rating: 5 });
    expect(after.toast?.description).toBe('No.');
  });
});
