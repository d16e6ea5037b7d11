import { describe, expect, it } from 'vitest';
import { surveyTierReport } from '../../../modules/scoring/index.ts';
import { stepOfField, stepProblems, stepState } from './steps.tsx';

/** The builder's steps (ADR 089): which step a problem marks, and each step's state in words. */
const survey = { surveyTemplateId: 'restaurant_cafe_bakery', bronzeRewardValue: 100, silverRewardValue: 300, goldRewardValue: 800, selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['instagram'], reviewPolicy: 'ask_every' };

describe('builder steps', () => {
  it('puts every form field in its step', () => {
    expect(['title', 'redemptionWebsite', 'surveyFrequencyDays', 'hostedVision', 'languages'].map(stepOfField)).toEqual(Array(5).fill('step-basics'));
    expect(['rewardMode', 'customGold', 'tierGold'].map(stepOfField)).toEqual(Array(3).fill('step-rewards'));
    expect(stepOfField('customQuestions')).toBe('step-questions');
    expect(['selectedReviewPlatforms', 'reviewUrls.google', 'socialHandles.instagram', 'reviewPolicy'].map(stepOfField)).toEqual(Array(4).fill('step-platforms'));
  });

  it('marks the step of a fairness problem with the same report the summary shows; field errors mark their steps', () => {
    const report = surveyTierReport({ ...survey, tierThresholds: { Gold: 17 } });
    const problems = stepProblems({ title: ['Title is required'] }, report, true);
    expect(problems['step-rewards'].all).toEqual([report.problems[0]!.message]);
    expect(stepState(problems['step-rewards'], true)).toBe('problem');
    expect(stepState(problems['step-basics'], false)).toBe('problem');
    expect(stepState(problems['step-questions'], true)).toBe('done');
  });

  it('a new survey without a review platform is "to do" there, not "needs a fix", though Gold is out of reach yet', () => {
    const report = surveyTierReport({ ...survey, selectedReviewPlatforms: [], selectedSocialPlatforms: [] });
    expect(report.tiers.find((t) => t.tier === 'Gold')?.state).toBe('out_of_reach');
    const problems = stepProblems({}, report, false);
    expect(problems['step-platforms'].all).toHaveLength(1);
    expect(stepState(problems['step-platforms'], false)).toBe('todo');
    expect(problems['step-questions'].all).toEqual([]);
  });
});
