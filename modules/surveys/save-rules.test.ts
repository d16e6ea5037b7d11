import { describe, expect, it } from 'vitest';
import { surveyTierReport } from '../scoring/index.ts';
import { builderFormSchema, formTierThresholds } from './forms.ts';
import type { SurveyConfigInput } from './schema.ts';
import { saveRefusal, tierCheck } from './save-rules.ts';

/** The builder's summary and the save are one decision (issue 27, ADR 093): `tierCheck` feeds both. */
const rules = { tierReport: surveyTierReport, hostedVisionAvailable: false };
/** The fields the rules read, as a save's input (the rest of the input does not matter to them). */
const asInput = (x: object) => x as SurveyConfigInput;
const survey = {
  surveyTemplateId: 'restaurant_cafe_bakery',
  bronzeRewardValue: 100,
  silverRewardValue: 300,
  goldRewardValue: 800,
  selectedReviewPlatforms: ['google'],
  selectedSocialPlatforms: ['instagram'],
};

describe('tierCheck: the summary as the save sees it', () => {
  it('marks Gold "needs_fix" exactly when the save refuses it, with the same words', () => {
    const input = {
      ...survey,
      reviewPolicy: 'ask_every' as const,
      tierThresholds: { Bronze: 5, Silver: 8, Gold: 12 },
    };
    const check = tierCheck(rules, input, null);
    expect(check.tiers.find((t) => t.tier === 'Gold')?.state).toBe('needs_fix');
    expect(saveRefusal(rules, asInput(input), null)?.problems.map((p) => p.message)).toEqual(check.problems.map((p) => p.message));
  });

  it('reads what an edit leaves out from the stored survey, as the save does: a tier field left empty keeps the stored points', () => {
    // The owner raised Gold (stored 40: out of reach) and then cleared Bronze: the save keeps the stored three.
    const typed = formTierThresholds('restaurant_cafe_bakery', {
      tierBronze: undefined,
      tierSilver: 8,
      tierGold: 25,
    });
    expect(typed).toBeUndefined();
    const stored = {
      customQuestions: [],
      reviewPolicy: 'ask_every' as const,
      tierThresholds: { Bronze: 5, Silver: 8, Gold: 400 },
    };
    const check = tierCheck(rules, { ...survey, tierThresholds: typed }, stored);
    expect(check.tiers.find((t) => t.tier === 'Gold')).toMatchObject({
      minPoints: 400,
      state: 'out_of_reach',
    });
    expect(saveRefusal(rules, asInput({ ...survey, tierThresholds: typed }), { ...stored, hostedVision: false, languages: ['en'] })?.message).toBe(check.problems[0]!.message);
  });

  it('agrees with the save over a builder post parsed by the save schema', () => {
    const parsed = builderFormSchema.safeParse({
      ...{
        title: 'T',
        redemptionWebsite: 'https://cafe.example',
        surveyTemplateId: 'restaurant_cafe_bakery',
        rewardMode: 'preset_2',
        surveyFrequencyDays: '90',
      },
      ...{
        selectedReviewPlatforms: 'google',
        reviewUrls: { google: 'https://g.page/r/x/review' },
        selectedSocialPlatforms: 'instagram',
        socialHandles: { instagram: '@cafe' },
      },
      ...{
        tierBronze: '5',
        tierSilver: '8',
        tierGold: '17',
        languages: 'en',
        defaultLanguage: 'en',
      },
    });
    expect(parsed.error?.issues ?? []).toEqual([]);
    const check = tierCheck(rules, parsed.data!, null);
    // Gold 17 with Google and Instagram: reachable without sharing, so both refuse it, in the same words.
    expect(check.tiers.find((t) => t.tier === 'Gold')?.state).toBe('needs_fix');
    expect(saveRefusal(rules, parsed.data!, null)?.problems.map((p) => p.message)).toEqual(check.problems.map((p) => p.message));
  });
});
