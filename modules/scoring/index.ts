/**
 * Points, tiers and reward values (spec sections 4, 5 "Points rules" and 9). Pure, no I/O:
 * the browser uses it for live points and the server re-computes with it on submit.
 */
export { tierFor, tierThresholds, tierRanges, tierRangeLabel, type TierOverride, type TierRange } from './tiers.ts';
export { reachableTiers, goldUnreachableMessage, type TierReach } from './reachability.ts';
export { wholeDollars, formatCents } from './money.ts';
export {
  scoreSurvey,
  maxPoints,
  questionCounts,
  charCount,
  type Verified,
  type ScoringConfig,
  type ScoreInput,
  type Score,
  type QuestionCounts,
} from './points.ts';
export {
  tierFairnessProblems,
  surveyFairnessProblems,
  tierReport,
  surveyTierReport,
  fairnessFieldErrors,
  answerPaths,
  type FairnessInput,
  type FairnessProblem,
  type FairnessField,
  type PathPoints,
  type TierReport,
  type TierReportInput,
  type TierState,
  type TierStatus,
} from './fairness.ts';
