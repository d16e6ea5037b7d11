import { describe, expect, it } from 'vitest';
import { customerView } from '../../modules/responses/index.ts';
import { allQuestions, getTemplate, isBlock, type Block } from '../../modules/surveys/index.ts';
import { createTranslator } from '../../modules/i18n/translator.ts';
import { messagesFor } from '../../modules/i18n/server.ts';
import { blockOfField, blockReady, verificationRequest, verifiedState } from './use-verification-queue.ts';

const template = getTemplate('restaurant_cafe_bakery')!;
const blocks = allQuestions(template).filter(isBlock);
const block = (id: string): Block => blocks.find((q) => q.id === id)!;
const survey = {
  id: '00000000-0000-4000-8000-000000000002',
  businessId: '00000000-0000-4000-8000-000000000001',
  title: 'Spring',
  surveyTemplateId: template.id,
  customQuestions: [],
  bronzeRewardValue: 100,
  silverRewardValue: 300,
  goldRewardValue: 800,
  selectedReviewPlatforms: ['google'],
  selectedSocialPlatforms: ['instagram', 'x'],
  reviewUrls: { google: 'https://g.page/r/x' },
  socialHandles: { instagram: '@crumbandco', x: '@crumb' },
  redemptionWebsite: null,
};
const live = customerView(survey, 'Crumb & Co', { bypassSquare: false });
const ownerPreview = customerView(survey, 'Crumb & Co', { bypassSquare: true });
const shot = new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' });
const fields = (body: FormData) => Object.fromEntries([...body.entries()].filter(([k]) => k !== 'screenshot'));

describe('the request that verifies a block (spec 7)', () => {
  it('sends a review to /api/verify-screenshot with the reviewer name and link', () => {
    const answers = { review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x/review' };
    const { url, body } = verificationRequest(live, block('review_google'), answers, shot);
    expect(url).toBe('/api/verify-screenshot');
    expect(fields(body)).toEqual({
      businessId: survey.businessId,
      surveyId: survey.id,
      bypassSquare: 'false',
      platform: 'google',
      reviewerName: 'Ana',
      reviewLink: 'https://g.page/r/x/review',
    });
    expect(body.get('screenshot')).toBeInstanceOf(Blob);
  });

  it("sends a follow and a tag to /api/verify-social with the customer's handle, the survey's handle and the kind", () => {
    const answers = { social_instagram_handle: '@ana', tag_us_x_social_handle: '@ana_x' };
    const follow = verificationRequest(ownerPreview, block('social_instagram'), answers, shot);
    expect(follow.url).toBe('/api/verify-social');
    expect(fields(follow.body)).toMatchObject({ bypassSquare: 'true', platform: 'instagram', userHandle: '@ana', businessHandle: '@crumbandco', verificationType: 'follow' });
    const tag = verificationRequest(live, block('tag_us_x'), answers, shot);
    expect(fields(tag.body)).toMatchObject({ platform: 'x', userHandle: '@ana_x', businessHandle: '@crumb', verificationType: 'tag' });
    expect(tag.body.has('reviewerName')).toBe(false);
  });
});

describe('the queue', () => {
  it('takes a block once every text field is filled and its screenshot chosen', () => {
    const q = block('review_google');
    const filled = { review_google_reviewer_name: 'Ana', review_google_review_link: 'https://g.page/r/x' };
    expect(blockReady(q, filled, (key) => key === 'review_google_screenshot')).toBe(true);
    expect(blockReady(q, filled, () => false)).toBe(false);
    expect(blockReady(q, { ...filled, review_google_reviewer_name: '  ' }, () => true)).toBe(false);
  });

  it("finds a field's block by its answer key", () => {
    expect(blockOfField(blocks, 'tag_us_x_tag_screenshot')?.id).toBe('tag_us_x');
    expect(blockOfField(blocks, 'social_x_handle')?.id).toBe('social_x');
    expect(blockOfField(blocks, 'overall_rating')).toBeUndefined();
  });
});

describe("the block's state for the verify API's answer (ADR 077)", () => {
  it('needs_review is verified and says it will be checked; accepted is verified; rejected fails with the reason', () => {
    expect(verifiedState({ isValid: true, rejectionReason: null, verdict: 'needs_review', verificationId: 'v1' })).toEqual({ status: 'verified', checking: true });
    expect(verifiedState({ isValid: true, rejectionReason: null, verdict: 'accepted', verificationId: 'v1' })).toEqual({ status: 'verified' });
    expect(verifiedState({ isValid: false, rejectionReason: 'Not yours.', verdict: 'rejected', verificationId: 'v1' })).toEqual({ status: 'failed', error: 'Not yours.' });
  });
});

describe('a rejection in the customer’s language (ADR 090)', () => {
  const es = createTranslator('es', messagesFor('es'));
  const en = createTranslator('en', messagesFor('en'));
  const rejected = { isValid: false, rejectionReason: 'The profile shows a Follow button.', rejectionCode: 'not_following', verdict: 'rejected' };

  it('Spanish: the code’s sentence with the platform; English: the verifier’s own words', () => {
    expect(verifiedState(rejected, { tr: es, platform: 'Instagram' })).toEqual({
      status: 'failed',
      error: 'Esta captura no muestra que nos sigues en Instagram. Sube una captura de nuestro perfil donde se vea que nos sigues.',
    });
    expect(verifiedState(rejected, { tr: en, platform: 'Instagram' })).toEqual({ status: 'failed', error: 'The profile shows a Follow button.' });
    expect(verifiedState({ ...rejected, rejectionCode: null }, { tr: es, platform: 'Instagram' })).toEqual({ status: 'failed', error: es.t('Please upload a different screenshot.') });
  });
});
