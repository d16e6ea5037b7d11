import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TEMPLATE_ID,
  PART3_ID,
  PLATFORM_LABELS,
  REVIEW_PLATFORMS,
  SOCIAL_PLATFORMS,
  TEMPLATES,
  answerKey,
  customerEmailOf,
  customerNameOf,
  defaultPresetId,
  getTemplate,
  overallRatingOf,
  visibleSections,
  type PlatformSelection,
  type Question,
  type SurveyTemplate,
} from './template.ts';

const template: SurveyTemplate = getTemplate(DEFAULT_TEMPLATE_ID)!;
const section = (id: string) => template.sections.find((s) => s.id === id)!;
const shape = (q: Question) => [q.id, q.type, q.points, q.required];

const ALL: PlatformSelection = {
  selectedReviewPlatforms: [...REVIEW_PLATFORMS],
  selectedSocialPlatforms: [...SOCIAL_PLATFORMS],
};

describe('template lookup', () => {
  it('finds restaurant_cafe_bakery by id and nothing else', () => {
    expect(DEFAULT_TEMPLATE_ID).toBe('restaurant_cafe_bakery');
    expect(template.id).toBe('restaurant_cafe_bakery');
    expect(Object.keys(TEMPLATES)).toEqual(['restaurant_cafe_bakery']);
    expect(getTemplate('salon')).toBeUndefined();
    expect(getTemplate('constructor')).toBeUndefined();
    expect(getTemplate('')).toBeUndefined();
  });
});

