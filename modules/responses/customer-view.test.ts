import { describe, expect, it } from 'vitest';
import { customerView, demoView, draftView, isSaved, type CustomerSurveyView } from './customer-view.ts';

const config = {
  title: 'Spring',
  surveyTemplateId: 'restaurant_cafe_bakery',
  customQuestions: [],
  bronzeRewardValue: 100,
  silverRewardValue: 300,
  goldRewardValue: 800,
  selectedReviewPlatforms: ['google'],
  selectedSocialPlatforms: ['instagram'],
  reviewUrls: { google: 'https://g.page/r/x' },
  socialHandles: { instagram: '@crumb' },
  redemptionWebsite: null,
};
const saved = { ...config, id: 'survey-1', businessId: 'business-1' };

/** What code that holds a view may rely on, by its mode: the assertions the union replaces. */
function where(view: CustomerSurveyView): string {
  if (view.mode === 'live') return `live ${view.businessId}/${view.surveyId}`;
  if (isSaved(view)) return `owner preview ${view.businessId}/${view.surveyId} bypass=${view.bypassSquare}`;
  return `${view.mode} of nothing saved`;
}

describe('the customer view, by mode', () => {
  it("is live for a customer and the owner's preview with bypass_square, both with the survey's ids", () => {
    const live = customerView(saved, 'Crumb & Co', { bypassSquare: false, dynamic: true });
    expect(live).toMatchObject({ mode: 'live', businessId: 'business-1', surveyId: 'survey-1', dynamic: true, bypassSquare: false, businessName: 'Crumb & Co' });
    expect(where(live)).toBe('live business-1/survey-1');
    const preview = customerView(saved, 'Crumb & Co', { bypassSquare: true });
    expect(preview).toMatchObject({ mode: 'preview', bypassSquare: true, dynamic: false });
    expect(where(preview)).toBe('owner preview business-1/survey-1 bypass=true');
  });

  it('has no ids for a builder draft and the demo, which are never stored', () => {
    const draft = draftView(config, 'Your Business');
    expect(draft).toMatchObject({ mode: 'preview', businessId: null, surveyId: null, dynamic: false, bypassSquare: false });
    expect(isSaved(draft)).toBe(false);
    expect(where(draft)).toBe('preview of nothing saved');
    const demo = demoView();
    expect(demo).toMatchObject({ mode: 'demo', businessId: null, surveyId: null, businessName: 'Demo Cafe', bronzeRewardValue: 200 });
    expect(where(demo)).toBe('demo of nothing saved');
  });

  it("copies the survey's lists, so changing the view leaves the survey alone", () => {
    const view = customerView(saved, 'Crumb & Co', { bypassSquare: false });
    view.selectedReviewPlatforms.push('yelp');
    view.reviewUrls.yelp = 'https://yelp.com';
    expect(saved.selectedReviewPlatforms).toEqual(['google']);
    expect(saved.reviewUrls).toEqual({ google: 'https://g.page/r/x' });
  });
});
