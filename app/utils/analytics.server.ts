import { data, type AppLoadContext } from '@remix-run/node';
import {
  GIFT_CARDS_PAGE_SIZE,
  parseAnalyticsQuery,
  RESPONSES_PAGE_SIZE,
  type AnalyticsQuery,
  type Funnel,
  type GiftCardPage,
  type QuestionStat,
  type ResponsePage,
  type Scope,
  type Stats,
  type SurveyOption,
  type TierShare,
  type WeekPoint,
} from '../../modules/analytics/index.ts';
import { requireOwner } from './auth.server.ts';

/** What every analytics view shows: the survey (or all), the picker, the filters, the stat cards and one tab's data. */
export type AnalyticsPageData = {
  /** The survey of /survey-analytics/{id} or of the picker; null: All Surveys. */
  survey: SurveyOption | null;
  /** The picker's surveys: only on /survey-analytics (no id) when the owner has more than one survey. */
  picker: SurveyOption[] | null;
  /** Where the page lives: /survey-analytics/{id} or /survey-analytics. */
  basePath: string;
  /** The picker's value on /survey-analytics (kept in every link of the page). */
  pickerValue: string | null;
  surveyCount: number;
  query: AnalyticsQuery;
  /** A query that could not be read: the message (the page answers 400 and shows only the filters). */
  error: { message: string; field: string } | null;
  stats: Stats | null;
  responses: ResponsePage | null;
  distribution: { total: number; tiers: TierShare[] } | null;
  questions: { questions: QuestionStat[]; weeks: WeekPoint[] } | null;
  giftCards: GiftCardPage | null;
  funnel: Funnel | null;
};

export const notFound = () => new Response("Survey not found or you don't have access to it.", { status: 404 });

/**
 * The loader of /survey-analytics and /survey-analytics/{surveyId}: the signed-in owner's figures
 * only (the business id comes from the session). Another owner's survey id, in the path or in the
 * picker's `survey` parameter, is a 404; a bad tab, page, search or date is a 400 with a message.
 */
export async function analyticsPage(request: Request, context: AppLoadContext, surveyIdFromPath: string | null) {
  const owner = await requireOwner(request, context);
  const params = new URL(request.url).searchParams;
  const surveys = await context.analytics.surveys(owner.id);
  let survey: SurveyOption | null = null;
  let pickerValue: string | null = null;
  if (surveyIdFromPath !== null) {
    survey = surveys.find((s) => s.id === surveyIdFromPath) ?? null;
    if (!survey) throw notFound();
  } else {
    const picked = (params.get('survey') ?? '').trim();
    if (picked && picked !== 'all') {
      survey = surveys.find((s) => s.id === picked) ?? null;
      if (!survey) throw notFound();
      pickerValue = survey.id;
    }
  }
  const parsed = parseAnalyticsQuery(params);
  const base: AnalyticsPageData = {
    survey,
    picker: surveyIdFromPath === null && surveys.length > 1 ? surveys : null,
    basePath: surveyIdFromPath === null ? '/survey-analytics' : `/survey-analytics/${surveyIdFromPath}`,
    pickerValue,
    surveyCount: surveys.length,
    query: parsed.query,
    error: null,
    stats: null,
    responses: null,
    distribution: null,
    questions: null,
    giftCards: null,
    funnel: null,
  };
  if (!parsed.ok) return data({ ...base, error: { message: parsed.message, field: parsed.field } }, { status: 400 });

  const scope: Scope = { surveyId: survey?.id ?? null, ...parsed.window };
  const { query } = parsed;
  const analytics = context.analytics;
  const [stats, tab] = await Promise.all([
    analytics.stats(owner.id, scope),
    (async (): Promise<Partial<AnalyticsPageData>> => {
      switch (query.tab) {
        case 'responses':
          return { responses: await analytics.responses(owner.id, scope, { page: query.page, pageSize: RESPONSES_PAGE_SIZE, search: query.q, language: query.language }) };
        case 'distribution':
          return { distribution: await analytics.distribution(owner.id, scope) };
        case 'questions': {
          // Spec section 8: a failed question analysis shows 'Error' in the tab, not an error page.
          try {
            const [questions, weeks] = await Promise.all([analytics.questions(owner.id, scope), analytics.ratingsByWeek(owner.id, scope)]);
            return { questions: { questions, weeks } };
          } catch (error) {
            context.logger.error({ err: error, path: new URL(request.url).pathname }, 'question analysis failed');
            return { questions: null };
          }
        }
        case 'giftcards':
          return { giftCards: await analytics.giftCards(owner.id, scope, { page: query.page, pageSize: GIFT_CARDS_PAGE_SIZE }) };
        case 'funnel':
          return { funnel: await analytics.funnel(owner.id, scope) };
      }
    })(),
  ]);
  return data({ ...base, stats, ...tab });
}