describe('restaurant_cafe_bakery matches spec section 3', () => {
  it('has three sections, only part3 conditional on overall_rating >= 4', () => {
    expect(template.sections.map((s) => [s.id, s.conditional])).toEqual([
      ['part1', false],
      ['part2', false],
      ['part3', true],
    ]);
    expect(section('part3')).toMatchObject({ condition_question: 'overall_rating', condition_value: 4 });
    expect(section('part1').negative_questions).toBeUndefined();
  });

  it('lists the section 1/2 questions with their types, points and required flags', () => {
    expect([...section('part1').questions, ...section('part2').questions].map(shape)).toEqual([
      ['overall_rating', 'scale', 2, true],
      ['customer_email', 'email', 0, false],
      ['recommend', 'yes_no', 1, false],
      ['visit_frequency', 'multiple_choice', 1, false],
      ['service_rating', 'scale', 1, false],
      ['favorite_item', 'short_text', 2, false],
      ['atmosphere_rating', 'scale', 1, false],
      ['value_rating', 'scale', 1, false],
      ['improvement_suggestions', 'short_text', 3, false],
    ]);
  });

  it('gives scales a 1-5 range, choices and minimum lengths', () => {
    const q = (id: string) => template.sections.flatMap((s) => s.questions).find((x) => x.id === id)!;
    for (const id of ['overall_rating', 'service_rating', 'atmosphere_rating', 'value_rating']) expect(q(id).scale_max).toBe(5);
    expect(q('visit_frequency').options).toEqual(['First time', 'Weekly', 'Monthly', 'Occasionally', 'Special occasions only']);
    expect(q('favorite_item').min_chars).toBe(20);
    expect(q('improvement_suggestions').min_chars).toBe(30);
  });

  it('part3 questions: a review block per review platform (8) and a follow block per social platform (5)', () => {
    expect(section('part3').questions.map((q) => [...shape(q), q.platform])).toEqual([
      ['review_google', 'review_submission', 8, false, 'google'],
      ['review_yelp', 'review_submission', 8, false, 'yelp'],
      ['review_facebook', 'review_submission', 8, false, 'facebook'],
      ['social_instagram', 'social_submission', 5, false, 'instagram'],
      ['social_facebook', 'social_submission', 5, false, 'facebook'],
      ['social_x', 'social_submission', 5, false, 'x'],
      ['social_tiktok', 'social_submission', 5, false, 'tiktok'],
    ]);
  });

  it('part3 negative_questions: improvement (5, 40 chars), follows (5), then a Tag us block per platform (8)', () => {
    const negative = section('part3').negative_questions!;
    expect(negative.map((q) => [...shape(q), q.platform])).toEqual([
      ['five_star_improvement', 'short_text', 5, false, undefined],
      ['social_instagram', 'social_submission', 5, false, 'instagram'],
      ['social_facebook', 'social_submission', 5, false, 'facebook'],
      ['social_x', 'social_submission', 5, false, 'x'],
      ['social_tiktok', 'social_submission', 5, false, 'tiktok'],
      ['tag_us_instagram', 'social_tag_submission', 8, false, 'instagram'],
      ['tag_us_facebook', 'social_tag_submission', 8, false, 'facebook'],
      ['tag_us_x', 'social_tag_submission', 8, false, 'x'],
      ['tag_us_tiktok', 'social_tag_submission', 8, false, 'tiktok'],
    ]);
    expect(negative[0]).toMatchObject({ text: 'How can we improve to give you a 5 star experience?', min_chars: 40 });
    expect(negative.filter((q) => q.type === 'social_tag_submission').every((q) => q.text.startsWith('Tag us'))).toBe(true);
  });

  it('block fields have the spec types, all required, and review/tag blocks are all-or-nothing', () => {
    const fields = (q: Question) => q.fields!.map((f) => [f.id, f.type, f.required]);
    const part3 = [...section('part3').questions, ...section('part3').negative_questions!];
    const byType = (type: Question['type']) => part3.filter((q) => q.type === type);
    for (const q of byType('review_submission')) {
      expect(fields(q)).toEqual([
        ['screenshot', 'image_upload', true],
        ['reviewer_name', 'text', true],
        ['review_link', 'url', true],
      ]);
      expect(q.conditional_required).toBe(true);
    }
    for (const q of byType('social_submission')) {
      expect(fields(q)).toEqual([
        ['handle', 'text', true],
        ['screenshot', 'image_upload', true],
      ]);
    }
    for (const q of byType('social_tag_submission')) {
      expect(fields(q)).toEqual([
        ['social_handle', 'text', true],
        ['tag_screenshot', 'image_upload', true],
      ]);
      expect(q.conditional_required).toBe(true);
    }
  });

  it('composite answer keys are exactly the spec ones', () => {
    const part3 = [...section('part3').questions, ...section('part3').negative_questions!];
    const keys = new Set(part3.flatMap((q) => (q.fields ?? []).map((f) => answerKey(q.id, f.id))));
    const expected = [
      ...REVIEW_PLATFORMS.flatMap((p) => [`review_${p}_screenshot`, `review_${p}_reviewer_name`, `review_${p}_review_link`]),
      ...SOCIAL_PLATFORMS.flatMap((p) => [`social_${p}_handle`, `social_${p}_screenshot`]),
      ...SOCIAL_PLATFORMS.flatMap((p) => [`tag_us_${p}_social_handle`, `tag_us_${p}_tag_screenshot`]),
    ];
    expect([...keys].sort()).toEqual(expected.sort());
  });

  it('has the template reward tiers (Bronze 5, Silver 8, Gold 18: ADR 041), presets and frequencies', () => {
    expect(template.reward_tiers).toEqual([
      { tier: 'Bronze', min_points: 5 },
      { tier: 'Silver', min_points: 8 },
      { tier: 'Gold', min_points: 18 },
    ]);
    expect(template.preset_rewards).toEqual({
      preset_1: { label: 'Low', is_default: false, values: { Bronze: 100, Silver: 200, Gold: 500 } },
      preset_2: { label: 'Middle', badge: 'Recommended', is_default: true, values: { Bronze: 100, Silver: 300, Gold: 800 } },
      preset_3: { label: 'High', is_default: false, values: { Bronze: 100, Silver: 500, Gold: 1500 } },
    });
    expect(defaultPresetId(template)).toBe('preset_2');
    expect(template.frequency_options).toEqual([90, 180, 365]);
  });

  it('labels platforms for display', () => {
    expect(REVIEW_PLATFORMS.map((p) => PLATFORM_LABELS[p])).toEqual(['Google', 'Yelp', 'Facebook']);
    expect(SOCIAL_PLATFORMS.map((p) => PLATFORM_LABELS[p])).toEqual(['Instagram', 'Facebook', 'X', 'TikTok']);
  });
});

