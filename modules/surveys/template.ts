/**
 * Survey templates as data (spec section 3: "Template", "Question", "Built-in template questions",
 * "Answer keys"). Pure TypeScript with no imports: bundled into the browser and used by the server.
 *
 * Tier thresholds come from `reward_tiers` only (ADR 008): every tier label is derived from it.
 *
 * Over 400 lines on purpose (issue 28 item 4): it is one concept, the template, whose shape (types),
 * data (`restaurantCafeBakery`) and small readers (answer keys, branches, visible sections) are read
 * together; most of its length is the template's data.
 */

export const QUESTION_TYPES = [
  'scale',
  'yes_no',
  'multiple_choice',
  'short_text',
  'email',
  'review_submission',
  'social_submission',
  'social_tag_submission',
  'image_upload',
  'text',
  'url',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const REVIEW_PLATFORMS = ['google', 'yelp', 'facebook'] as const;
export type ReviewPlatform = (typeof REVIEW_PLATFORMS)[number];
export const SOCIAL_PLATFORMS = ['instagram', 'facebook', 'x', 'tiktok'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
export type Platform = ReviewPlatform | SocialPlatform;

/** Display names. Facebook is both a review and a social platform, with one label. */
export const PLATFORM_LABELS: Readonly<Record<Platform, string>> = {
  google: 'Google',
  yelp: 'Yelp',
  facebook: 'Facebook',
  instagram: 'Instagram',
  x: 'X',
  tiktok: 'TikTok',
};

export const TIER_NAMES = ['Bronze', 'Silver', 'Gold'] as const;
export type TierName = (typeof TIER_NAMES)[number];

export const PRESET_IDS = ['preset_1', 'preset_2', 'preset_3'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export type QuestionField = {
  readonly id: string;
  readonly type: 'text' | 'url' | 'image_upload';
  readonly text: string;
  readonly required: boolean;
};

export type Question = {
  readonly id: string;
  readonly type: QuestionType;
  readonly text: string;
  readonly points: number;
  readonly required: boolean;
  /** Optional block, but once any field is filled every field is required (spec 5, "Incomplete Review Submission"). */
  readonly conditional_required?: boolean;
  readonly options?: readonly string[];
  /** Display only: the options as the customer reads them (the owner's translation, ADR 090); the values stay `options`. */
  readonly option_labels?: readonly string[];
  /** Scale questions run from 1 to scale_max (default 5). */
  readonly scale_max?: number;
  /** short_text: the trimmed answer needs this many characters to earn points. */
  readonly min_chars?: number;
  readonly description?: string;
  /** Set on part-3 blocks; the survey shows it only if the owner selected that platform. */
  readonly platform?: Platform;
  /** Composite answers, keyed `{questionId}_{fieldId}` (see `answerKey`). */
  readonly fields?: readonly QuestionField[];
};

export type Section = {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly conditional: boolean;
  readonly condition_question?: string;
  /** Rating at or above this shows `questions`; below it shows `negative_questions`. */
  readonly condition_value?: number;
  readonly questions: readonly Question[];
  readonly negative_questions?: readonly Question[];
};

export type RewardTierDef = { readonly tier: TierName; readonly min_points: number };

/** A reward package. `values` are cents per tier. */
export type PresetReward = {
  readonly label: string;
  readonly badge?: string;
  readonly is_default: boolean;
  readonly values: Readonly<Record<TierName, number>>;
};

export type SurveyTemplate = {
  readonly id: string;
  readonly name: string;
  readonly sections: readonly Section[];
  readonly reward_tiers: readonly RewardTierDef[];
  readonly preset_rewards: Readonly<Record<PresetId, PresetReward>>;
  /** Days before the same customer may submit again. The first is the default. */
  readonly frequency_options: readonly number[];
};

/**
 * Who is offered part 3's review and follow steps (ADR 040):
 * - ask_every: every customer, whatever the rating; points never depend on the rating. The
 *   default for new surveys (FTC 16 CFR 465.4, Google's and Yelp's rules against selective asking).
 * - rating_routed: the spec's flow, the review step only for a rating of 4+. Surveys created before
 *   the choice existed keep it.
 */
export const REVIEW_POLICIES = ['ask_every', 'rating_routed'] as const;
export type ReviewPolicy = (typeof REVIEW_POLICIES)[number];
export const DEFAULT_REVIEW_POLICY: ReviewPolicy = 'ask_every';
export const REVIEW_POLICY_LABELS: Readonly<Record<ReviewPolicy, string>> = {
  ask_every: 'Ask every customer',
  rating_routed: 'Rating-routed (as specified)',
};

/** A stored value read defensively: anything but 'ask_every' is the spec's rating-routed flow. */
export function reviewPolicyOf(config: { readonly reviewPolicy?: string | null }): ReviewPolicy {
  return config.reviewPolicy === 'ask_every' ? 'ask_every' : 'rating_routed';
}

/** What a part-3 screenshot proves: a review, a follow, or a tag (a post mentioning the business). */
export type VerificationKind = 'review' | 'follow' | 'tag';
export const VERIFICATION_KINDS: readonly VerificationKind[] = ['review', 'follow', 'tag'];

/**
 * The one table from a part-3 question type to the verification kind its screenshot is checked as
 * (issue 11). Everything that tells blocks apart by kind reads it: the block state keys
 * ('google', 'instagram_follow', 'x_tag'), scoring's verified flags, the verification request of
 * the page and of its form post, the submission's check of the stored verification, the labels.
 */
export const VERIFICATION_KIND_BY_TYPE = {
  review_submission: 'review',
  social_submission: 'follow',
  social_tag_submission: 'tag',
} as const satisfies Partial<Record<QuestionType, VerificationKind>>;

/** The question types of part-3 blocks: the customer shares something public and proves it with a screenshot. */
export type SharingType = keyof typeof VERIFICATION_KIND_BY_TYPE;
export const SHARING_TYPES = Object.keys(VERIFICATION_KIND_BY_TYPE) as readonly SharingType[];
export const isSharing = (q: Question): q is Question & { readonly type: SharingType } => Object.hasOwn(VERIFICATION_KIND_BY_TYPE, q.type);

/** A part-3 block: a sharing question with its platform. */
export type Block = Question & { readonly type: SharingType; readonly platform: Platform };
export const isBlock = (q: Question): q is Block => isSharing(q) && q.platform !== undefined;

/** The verification kind of a part-3 question; null for any other question. */
export function verificationKindOf(q: Question): VerificationKind | null {
  return isSharing(q) ? VERIFICATION_KIND_BY_TYPE[q.type] : null;
}

/**
 * The platforms an owner picked for one survey (survey_configs.selected*Platforms), and the review
 * policy that decides part 3 (missing: the spec's rating-routed flow).
 */
export type PlatformSelection = {
  readonly selectedReviewPlatforms: readonly string[];
  readonly selectedSocialPlatforms: readonly string[];
  readonly reviewPolicy?: string | null;
};

/** Answers by question id, composite fields as `{questionId}_{fieldId}`. */
export type Answers = Readonly<Record<string, string | number | undefined>>;

export const OVERALL_RATING_ID = 'overall_rating';
export const PART3_ID = 'part3';
/** What part 3 shows before the overall rating is given. */
export const PART3_PENDING_MESSAGE = 'Please complete the first section to see available options';

// ---------------------------------------------------------------------------------------------
// Part-3 blocks. Their ids give the spec's answer keys: review_{platform}_screenshot,
// social_{platform}_handle, tag_us_{platform}_social_handle, ...

const reviewQuestion = (platform: ReviewPlatform): Question => ({
  id: `review_${platform}`,
  type: 'review_submission',
  text: `Share Your Review on ${PLATFORM_LABELS[platform]}`,
  description: `Post a review on ${PLATFORM_LABELS[platform]}, then upload a screenshot with your reviewer name and the review link.`,
  points: 8,
  required: false,
  conditional_required: true,
  platform,
  fields: [
    { id: 'screenshot', type: 'image_upload', text: 'Screenshot of your review', required: true },
    { id: 'reviewer_name', type: 'text', text: 'Reviewer name', required: true },
    { id: 'review_link', type: 'url', text: 'Link to your review', required: true },
  ],
});

const followQuestion = (platform: SocialPlatform): Question => ({
  id: `social_${platform}`,
  type: 'social_submission',
  text: `Follow Us on ${PLATFORM_LABELS[platform]}`,
  description: `Follow us on ${PLATFORM_LABELS[platform]}, then upload a screenshot showing you follow us.`,
  points: 5,
  required: false,
  platform,
  fields: [
    { id: 'handle', type: 'text', text: `Your ${PLATFORM_LABELS[platform]} handle`, required: true },
    { id: 'screenshot', type: 'image_upload', text: 'Screenshot of your follow', required: true },
  ],
});

const tagQuestion = (platform: SocialPlatform): Question => ({
  id: `tag_us_${platform}`,
  type: 'social_tag_submission',
  text: `Tag us on ${PLATFORM_LABELS[platform]}`,
  description: `Post about your visit on ${PLATFORM_LABELS[platform]} and tag us, then upload a screenshot of the post.`,
  points: 8,
  required: false,
  conditional_required: true,
  platform,
  fields: [
    { id: 'social_handle', type: 'text', text: `Your ${PLATFORM_LABELS[platform]} handle`, required: true },
    { id: 'tag_screenshot', type: 'image_upload', text: 'Screenshot of your post tagging us', required: true },
  ],
});

const scale = (id: string, text: string, points: number, required = false): Question => ({
  id,
  type: 'scale',
  text,
  points,
  required,
  scale_max: 5,
});

export const restaurantCafeBakery: SurveyTemplate = {
  id: 'restaurant_cafe_bakery',
  name: 'Restaurant, Cafe & Bakery',
  sections: [
    {
      id: 'part1',
      title: 'Your Visit',
      description: 'Tell us how your visit went.',
      conditional: false,
      questions: [
        scale(OVERALL_RATING_ID, 'How would you rate your overall experience?', 2, true),
        {
          id: 'customer_email',
          type: 'email',
          text: 'Your email address',
          description: 'We send your gift card reward here.',
          points: 0,
          required: false,
        },
        { id: 'recommend', type: 'yes_no', text: 'Would you recommend us to a friend?', points: 1, required: false },
        {
          id: 'visit_frequency',
          type: 'multiple_choice',
          text: 'How often do you visit us?',
          points: 1,
          required: false,
          options: ['First time', 'Weekly', 'Monthly', 'Occasionally', 'Special occasions only'],
        },
      ],
    },
    {
      id: 'part2',
      title: 'The Details',
      description: 'A few details help us get better.',
      conditional: false,
      questions: [
        scale('service_rating', 'How would you rate our service?', 1),
        {
          id: 'favorite_item',
          type: 'short_text',
          text: 'What was your favorite item, and why?',
          points: 2,
          required: false,
          min_chars: 20,
        },
        scale('atmosphere_rating', 'How would you rate the atmosphere?', 1),
        scale('value_rating', 'How would you rate the value for money?', 1),
        {
          id: 'improvement_suggestions',
          type: 'short_text',
          text: 'What could we do better?',
          points: 3,
          required: false,
          min_chars: 30,
        },
      ],
    },
    {
      id: PART3_ID,
      title: 'Share & Earn',
      description: 'Earn more points by sharing your experience.',
      conditional: true,
      condition_question: OVERALL_RATING_ID,
      condition_value: 4,
      questions: [...REVIEW_PLATFORMS.map(reviewQuestion), ...SOCIAL_PLATFORMS.map(followQuestion)],
      negative_questions: [
        {
          id: 'five_star_improvement',
          type: 'short_text',
          text: 'How can we improve to give you a 5 star experience?',
          description: 'Help Us Improve',
          points: 5,
          required: false,
          min_chars: 40,
        },
        ...SOCIAL_PLATFORMS.map(followQuestion),
        ...SOCIAL_PLATFORMS.map(tagQuestion),
      ],
    },
  ],
  reward_tiers: [
    { tier: 'Bronze', min_points: 5 },
    { tier: 'Silver', min_points: 8 },
    // 18, not the spec's 17: parts 1-2 (12) plus the 1-3 star improvement text (5) made 17 without
    // sharing anything, so a complaint earned Gold while a 5-star full answer earned Silver (ADR 041).
    { tier: 'Gold', min_points: 18 },
  ],
  preset_rewards: {
    preset_1: { label: 'Low', is_default: false, values: { Bronze: 100, Silver: 200, Gold: 500 } },
    preset_2: { label: 'Middle', badge: 'Recommended', is_default: true, values: { Bronze: 100, Silver: 300, Gold: 800 } },
    preset_3: { label: 'High', is_default: false, values: { Bronze: 100, Silver: 500, Gold: 1500 } },
  },
  frequency_options: [90, 180, 365],
};

export const DEFAULT_TEMPLATE_ID = 'restaurant_cafe_bakery';

export const TEMPLATES: Readonly<Record<string, SurveyTemplate>> = {
  [restaurantCafeBakery.id]: restaurantCafeBakery,
};

export function getTemplate(id: string): SurveyTemplate | undefined {
  return Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined;
}

export function defaultPresetId(template: SurveyTemplate): PresetId {
  return PRESET_IDS.find((id) => template.preset_rewards[id].is_default) ?? 'preset_2';
}

// ---------------------------------------------------------------------------------------------
// Answer keys

export function answerKey(questionId: string, fieldId: string): string {
  return `${questionId}_${fieldId}`;
}

function firstText(answers: Answers, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = answers[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The claim box writes `customerEmail`; the part-1 question writes `customer_email`. */
export const customerEmailOf = (answers: Answers) => firstText(answers, ['customerEmail', 'customer_email']);
export const customerNameOf = (answers: Answers) => firstText(answers, ['customerName', 'customer_name']);

/**
 * The rating that decides part 3: the conditional section's condition question (overall_rating),
 * an integer from 1 to its scale_max. Anything else (missing, 0, 4.5, 'abc') means no rating.
 */
export function overallRatingOf(template: SurveyTemplate, answers: Answers): number | undefined {
  const id = template.sections.find((s) => s.conditional)?.condition_question ?? OVERALL_RATING_ID;
  const question = template.sections.flatMap((s) => s.questions).find((q) => q.id === id);
  return validScale(answers[id], question?.scale_max ?? 5);
}

export function validScale(value: string | number | undefined, scaleMax: number): number | undefined {
  if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= scaleMax ? n : undefined;
}

// ---------------------------------------------------------------------------------------------
// What a survey shows

/** Review blocks follow the review selection; follow and tag blocks the social selection. */
export function isPlatformSelected(question: Question, config: PlatformSelection): boolean {
  if (!question.platform) return true;
  const selected = verificationKindOf(question) === 'review' ? config.selectedReviewPlatforms : config.selectedSocialPlatforms;
  return selected.includes(question.platform);
}

/**
 * What a conditional section offers under "Ask every customer": both branches at once, each
 * question once (the free-text improvement first, then reviews and follows, then the tag posts).
 */
export function everyCustomerBranch(section: Section): readonly Question[] {
  const negative = section.negative_questions ?? [];
  const seen = new Set<string>();
  const ordered = [...negative.filter((q) => !isSharing(q)), ...section.questions, ...negative.filter(isSharing)];
  return ordered.filter((q) => (seen.has(q.id) ? false : (seen.add(q.id), true)));
}

/**
 * The branch of a section shown for a rating: unconditional sections always show `questions`;
 * under "Ask every customer" a conditional one shows both branches whatever the rating (also before
 * it is given); rating-routed, it shows `questions` at or above condition_value,
 * `negative_questions` below it, and nothing while there is no rating.
 */
export function branchFor(section: Section, rating: number | undefined, policy: ReviewPolicy = 'rating_routed'): readonly Question[] {
  if (!section.conditional) return section.questions;
  if (policy === 'ask_every') return everyCustomerBranch(section);
  if (rating === undefined) return [];
  return rating >= (section.condition_value ?? 0) ? section.questions : (section.negative_questions ?? []);
}

/** Every branch a customer can be shown of a section, platform-filtered (one branch for unconditional sections and under "Ask every customer"). */
export function sectionBranches(section: Section, config: PlatformSelection): Array<readonly Question[]> {
  const branches = !section.conditional
    ? [section.questions]
    : reviewPolicyOf(config) === 'ask_every'
      ? [everyCustomerBranch(section)]
      : [section.questions, section.negative_questions ?? []];
  return branches.map((qs) => qs.filter((q) => isPlatformSelected(q, config)));
}

/**
 * The sections a survey shows, in order, each with only the questions to display: platform
 * filters applied, and part 3 resolved by the review policy and the overall rating (ask_every:
 * everything; rating_routed: `questions` for 4+, the `negative_questions` for 1-3, none without a
 * rating so the UI shows PART3_PENDING_MESSAGE). The returned sections carry no `negative_questions`.
 */
export function visibleSections(template: SurveyTemplate, config: PlatformSelection, overallRating: number | undefined): Section[] {
  const policy = reviewPolicyOf(config);
  return template.sections.map((section) => {
    const { negative_questions: _shownOrNot, ...rest } = section;
    return { ...rest, questions: branchFor(section, overallRating, policy).filter((q) => isPlatformSelected(q, config)) };
  });
}
