/**
 * modules/analytics: the public face (issue 12). app/ and cli/ import analytics only from here.
 *
 * - `createAnalytics({ em, blobStore, funnelCounts })`: owner-scoped figures computed in SQL (`context.analytics`),
 *   the owner's home among them (`home`, ADR 083; `weekOf`: the week it counts).
 * - `createFunnelCounts`, `funnelCountsWriter`: the funnel's counts summed in memory, written every 2 s (ADR 081).
 * - The query string of the analytics pages, validated (`parseAnalyticsQuery`, `analyticsSearch`).
 * - The one question-key label map (`QUESTION_LABELS`, `questionLabel`).
 *
 * Nothing here imports the ORM or an entity at run time, so route components may import it.
 */
export { isUuid } from '../shared/ids.ts';
export { createFunnelCounts, funnelCountsWriter, type FunnelCounts } from './funnel-counts.ts';
export {
  createAnalytics,
  type Analytics,
  type ClientResponse,
  type Funnel,
  type FunnelStep,
  type GiftCardPage,
  type GiftCardRow,
  type GiftCardTotals,
  type HomeFigures,
  type HomeSurvey,
  type QuestionStat,
  type ResponseDetail,
  type ResponsePage,
  type ResponseRow,
  type Scope,
  type ScreenshotVerdict,
  type Stats,
  type SurveyOption,
  type TierShare,
  type WeekPoint,
  weekOf,
} from './service.ts';
export {
  analyticsSearch,
  GIFT_CARDS_PAGE_SIZE,
  parseAnalyticsQuery,
  parseDay,
  RESPONSES_PAGE_SIZE,
  TAB_LABELS,
  TABS,
  type AnalyticsQuery,
  type DateWindow,
  type ParsedQuery,
  type Tab,
} from './filters.ts';
export { formPostEvents, parseFunnelEvent, progressUrl, stepName, type FunnelEvent } from './funnel.ts';
export { analysedQuestions, QUESTION_LABELS, questionLabel, REWARD_STATUS_LABELS, type QuestionInfo, type RewardStatus } from './labels.ts';
