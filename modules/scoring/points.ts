import {
  answerKey,
  isSharing,
  overallRatingOf,
  sectionBranches,
  validScale,
  verificationKindOf,
  visibleSections,
  type Answers,
  type PlatformSelection,
  type Question,
  type ReviewPlatform,
  type SocialPlatform,
  type SurveyTemplate,
  type TierName,
} from '../surveys/index.ts';
import { tierFor, tierThresholds, type TierOverride } from './tiers.ts';

/** Which part-3 screenshots the verifier accepted, per platform. Missing means not verified. */
export type Verified = {
  readonly review: Readonly<Partial<Record<ReviewPlatform, boolean>>>;
  readonly follow: Readonly<Partial<Record<SocialPlatform, boolean>>>;
  readonly tag: Readonly<Partial<Record<SocialPlatform, boolean>>>;
};

export type ScoringConfig = PlatformSelection & {
  readonly bronzeRewardValue: number;
  readonly silverRewardValue: number;
  readonly goldRewardValue: number;
  readonly tierThresholds?: TierOverride | null;
};

export type ScoreInput = {
  readonly template: SurveyTemplate;
  readonly config: ScoringConfig;
  readonly answers: Answers;
  readonly verified: Verified;
};

export type Score = {
  points: number;
  tier: TierName | null;
  /** The tier's reward value in cents; 0 without a tier. */
  rewardValueCents: number;
  /** The questions that earned points, in survey order. */
  breakdown: Array<{ questionId: string; points: number }>;
};

/** Characters as the customer sees them (code points, so an emoji counts once), after trimming. */
export function charCount(text: string): number {
  return [...text.trim()].length;
}

const textOf = (value: string | number | undefined): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';

/** Every field of a part-3 block filled (all of them are required once the block is started). */
function blockComplete(q: Question, answers: Answers): boolean {
  return (q.fields ?? []).every((f) => textOf(answers[answerKey(q.id, f.id)]) !== '');
}

function isVerified(q: Question, verified: Verified): boolean {
  const kind = verificationKindOf(q);
  const flags: Readonly<Partial<Record<string, boolean>>> = kind ? verified[kind] : {};
  return q.platform !== undefined && flags[q.platform] === true;
}

/** Whether an answer earns the question's points, before the duplicate-tag rule. */
function earns(q: Question, answers: Answers, verified: Verified): boolean {
  // A part-3 block (review, follow, tag): every field filled and that platform verified.
  if (isSharing(q)) return blockComplete(q, answers) && isVerified(q, verified);
  const value = answers[q.id];
  switch (q.type) {
    case 'scale':
      return validScale(value, q.scale_max ?? 5) !== undefined;
    case 'multiple_choice':
      return q.options ? q.options.includes(textOf(value)) : textOf(value) !== '';
    case 'short_text':
      return charCount(textOf(value)) >= Math.max(1, q.min_chars ?? 1);
    default:
      return textOf(value) !== '';
  }
}

/**
 * Points, tier and reward value of one set of answers (spec 4 and 5 "Points rules").
 *
 * Only the questions the survey shows count (`visibleSections`): platforms the owner did not
 * select earn nothing, and part 3 counts its positive branch for an overall rating of 4+, its
 * negative branch for 1-3, and nothing without a rating. A follow block is in both branches.
 *
 * - scale: an integer from 1 to scale_max; multiple_choice: one of its options;
 *   short_text: at least min_chars characters after trimming (five_star_improvement: 40);
 *   other types: any non-blank answer.
 * - review (8), follow (5), tag (8): every field filled AND that platform verified.
 * - Duplicate tags: a tag whose screenshot is identical (same stored value) to the screenshot of
 *   an earlier counted tag earns nothing, whatever handle it gives; one image proves one tag.
 *   The same handle with different screenshots is not a duplicate (people reuse handles).
 */
export function scoreSurvey({ template, config, answers, verified }: ScoreInput): Score {
  const rating = overallRatingOf(template, answers);
  const breakdown: Score['breakdown'] = [];
  const tagScreenshots = new Set<string>();

  for (const section of visibleSections(template, config, rating)) {
    for (const q of section.questions) {
      if (q.points <= 0 || !earns(q, answers, verified)) continue;
      if (verificationKindOf(q) === 'tag') {
        const shot = q.fields?.find((f) => f.type === 'image_upload');
        const value = shot ? textOf(answers[answerKey(q.id, shot.id)]) : '';
        if (tagScreenshots.has(value)) continue;
        tagScreenshots.add(value);
      }
      breakdown.push({ questionId: q.id, points: q.points });
    }
  }

  const points = breakdown.reduce((sum, b) => sum + b.points, 0);
  const tier = tierFor(points, tierThresholds(template, config.tierThresholds));
  const values: Record<TierName, number> = {
    Bronze: config.bronzeRewardValue,
    Silver: config.silverRewardValue,
    Gold: config.goldRewardValue,
  };
  return { points, tier, rewardValueCents: tier ? values[tier] : 0, breakdown };
}

const sum = (qs: readonly Question[]) => qs.reduce((total, q) => total + q.points, 0);

/** The most points a survey can give: every section in full, part 3 on its richer branch. */
export function maxPoints(template: SurveyTemplate, config: PlatformSelection): number {
  return template.sections.reduce((total, s) => total + Math.max(0, ...sectionBranches(s, config).map(sum)), 0);
}

export type QuestionCounts = { total: number; bySection: Array<{ sectionId: string; title: string; count: number }> };

/**
 * How many questions the survey shows per section. Part 3 shows one branch depending on the
 * customer's rating, so it counts its larger branch (by number of questions; this may be a
 * different branch from the one `maxPoints` picks).
 */
export function questionCounts(template: SurveyTemplate, config: PlatformSelection): QuestionCounts {
  const bySection = template.sections.map((s) => ({
    sectionId: s.id,
    title: s.title,
    count: Math.max(0, ...sectionBranches(s, config).map((qs) => qs.length)),
  }));
  return { total: bySection.reduce((total, s) => total + s.count, 0), bySection };
}
