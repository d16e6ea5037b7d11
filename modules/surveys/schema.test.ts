import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../accounts/forms.ts';
import { builderFormSchema, surveyConfigApiSchema } from './schema.ts';

const form = {
  title: 'Spring feedback',
  rewardMode: 'preset_2',
  redemptionWebsite: 'crumbandco.com',
  surveyFrequencyDays: '90',
  selectedReviewPlatforms: ['google'],
  reviewUrls: { google: 'https://g.page/r/crumb/review' },
  selectedSocialPlatforms: ['instagram'],
  socialHandles: { instagram: '@crumbandco' },
};

const errorsOf = (schema: typeof builderFormSchema | typeof surveyConfigApiSchema, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? {} : fieldErrors(r.error);
};

describe('builder form schema', () => {
  it('normalises a valid form: preset cents from the template, https added, links for selected platforms only', () => {
    const out = builderFormSchema.parse({ ...form, reviewUrls: { google: 'https://g.page/r/crumb/review', yelp: 'https://yelp.com/biz/x' } });
    expect(out).toMatchObject({
      title: 'Spring feedback',
      surveyTemplateId: 'restaurant_cafe_bakery',
      rewardMode: 'preset_2',
      bronzeRewardValue: 100,
      silverRewardValue: 300,
      goldRewardValue: 800,
      redemptionWebsite: 'https://crumbandco.com',
      reviewUrls: { google: 'https://g.page/r/crumb/review' },
      socialHandles: { instagram: '@crumbandco' },
      surveyFrequencyDays: 90,
    });
  });

  it('takes custom whole-dollar amounts as cents', () => {
    const out = builderFormSchema.parse({ ...form, rewardMode: 'custom', customBronze: '2', customSilver: '4', customGold: '10' });
    expect([out.bronzeRewardValue, out.silverRewardValue, out.goldRewardValue]).toEqual([200, 400, 1000]);
  });

  it.each([
    [{ title: '   ' }, 'title', 'Title is required'],
    [{ title: 'x'.repeat(256) }, 'title', 'Title must be at most 255 characters'],
    [{ rewardMode: 'custom', customBronze: '0', customSilver: '2', customGold: '3' }, 'customBronze', 'Minimum $1.00'],
    [{ rewardMode: 'custom', customBronze: '1', customSilver: '1', customGold: '3' }, 'customSilver', 'Minimum $2.00'],
    [{ rewardMode: 'custom', customBronze: '1', customSilver: '2', customGold: '2' }, 'customGold', 'Minimum $3.00'],
    [{ rewardMode: 'custom', customBronze: '5', customSilver: '3', customGold: '8' }, 'customSilver', 'Silver must be at least the Bronze reward'],
    [{ rewardMode: 'custom', customBronze: '1', customSilver: '9', customGold: '8' }, 'customGold', 'Gold must be at least the Silver reward'],
    [{ rewardMode: 'custom', customBronze: '1.5', customSilver: '2', customGold: '3' }, 'customBronze', 'Use whole dollars'],
    [{ rewardMode: 'custom' }, 'customBronze', 'Minimum $1.00'],
    [{ redemptionWebsite: '' }, 'redemptionWebsite', 'Redemption website is required'],
    [{ redemptionWebsite: 'not a website' }, 'redemptionWebsite', 'Please enter a valid website URL'],
    [{ selectedReviewPlatforms: [] }, 'selectedReviewPlatforms', 'Select at least one review platform'],
    [{ selectedReviewPlatforms: ['google', 'yelp'], reviewUrls: { google: 'https://g.page/x' } }, 'reviewUrls.yelp', 'URL required for selected platform'],
    [{ selectedSocialPlatforms: ['instagram', 'x'], socialHandles: { instagram: '@a' } }, 'socialHandles.x', 'Handle required for selected platform'],
    [{ selectedSocialPlatforms: ['instagram'], socialHandles: { instagram: 'two words' } }, 'socialHandles.instagram', 'Enter a handle like @yourcafe or a profile link'],
    [{ surveyFrequencyDays: '30' }, 'surveyFrequencyDays', 'Must be 90, 180, or 365 days'],
    [{ rewardMode: 'preset_9' }, 'rewardMode', 'Choose a reward package'],
  ])('rejects %o on %s with "%s"', (override, field, message) => {
    expect(errorsOf(builderFormSchema, { ...form, ...override })[field]).toContain(message);
  });

  it('reports every problem at once, platform rules included', () => {
    const errors = errorsOf(builderFormSchema, { ...form, title: '', selectedReviewPlatforms: [], selectedSocialPlatforms: ['x'], socialHandles: {} });
    expect(errors.title).toContain('Title is required');
    expect(errors.selectedReviewPlatforms).toContain('Select at least one review platform');
    expect(errors['socialHandles.x']).toContain('Handle required for selected platform');
  });

  it('accepts one selected platform sent as a single value (a form post with one checkbox)', () => {
    expect(builderFormSchema.parse({ ...form, selectedReviewPlatforms: 'google' }).selectedReviewPlatforms).toEqual(['google']);
  });

  it('allows no social platform on save (preview and publish require one)', () => {
    expect(builderFormSchema.safeParse({ ...form, selectedSocialPlatforms: [] }).success).toBe(true);
  });
});

describe('JSON API schema (cents)', () => {
  const body = { ...form, surveyFrequencyDays: 180, rewardMode: 'custom', bronzeRewardValue: 100, silverRewardValue: 200, goldRewardValue: 300 };

  it('accepts the minimums and keeps cents', () => {
    const out = surveyConfigApiSchema.parse(body);
    expect([out.bronzeRewardValue, out.silverRewardValue, out.goldRewardValue, out.surveyFrequencyDays]).toEqual([100, 200, 300, 180]);
  });

  it.each([
    [{ bronzeRewardValue: 99 }, 'bronzeRewardValue', 'Bronze must be at least $1, Silver at least $2, and Gold at least $3'],
    [{ silverRewardValue: 199 }, 'silverRewardValue', 'Bronze must be at least $1, Silver at least $2, and Gold at least $3'],
    [{ goldRewardValue: 299 }, 'goldRewardValue', 'Bronze must be at least $1, Silver at least $2, and Gold at least $3'],
    [{ bronzeRewardValue: 150.5 }, 'bronzeRewardValue', 'Reward values are whole cents'],
    [{ goldRewardValue: 250, silverRewardValue: 300 }, 'goldRewardValue', 'Bronze must be at least $1, Silver at least $2, and Gold at least $3'],
    [{ surveyTemplateId: 'pizzeria' }, 'surveyTemplateId', 'Unknown survey template'],
    [{ surveyFrequencyDays: '90' }, 'surveyFrequencyDays', 'Must be 90, 180, or 365 days'],
  ])('rejects %o on %s', (override, field, message) => {
    expect(errorsOf(surveyConfigApiSchema, { ...body, ...override })[field]).toContain(message);
  });

  it('ignores posted cents for a preset: the template decides', () => {
    const out = surveyConfigApiSchema.parse({ ...body, rewardMode: 'preset_3', bronzeRewardValue: 100, goldRewardValue: 100000 });
    expect([out.bronzeRewardValue, out.silverRewardValue, out.goldRewardValue]).toEqual([100, 500, 1500]);
  });
});