describe('visibleSections', () => {
  const ids = (config: PlatformSelection, rating: number | undefined) =>
    visibleSections(template, config, rating).map((s) => [s.id, s.questions.map((q) => q.id)]);
  const part3 = (config: PlatformSelection, rating: number | undefined) =>
    visibleSections(template, config, rating).find((s) => s.id === PART3_ID)!.questions.map((q) => q.id);

  it('keeps every section, part1 and part2 in full, part3 empty without a rating', () => {
    const shown = ids(ALL, undefined);
    expect(shown.map(([id]) => id)).toEqual(['part1', 'part2', 'part3']);
    expect(shown[0]![1]).toHaveLength(4);
    expect(shown[1]![1]).toHaveLength(5);
    expect(shown[2]![1]).toEqual([]);
  });

  it.each([
    [5, 'questions'],
    [4, 'questions'],
    [3, 'negative_questions'],
    [1, 'negative_questions'],
  ] as const)('rating %i shows part3 %s', (rating, branch) => {
    expect(part3(ALL, rating)).toEqual(section('part3')[branch]!.map((q) => q.id));
  });

  it('never hands back negative_questions', () => {
    for (const s of visibleSections(template, ALL, 2)) expect(s).not.toHaveProperty('negative_questions');
  });

  it('shows only the selected platforms, reviews and socials filtered separately', () => {
    const googleAndX: PlatformSelection = { selectedReviewPlatforms: ['google'], selectedSocialPlatforms: ['x'] };
    expect(part3(googleAndX, 4)).toEqual(['review_google', 'social_x']);
    expect(part3(googleAndX, 3)).toEqual(['five_star_improvement', 'social_x', 'tag_us_x']);
    const facebookReviewOnly: PlatformSelection = { selectedReviewPlatforms: ['facebook'], selectedSocialPlatforms: [] };
    expect(part3(facebookReviewOnly, 5)).toEqual(['review_facebook']);
    expect(part3(facebookReviewOnly, 2)).toEqual(['five_star_improvement']);
    const facebookSocialOnly: PlatformSelection = { selectedReviewPlatforms: [], selectedSocialPlatforms: ['facebook'] };
    expect(part3(facebookSocialOnly, 5)).toEqual(['social_facebook']);
  });
});

describe('answers', () => {
  it.each([
    [{ overall_rating: 4 }, 4],
    [{ overall_rating: '5' }, 5],
    [{ overall_rating: 1 }, 1],
    [{ overall_rating: 0 }, undefined],
    [{ overall_rating: 6 }, undefined],
    [{ overall_rating: 3.5 }, undefined],
    [{ overall_rating: 'great' }, undefined],
    [{ overall_rating: '' }, undefined],
    [{}, undefined],
  ])('overallRatingOf(%o) = %s', (answers, rating) => {
    expect(overallRatingOf(template, answers)).toBe(rating);
  });

  it('reads the customer email and name under either key, camelCase first', () => {
    expect(customerEmailOf({ customerEmail: ' a@b.co ', customer_email: 'c@d.co' })).toBe('a@b.co');
    expect(customerEmailOf({ customerEmail: ' ', customer_email: 'c@d.co' })).toBe('c@d.co');
    expect(customerEmailOf({})).toBeUndefined();
    expect(customerNameOf({ customer_name: 'Ann' })).toBe('Ann');
    expect(customerNameOf({ customerName: 'Bo', customer_name: 'Ann' })).toBe('Bo');
  });
});
