import { isUuid } from '../shared/ids.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { BlobStore, StoredBlob } from '../uploads/blob-store.ts';
import type { DateWindow } from './filters.ts';
import { csvRow } from './csv.ts';
import type { FunnelEvent } from './funnel.ts';
import type { FunnelCounts } from './funnel-counts.ts';
import { analysedQuestions, platformName, proofLabel, QUESTION_LABELS, questionLabel, REWARD_STATUS_LABELS, type QuestionInfo, type RewardStatus } from './labels.ts';
import { OWNER_QUESTION_ID, questionList } from '../surveys/questions.ts';
import { TEMPLATES } from '../surveys/template.ts';

/**
 * Analytics over one owner's surveys (issue 12). Every figure is computed by PostgreSQL (count, avg,
 * GROUP BY, window functions over `jsonb_each`), never by loading responses into Node. Every method
 * takes the owner's business id first (the session's, never the request's) and puts it in the WHERE
 * clause of every query; a survey or response of another business is indistinguishable from one that
 * does not exist.
 *
 * Plain SQL over the request's EntityManager connection, and no runtime import of the ORM or of an
 * entity: the module's face is safe to import from route modules.
 */

/** Which responses a figure covers: one survey or all of the owner's, within a date window (UTC). */
export type Scope = { surveyId: string | null } & DateWindow;

export type SurveyOption = { id: string; title: string; isActive: boolean };

export type Stats = {
  totalResponses: number;
  /** Mean points per response, one decimal; null without responses. */
  averagePoints: number | null;
  goldCount: number;
  /** Responses submitted in the current calendar month (UTC), whatever the date filter says. */
  thisMonth: number;
};

export type ResponseRow = {
  id: string;
  surveyId: string | null;
  surveyTitle: string | null;
  customerName: string | null;
  customerEmail: string | null;
  totalPoints: number;
  rewardTier: string | null;
  /** Cents. */
  rewardValue: number | null;
  submittedAt: string;
  overallRating: number | null;
  reviewPlatform: string | null;
  reviewStarRating: number | null;
  reviewerName: string | null;
  /** Where the reward stands (issue 27 item 4): a rejected or held reward is never shown as a plain reward. */
  rewardStatus: RewardStatus;
};

/**
 * The SQL of a response's reward status, over `r` (survey_responses): the hold decides first (a
 * rejected reward has no card, a held one none yet), then the card, then whether a reward was earned.
 */
const REWARD_STATUS_SQL = `case (select h.status from reward_holds h where h.survey_response_id = r.id)
      when 'rejected' then 'rejected' when 'held' then 'held' when 'awaiting_email' then 'held'
      else case when exists (select 1 from gift_card_issuances gi where gi.survey_response_id = r.id) then 'issued'
                when r.reward_tier is null or coalesce(r.reward_value, 0) = 0 then 'none' else 'pending' end end`;

export type ResponsePage = { rows: ResponseRow[]; total: number; page: number; pageCount: number; pageSize: number };

export type TierShare = { tier: string; count: number; percent: number };

export type QuestionStat = {
  key: string;
  label: string;
  type: string;
  count: number;
  /** Scale questions: the mean answer, two decimals. */
  averageRating: number | null;
  /** Scale questions: 4 or more positive, 3 neutral, below 3 negative (spec section 9). */
  sentiment: { positive: number; neutral: number; negative: number } | null;
  top: Array<{ answer: string; count: number }>;
  recent: Array<{ answer: string; submittedAt: string }>;
  /** Other texts this question's answers were asked with (the survey was edited since), newest first (issue 16). */
  askedAs: string[];
};

export type FunnelStep = { key: string; label: string; count: number };
export type Funnel = {
  steps: FunnelStep[];
  /** The first day (UTC) anything was counted for the scope's surveys: figures before it have no page views. */
  countingSince: string | null;
};

export type WeekPoint = { week: string; responses: number; averageRating: number | null };

export type GiftCardTotals = {
  cards: number;
  cents: number;
  squareCards: number;
  squareCents: number;
  testCards: number;
  testCents: number;
  /** Square cards spent at least in part, from Square's gift card activity webhooks (Test cards: never). */
  redeemedCards: number;
  /** Cents spent from Square cards: value issued minus the balance Square last reported. */
  redeemedCents: number;
  /** Square cards whose balance Square has reported at least once. */
  trackedCards: number;
};

export type GiftCardRow = {
  id: string;
  surveyResponseId: string;
  issuedAt: string;
  customerName: string | null;
  customerEmail: string;
  giftCardNumber: string;
  rewardValue: number;
  rewardTier: string;
  isSquareGiftCard: boolean;
  cardState: string | null;
  cardBalanceCents: number | null;
  emailStatus: 'sent' | 'sending' | 'failed';
};

export type GiftCardPage = { totals: GiftCardTotals; rows: GiftCardRow[]; total: number; page: number; pageCount: number; pageSize: number };

export type ResponseAnswer = { key: string; label: string; value: string; screenshotId: string | null };

export type ScreenshotVerdict = {
  id: string;
  kind: 'review' | 'follow' | 'tag';
  platform: string;
  isValid: boolean;
  /** accepted, rejected or needs_review (ADR 077). */
  verdict: 'accepted' | 'rejected' | 'needs_review';
  rejectionReason: string | null;
  /** needs_review: why the verifier was unsure, for the owner. */
  reviewReason: string | null;
  /** The owner's own verdict on the proof (ADR 080: a label, from a held reward's decision or a correction), or null. */
  ownerVerdict: 'accepted' | 'rejected' | null;
  ownerDecidedAt: string | null;
  starRating: number | null;
  reviewerName: string | null;
  reviewLink: string | null;
  userHandle: string | null;
  reviewText: string | null;
  verifiedAt: string;
};

export type ResponseDetail = ResponseRow & {
  answers: ResponseAnswer[];
  screenshots: ScreenshotVerdict[];
  reviewText: string | null;
  card: (Omit<GiftCardRow, 'surveyResponseId' | 'customerName' | 'customerEmail'> & { emailedAt: string | null }) | null;
  /** The reward job's state when no card exists yet. */
  pendingReward: { failed: boolean; attempts: number } | null;
};

/** The spec's "Survey response (client)" shape (section 3), cents as integers. */
export type ClientResponse = {
  id: string;
  customerName: string | null;
  customerEmail: string | null;
  totalPoints: number;
  rewardTier: string | null;
  rewardValue: number | null;
  submittedAt: string;
  responses: Record<string, string | number>;
  reviewPlatform: string | null;
  reviewStarRating: number | null;
  reviewerName: string | null;
  reviewText: string | null;
};


/**
 * The owner's home (issue 27, ADR 083): every survey with its responses this week, this week's
 * rewards issued, and the rewards held for the owner's review. One statement, one round trip.
 */
export type HomeSurvey = { id: string; title: string; isActive: boolean; isPublished: boolean; isArchived: boolean; responsesThisWeek: number };
export type HomeFigures = {
  /** This week (UTC, Monday 00:00 to the next Monday), ISO strings. */
  week: { from: string; to: string };
  /** Not archived first, newest first; archived ones last. */
  surveys: HomeSurvey[];
  responsesThisWeek: number;
  rewardsIssuedThisWeek: number;
  /** Cents. */
  rewardValueThisWeek: number;
  /** Held rewards waiting for the owner's Release or Reject (what /rewards lists as "Held for your review"). */
  heldRewards: number;
  /** Cards issued within `options.issuedWindow` (the plan's billing month, for its usage); null when not asked. */
  issuedInWindow: number | null;
};

/** The calendar week (UTC, from Monday 00:00) that contains `now`. */
export function weekOf(now: Date): { from: Date; to: Date } {
  const day = (now.getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day));
  return { from, to: new Date(from.getTime() + 7 * 86_400_000) };
}


const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const round = (v: unknown, digits: number): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits);
const pageCountOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** A LIKE pattern matching `text` anywhere, with the pattern characters escaped. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An answer as text for display: numbers as numbers, strings as typed. */
function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A template question's own text (every template), to tell an edited text from the original. */
function templateText(key: string): string | undefined {
  for (const template of Object.values(TEMPLATES)) {
    for (const s of template.sections) {
      const q = [...s.questions, ...(s.negative_questions ?? [])].find((x) => x.id === key);
      if (q) return q.text;
    }
  }
  return undefined;
}

/** A keyset cursor column: the time to the microsecond, in UTC, as text (`cursor_at`), so a page boundary is exact. */
const cursorAt = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at`;
/** The keyset condition after a cursor (time, id), newest first; its two parameters are the cursor's. */
const keysetAfter = (timeColumn: string, idColumn: string) => ` and (${timeColumn}, ${idColumn}) < (?::timestamptz, ?::uuid)`;

export function createAnalytics(deps: { em: EntityManager; blobStore: BlobStore; funnelCounts: FunnelCounts }) {
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    deps.em.getConnection().execute(query, params, 'all') as Promise<T[]>;

  /** The WHERE clause of a scope over `survey_responses` (alias r). */
  function scoped(businessId: string, scope: Scope, alias = 'r', dateColumn = 'submitted_at') {
    const clauses = [`${alias}.business_id = ?`];
    const params: unknown[] = [businessId];
    if (scope.surveyId) {
      clauses.push(`${alias}.survey_config_id = ?`);
      params.push(scope.surveyId);
    }
    if (scope.from) {
      clauses.push(`${alias}.${dateColumn} >= ?`);
      params.push(scope.from);
    }
    if (scope.to) {
      clauses.push(`${alias}.${dateColumn} < ?`);
      params.push(scope.to);
    }
    return { where: clauses.join(' and '), params };
  }

  type RowOfResponse = {
    id: string;
    survey_config_id: string | null;
    title: string | null;
    customer_name: string | null;
    customer_email: string | null;
    total_points: number;
    reward_tier: string | null;
    reward_value: number | null;
    submitted_at: Date;
    overall_rating: string | null;
    review_platform: string | null;
    review_star_rating: number | null;
    reviewer_name: string | null;
    reward_status: RewardStatus;
  };
  const RESPONSE_COLUMNS = `r.id, r.survey_config_id, s.title, r.customer_name, r.customer_email, r.total_points, r.reward_tier, r.reward_value,
    r.submitted_at, r.responses->>'overall_rating' as overall_rating, r.review_platform, r.review_star_rating, r.reviewer_name,
    ${REWARD_STATUS_SQL} as reward_status`;
  const toResponseRow = (r: RowOfResponse): ResponseRow => ({
    id: r.id,
    surveyId: r.survey_config_id,
    surveyTitle: r.title,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    totalPoints: r.total_points,
    rewardTier: r.reward_tier,
    rewardValue: r.reward_value,
    submittedAt: iso(r.submitted_at),
    overallRating: r.overall_rating !== null && /^\d+$/.test(r.overall_rating) ? Number(r.overall_rating) : null,
    reviewPlatform: r.review_platform,
    reviewStarRating: r.review_star_rating,
    reviewerName: r.reviewer_name,
    rewardStatus: r.reward_status,
  });

  type CardRow = {
    id: string;
    survey_response_id: string;
    issued_at: Date;
    customer_name: string | null;
    customer_email: string;
    gift_card_number: string;
    reward_value: number;
    reward_tier: string;
    is_square_gift_card: boolean;
    card_state: string | null;
    card_balance_cents: number | null;
    emailed_at: Date | null;
    email_failed_at: Date | null;
  };
  const toCardRow = (r: CardRow): GiftCardRow => ({
    id: r.id,
    surveyResponseId: r.survey_response_id,
    issuedAt: iso(r.issued_at),
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    giftCardNumber: r.gift_card_number,
    rewardValue: r.reward_value,
    rewardTier: r.reward_tier,
    isSquareGiftCard: r.is_square_gift_card,
    cardState: r.card_state,
    cardBalanceCents: r.card_balance_cents,
    emailStatus: r.emailed_at ? 'sent' : r.email_failed_at ? 'failed' : 'sending',
  });

  /** Gift cards of a scope: by the response's survey, and issued within the date window. */
  function cardScope(businessId: string, scope: Scope) {
    const clauses = ['i.business_id = ?'];
    const params: unknown[] = [businessId];
    if (scope.surveyId) {
      clauses.push('exists (select 1 from survey_responses r where r.id = i.survey_response_id and r.survey_config_id = ?)');
      params.push(scope.surveyId);
    }
    if (scope.from) {
      clauses.push('i.issued_at >= ?');
      params.push(scope.from);
    }
    if (scope.to) {
      clauses.push('i.issued_at < ?');
      params.push(scope.to);
    }
    return { where: clauses.join(' and '), params };
  }

  /**
   * The owner's own questions of a scope (issue 16): those the scope's surveys ask now and those
   * older responses were asked (their stored texts), each labelled with its current text, else the
   * text it was last asked with. Also every stored text per key, for "asked as" on Question Analysis.
   */
  async function askedQuestions(businessId: string, scope: Scope): Promise<{ owner: QuestionInfo[]; texts: Map<string, string[]> }> {
    const surveyClause = scope.surveyId ? ' and id = ?' : '';
    const surveys = await sql<{ survey_template_id: string; custom_questions: unknown[] }>(
      `select survey_template_id, custom_questions from survey_configs where business_id = ?${surveyClause} order by created_at desc, id`,
      scope.surveyId ? [businessId, scope.surveyId] : [businessId],
    );
    const { where, params } = scoped(businessId, scope);
    const stored = await sql<{ key: string; text: string; last: Date }>(
      `select t.key, t.value as text, max(r.submitted_at) as last
         from survey_responses r cross join lateral jsonb_each_text(r.question_texts) t
        where ${where}
        group by 1, 2 order by 3 desc`,
      params,
    );
    const texts = new Map<string, string[]>();
    for (const row of stored) texts.set(row.key, [...(texts.get(row.key) ?? []), row.text]);
    const owner = new Map<string, QuestionInfo>();
    let order = 10_000;
    for (const s of surveys) {
      for (const q of questionList({ surveyTemplateId: s.survey_template_id, customQuestions: s.custom_questions })) {
        if (q.origin === 'owner' && !owner.has(q.id)) owner.set(q.id, { key: q.id, label: q.text, type: q.type, order: order++ });
      }
    }
    for (const row of stored) {
      if (OWNER_QUESTION_ID.test(row.key) && !owner.has(row.key)) owner.set(row.key, { key: row.key, label: row.text, type: 'text', order: order++ });
    }
    return { owner: [...owner.values()], texts };
  }

  /** The platforms the surveys of a scope ask about (review and social), plus any a response in scope answered a block of. */
  async function platformsInScope(businessId: string, scope: Scope): Promise<Set<string>> {
    const surveyClause = scope.surveyId ? ' and id = ?' : '';
    const chosen = await sql<{ platform: string }>(
      `select distinct p as platform from survey_configs,
              jsonb_array_elements_text(coalesce(selected_review_platforms, '[]'::jsonb) || coalesce(selected_social_platforms, '[]'::jsonb)) p
        where business_id = ?${surveyClause}`,
      scope.surveyId ? [businessId, scope.surveyId] : [businessId],
    );
    const { where, params } = scoped(businessId, scope);
    const used = await sql<{ platform: string }>(
      `select distinct sv.platform from screenshot_verifications sv join survey_responses r on r.id = sv.survey_response_id where ${where}`,
      params,
    );
    return new Set([...chosen, ...used].map((row) => row.platform));
  }

  /** The WHERE clause of a scope over a per-day counts table (`survey_answer_counts`, `survey_funnel_counts`): whole UTC days. */
  function dayScope(businessId: string, scope: Scope, alias: string) {
    const clauses = [`${alias}.business_id = ?`];
    const params: unknown[] = [businessId];
    if (scope.surveyId) {
      clauses.push(`${alias}.survey_config_id = ?`);
      params.push(scope.surveyId);
    }
    if (scope.from) {
      clauses.push(`${alias}.day >= ?::date`);
      params.push(scope.from.toISOString().slice(0, 10));
    }
    if (scope.to) {
      clauses.push(`${alias}.day < ?::date`);
      params.push(scope.to.toISOString().slice(0, 10));
    }
    return { where: clauses.join(' and '), params };
  }

  return {
    /**
     * The owner's home in one statement (ADR 083): surveys with this week's responses, this week's cards,
     * held rewards, and (`issuedWindow`) the cards of the plan's billing month for its usage.
     */
    async home(businessId: string, options: { now?: Date; issuedWindow?: { start: Date; end: Date } | null } = {}): Promise<HomeFigures> {
      const { from, to } = weekOf(options.now ?? new Date());
      const usage = options.issuedWindow ?? null;
      const [row] = await sql<{
        surveys: Array<{ id: string; title: string; is_active: boolean; published: boolean; archived: boolean; n: number }>;
        responses: number;
        cards: number;
        cents: string | number;
        held: number;
        issued_in_window: number | null;
      }>(
        `with wk as (
           select survey_config_id, count(*)::int as n from survey_responses
            where business_id = ? and submitted_at >= ? and submitted_at < ? group by 1)
         select
           coalesce((select json_agg(json_build_object('id', s.id, 'title', s.title, 'is_active', s.is_active, 'published', s.published_at is not null,
                                                       'archived', s.archived_at is not null, 'n', coalesce(wk.n, 0))
                                     order by s.archived_at is not null, s.created_at desc, s.id)
                       from survey_configs s left join wk on wk.survey_config_id = s.id where s.business_id = ?), '[]'::json) as surveys,
           (select coalesce(sum(n), 0)::int from wk) as responses,
           (select count(*)::int from gift_card_issuances i where i.business_id = ? and i.issued_at >= ? and i.issued_at < ?) as cards,
           (select coalesce(sum(i.reward_value), 0) from gift_card_issuances i where i.business_id = ? and i.issued_at >= ? and i.issued_at < ?) as cents,
           (select count(*)::int from reward_holds h where h.business_id = ? and h.status in ('held', 'awaiting_email')) as held,
           ${usage ? '(select count(*)::int from gift_card_issuances i where i.business_id = ? and i.issued_at >= ? and i.issued_at < ?)' : 'null::int'} as issued_in_window`,
        [businessId, from, to, businessId, businessId, from, to, businessId, from, to, businessId, ...(usage ? [businessId, usage.start, usage.end] : [])],
      );
      return {
        week: { from: from.toISOString(), to: to.toISOString() },
        surveys: (row?.surveys ?? []).map((s) => ({ id: s.id, title: s.title, isActive: s.is_active, isPublished: s.published, isArchived: s.archived, responsesThisWeek: s.n })),
        responsesThisWeek: num(row?.responses),
        rewardsIssuedThisWeek: num(row?.cards),
        rewardValueThisWeek: num(row?.cents),
        heldRewards: num(row?.held),
        issuedInWindow: usage ? num(row?.issued_in_window) : null,
      };
    },

    /** The owner's surveys for the picker, newest first. */
    async surveys(businessId: string): Promise<SurveyOption[]> {
      const rows = await sql<{ id: string; title: string; is_active: boolean }>(
        `select id, title, is_active from survey_configs where business_id = ? order by created_at desc, id`,
        [businessId],
      );
      return rows.map((r) => ({ id: r.id, title: r.title, isActive: r.is_active }));
    },

    /** The owner's survey by id, or null (unknown, not a UUID, or another owner's). */
    async survey(businessId: string, surveyId: string): Promise<SurveyOption | null> {
      if (!isUuid(surveyId)) return null;
      const [row] = await sql<{ id: string; title: string; is_active: boolean }>(`select id, title, is_active from survey_configs where id = ? and business_id = ?`, [
        surveyId,
        businessId,
      ]);
      return row ? { id: row.id, title: row.title, isActive: row.is_active } : null;
    },

    /** The four stat cards (spec section 2). */
    async stats(businessId: string, scope: Scope): Promise<Stats> {
      const { where, params } = scoped(businessId, scope);
      const month = scoped(businessId, { surveyId: scope.surveyId, from: null, to: null });
      const [[row], [monthRow]] = await Promise.all([
        sql<{ total: number; avg_points: string | null; gold: number }>(
          `select count(*)::int as total, avg(r.total_points) as avg_points, count(*) filter (where r.reward_tier = 'Gold')::int as gold
             from survey_responses r where ${where}`,
          params,
        ),
        sql<{ n: number }>(
          `select count(*)::int as n from survey_responses r
            where ${month.where} and r.submitted_at >= (date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`,
          month.params,
        ),
      ]);
      return { totalResponses: num(row?.total), averagePoints: round(row?.avg_points, 1), goldCount: num(row?.gold), thisMonth: num(monthRow?.n) };
    },

    /** All Responses: newest first, 10 a page, optionally only those whose email or name contains `search`. */
    async responses(businessId: string, scope: Scope, options: { page: number; pageSize: number; search: string }): Promise<ResponsePage> {
      const { where, params } = scoped(businessId, scope);
      let filter = where;
      const filterParams = [...params];
      if (options.search) {
        filter += ` and (r.customer_email ilike ? or r.customer_name ilike ?)`;
        filterParams.push(containing(options.search), containing(options.search));
      }
      const [countRow] = await sql<{ n: number }>(`select count(*)::int as n from survey_responses r where ${filter}`, filterParams);
      const total = num(countRow?.n);
      const pageCount = pageCountOf(total, options.pageSize);
      const page = Math.min(options.page, pageCount);
      const rows = await sql<RowOfResponse>(
        `select ${RESPONSE_COLUMNS}
           from survey_responses r left join survey_configs s on s.id = r.survey_config_id
          where ${filter}
          order by r.submitted_at desc, r.id desc
          limit ${options.pageSize} offset ${(page - 1) * options.pageSize}`,
        filterParams,
      );
      return { rows: rows.map(toResponseRow), total, page, pageCount, pageSize: options.pageSize };
    },

    /** Reward Distribution: count and percent of responses per tier, Bronze to Gold, then those without a tier. */
    async distribution(businessId: string, scope: Scope): Promise<{ total: number; tiers: TierShare[] }> {
      const { where, params } = scoped(businessId, scope);
      const rows = await sql<{ tier: string | null; n: number }>(`select r.reward_tier as tier, count(*)::int as n from survey_responses r where ${where} group by 1`, params);
      const total = rows.reduce((sum, r) => sum + num(r.n), 0);
      const count = (tier: string | null) => num(rows.find((r) => r.tier === tier)?.n);
      const named = ['Bronze', 'Silver', 'Gold'];
      const other = rows.filter((r) => r.tier !== null && !named.includes(r.tier));
      const share = (tier: string, n: number): TierShare => ({ tier, count: n, percent: total ? Math.round((n / total) * 1000) / 10 : 0 });
      return {
        total,
        tiers: [...named.map((t) => share(t, count(t))), ...other.map((r) => share(r.tier!, num(r.n))), share('No tier', count(null))],
      };
    },

    /**
     * Question Analysis: per question of the templates (answers in words or on a scale; no contact
     * details or part-3 proof), the number of answers, the mean rating and sentiment of scale
     * questions, the 5 most common answers (case and surrounding spaces ignored) and the 5 latest.
     */
    async questions(businessId: string, scope: Scope): Promise<QuestionStat[]> {
      const asked = await askedQuestions(businessId, scope);
      const questions = [...analysedQuestions(), ...asked.owner];
      const keys = questions.map((q) => q.key);
      // Counts, averages, sentiment and the most common answers: sums over survey_answer_counts (ADR 027).
      const { where, params: countedParams } = dayScope(businessId, scope, 'c');
      const scopedResponses = scoped(businessId, scope);
      const keyList = `unnest(array[${keys.map(() => '?').join(', ')}]::text[]) as k(key)`;
      const [stats, top, recent] = await Promise.all([
        sql<{ key: string; n: number; avg_rating: string | null; positive: number; neutral: number; negative: number }>(
          `select k.key, s.n, s.avg_rating, s.positive, s.neutral, s.negative
             from ${keyList}
             cross join lateral (
               select coalesce(sum(c.count), 0)::int as n,
                      sum(c.rating * c.count)::float8 / nullif(sum(c.count) filter (where c.rating is not null), 0) as avg_rating,
                      coalesce(sum(c.count) filter (where c.rating >= 4), 0)::int as positive,
                      coalesce(sum(c.count) filter (where c.rating = 3), 0)::int as neutral,
                      coalesce(sum(c.count) filter (where c.rating < 3), 0)::int as negative
                 from survey_answer_counts c where ${where} and c.key = k.key
             ) s`,
          [...keys, ...countedParams],
        ),
        // Per question, the 5 largest groups: a top-N per key, never a sort of every distinct answer.
        sql<{ key: string; answer: string; n: number }>(
          `select k.key, t.answer, t.n
             from ${keyList}
             cross join lateral (
               select min(c.display) as answer, sum(c.count)::int as n
                 from survey_answer_counts c where ${where} and c.key = k.key
                group by c.answer having sum(c.count) > 0
                order by sum(c.count) desc, c.answer limit 5
             ) t`,
          [...keys, ...countedParams],
        ),
        // The 5 latest answers per question: an index scan backwards per question, stopping at 5.
        sql<{ key: string; answer: string; submitted_at: Date }>(
          `select k.key, x.answer, x.submitted_at
             from unnest(array[${keys.map(() => '?').join(', ')}]::text[]) as k(key)
             cross join lateral (
               select r.responses ->> k.key as answer, r.submitted_at
                 from survey_responses r
                where ${scopedResponses.where} and jsonb_typeof(r.responses -> k.key) in ('string', 'number') and btrim(r.responses ->> k.key) <> ''
                order by r.submitted_at desc, r.id desc limit 5
             ) x`,
          [...keys, ...scopedResponses.params],
        ),
      ]);
      return questions.map((q) => {
        const s = stats.find((r) => r.key === q.key);
        const isScale = q.type === 'scale';
        return {
          key: q.key,
          label: q.label,
          type: q.type,
          count: num(s?.n),
          averageRating: isScale ? round(s?.avg_rating ?? null, 2) : null,
          sentiment: isScale ? { positive: num(s?.positive), neutral: num(s?.neutral), negative: num(s?.negative) } : null,
          top: top
            .filter((r) => r.key === q.key)
            .map((r) => ({ answer: r.answer, count: num(r.n) }))
            .sort((x, y) => y.count - x.count || x.answer.toLowerCase().localeCompare(y.answer.toLowerCase())),
          recent: recent
            .filter((r) => r.key === q.key)
            .map((r) => ({ answer: r.answer, submittedAt: iso(r.submitted_at) }))
            .sort((x, y) => y.submittedAt.localeCompare(x.submittedAt)),
          askedAs: (asked.texts.get(q.key) ?? []).filter((t) => t !== q.label && t !== templateText(q.key)),
        };
      });
    },

    /** Ratings over time: per ISO week (Monday, UTC) the responses and their mean overall rating; empty weeks between filled with zero. */
    async ratingsByWeek(businessId: string, scope: Scope): Promise<WeekPoint[]> {
      // From the answer counts (ADR 027): every response has an overall rating (it is required).
      const { where, params } = dayScope(businessId, scope, 'c');
      const rows = await sql<{ week: string; n: number; avg_rating: string | null }>(
        `select to_char(date_trunc('week', c.day::timestamp), 'YYYY-MM-DD') as week, sum(c.count)::int as n,
                sum(c.rating * c.count)::float8 / nullif(sum(c.count) filter (where c.rating is not null), 0) as avg_rating
           from survey_answer_counts c where ${where} and c.key = 'overall_rating'
          group by 1 having sum(c.count) > 0 order by 1`,
        params,
      );
      if (rows.length === 0) return [];
      const byWeek = new Map(rows.map((r) => [String(r.week), r]));
      const out: WeekPoint[] = [];
      const last = Date.parse(`${String(rows[rows.length - 1]!.week)}T00:00:00Z`);
      for (let t = Date.parse(`${String(rows[0]!.week)}T00:00:00Z`); t <= last && out.length < 2000; t += 7 * 86_400_000) {
        const week = new Date(t).toISOString().slice(0, 10);
        const r = byWeek.get(week);
        out.push({ week, responses: num(r?.n), averageRating: round(r?.avg_rating ?? null, 2) });
      }
      return out;
    },

    /** Issued Gift Cards: totals (Square and Test apart, what was spent of the Square cards) and a page of the cards, newest first. */
    async giftCards(businessId: string, scope: Scope, options: { page: number; pageSize: number }): Promise<GiftCardPage> {
      const { where, params } = cardScope(businessId, scope);
      const [t] = await sql<Record<string, string | number | null>>(
        `select count(*)::int as cards, coalesce(sum(i.reward_value), 0)::bigint as cents,
                count(*) filter (where i.is_square_gift_card)::int as square_cards,
                coalesce(sum(i.reward_value) filter (where i.is_square_gift_card), 0)::bigint as square_cents,
                count(*) filter (where i.is_square_gift_card and i.card_balance_cents is not null)::int as tracked_cards,
                count(*) filter (where i.is_square_gift_card and i.card_balance_cents < i.reward_value)::int as redeemed_cards,
                coalesce(sum(greatest(i.reward_value - i.card_balance_cents, 0)) filter (where i.is_square_gift_card and i.card_balance_cents is not null), 0)::bigint as redeemed_cents
           from gift_card_issuances i where ${where}`,
        params,
      );
      const totals: GiftCardTotals = {
        cards: num(t?.cards),
        cents: num(t?.cents),
        squareCards: num(t?.square_cards),
        squareCents: num(t?.square_cents),
        testCards: num(t?.cards) - num(t?.square_cards),
        testCents: num(t?.cents) - num(t?.square_cents),
        redeemedCards: num(t?.redeemed_cards),
        redeemedCents: num(t?.redeemed_cents),
        trackedCards: num(t?.tracked_cards),
      };
      const pageCount = pageCountOf(totals.cards, options.pageSize);
      const page = Math.min(options.page, pageCount);
      const rows = await sql<CardRow>(
        `select i.id, i.survey_response_id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier,
                i.is_square_gift_card, i.card_state, i.card_balance_cents, i.emailed_at, i.email_failed_at
           from gift_card_issuances i where ${where}
          order by i.issued_at desc, i.id desc limit ${options.pageSize} offset ${(page - 1) * options.pageSize}`,
        params,
      );
      return { totals, rows: rows.map(toCardRow), total: totals.cards, page, pageCount, pageSize: options.pageSize };
    },

    /** One response with every answer (labelled, in survey order), its screenshots' verdicts and its reward; null when not the owner's. */
    async response(businessId: string, responseId: string): Promise<ResponseDetail | null> {
      if (!isUuid(responseId)) return null;
      const [row] = await sql<RowOfResponse & { responses: Record<string, unknown>; question_texts: Record<string, string> | null; review_text: string | null }>(
        `select ${RESPONSE_COLUMNS}, r.responses, r.question_texts, r.review_text
           from survey_responses r left join survey_configs s on s.id = r.survey_config_id
          where r.id = ? and r.business_id = ?`,
        [responseId, businessId],
      );
      if (!row) return null;
      const [shots, cards, requests] = await Promise.all([
        sql<{
          id: string;
          kind: ScreenshotVerdict['kind'];
          platform: string;
          is_valid: boolean;
          verdict: 'accepted' | 'rejected' | 'needs_review';
          review_reason: string | null;
          owner_verdict: 'accepted' | 'rejected' | null;
          owner_decided_at: Date | null;
          rejection_reason: string | null;
          star_rating: number | null;
          reviewer_name: string | null;
          review_link: string | null;
          user_handle: string | null;
          review_text: string | null;
          created_at: Date;
        }>(
          `select id, kind, platform, is_valid, verdict, rejection_reason, review_reason, owner_verdict, owner_decided_at, star_rating, reviewer_name, review_link, user_handle, review_text, created_at
             from screenshot_verifications where survey_response_id = ? and business_id = ? order by created_at, id`,
          [responseId, businessId],
        ),
        sql<CardRow>(
          `select i.id, i.survey_response_id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier,
                  i.is_square_gift_card, i.card_state, i.card_balance_cents, i.emailed_at, i.email_failed_at
             from gift_card_issuances i where i.survey_response_id = ? and i.business_id = ?`,
          [responseId, businessId],
        ),
        sql<{ attempts: number; failed_at: Date | null }>(`select attempts, failed_at from gift_card_requests where survey_response_id = ? and business_id = ?`, [
          responseId,
          businessId,
        ]),
      ]);
      const shotIds = new Set(shots.map((s) => s.id));
      // The texts this response was asked (issue 16): owner questions and edited template questions show them.
      const asked = row.question_texts ?? {};
      const labelOf = (key: string) => {
        const text = asked[key];
        return text && (OWNER_QUESTION_ID.test(key) || (templateText(key) !== undefined && text !== templateText(key))) ? text : questionLabel(key);
      };
      const answers: ResponseAnswer[] = Object.entries(row.responses ?? {})
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([key, v]) => {
          const value = answerText(v);
          const isShot = QUESTION_LABELS.get(key)?.fieldType === 'image_upload';
          return { key, label: labelOf(key), value, screenshotId: isShot && shotIds.has(value) ? value : null };
        })
        .sort((a, b) => (QUESTION_LABELS.get(a.key)?.order ?? 1e9) - (QUESTION_LABELS.get(b.key)?.order ?? 1e9) || a.key.localeCompare(b.key));
      const card = cards[0];
      const request = requests[0];
      return {
        ...toResponseRow(row),
        reviewText: row.review_text,
        answers,
        screenshots: shots.map((s) => ({
          id: s.id,
          kind: s.kind,
          platform: s.platform,
          isValid: s.is_valid,
          verdict: s.verdict,
          rejectionReason: s.rejection_reason,
          reviewReason: s.review_reason,
          ownerVerdict: s.owner_verdict,
          ownerDecidedAt: s.owner_decided_at ? iso(s.owner_decided_at) : null,
          starRating: s.star_rating,
          reviewerName: s.reviewer_name,
          reviewLink: s.review_link,
          userHandle: s.user_handle,
          reviewText: s.review_text,
          verifiedAt: iso(s.created_at),
        })),
        card: card
          ? (({ surveyResponseId: _r, customerName: _n, customerEmail: _e, ...rest }) => ({ ...rest, emailedAt: card.emailed_at ? iso(card.emailed_at) : null }))(toCardRow(card))
          : null,
        pendingReward: !card && row.reward_tier && (row.reward_value ?? 0) > 0 ? { failed: Boolean(request?.failed_at), attempts: num(request?.attempts) } : null,
      };
    },

    /**
     * Counts funnel events of a live survey (ADR 026) on today's row (UTC), written within seconds
     * (ADR 081). Called for customers (not owners): the caller has checked that the survey is the
     * business's and live; the events are distinct.
     */
    countFunnel(input: { businessId: string; surveyId: string; events: Array<FunnelEvent | { step: 'view' }> }): void {
      deps.funnelCounts.add(input);
    },

    /**
     * The funnel: page views, starts and sections reached (counted, ADR 026), then the responses
     * submitted in the window, those rewarded with a card, and the Square cards spent at least in part.
     */
    async funnel(businessId: string, scope: Scope): Promise<Funnel> {
      // This instance's counts not yet written go first (another instance's follow within seconds).
      await deps.funnelCounts.flush().catch(() => undefined);
      const days = dayScope(businessId, scope, 'f');
      const ever = dayScope(businessId, { surveyId: scope.surveyId, from: null, to: null }, 'f');
      const { where, params: rParams } = scoped(businessId, scope);
      const [counted, [since], [outcome]] = await Promise.all([
        sql<{ step: string; n: number }>(`select f.step, sum(f.count)::int as n from survey_funnel_counts f where ${days.where} group by f.step`, days.params),
        sql<{ first_day: string | null }>(`select to_char(min(f.day), 'YYYY-MM-DD') as first_day from survey_funnel_counts f where ${ever.where}`, ever.params),
        sql<{ submitted: number; rewarded: number; redeemed: number }>(
          `select count(*)::int as submitted, count(i.id)::int as rewarded,
                  count(*) filter (where i.is_square_gift_card and i.card_balance_cents < i.reward_value)::int as redeemed
             from survey_responses r left join gift_card_issuances i on i.survey_response_id = r.id
            where ${where}`,
          rParams,
        ),
      ]);
      const n = (step: string) => num(counted.find((c) => c.step === step)?.n);
      const sections = Math.max(3, ...counted.map((c) => Number(/^section:(\d+)$/.exec(c.step)?.[1] ?? 0)));
      return {
        steps: [
          { key: 'view', label: 'Page views', count: n('view') },
          { key: 'start', label: 'Started', count: n('start') },
          ...Array.from({ length: sections - 1 }, (_, i) => ({ key: `section:${i + 2}`, label: `Reached section ${i + 2}`, count: n(`section:${i + 2}`) })),
          { key: 'submitted', label: 'Submitted', count: num(outcome?.submitted) },
          { key: 'rewarded', label: 'Rewarded', count: num(outcome?.rewarded) },
          { key: 'redeemed', label: 'Redeemed', count: num(outcome?.redeemed) },
        ],
        countingSince: since?.first_day ?? null,
      };
    },

    /**
     * CSV of the responses of a scope (and search), newest first: one row per response, one column per
     * question (labelled), formula injection neutralised. Reads `batch` rows at a time by keyset
     * (submitted_at with microseconds, id) and yields 100 rows at a time: it never holds more than one
     * batch (peak memory in practice: bench/README.md).
     */
    async *exportResponses(businessId: string, scope: Scope, options: { search: string; batch?: number }): AsyncGenerator<string> {
      const asked = await askedQuestions(businessId, scope);
      // Part-3 columns only for the platforms the surveys in scope use (issue 27 item 4), or that an answer in scope was given for.
      const platforms = await platformsInScope(businessId, scope);
      const columns = [
        ...[...QUESTION_LABELS.values()].filter((q) => q.type !== 'contact' && q.type !== 'email' && q.fieldType !== 'image_upload' && (!q.platform || platforms.has(q.platform))),
        ...asked.owner,
      ];
      yield `\uFEFF${csvRow(['Submitted (UTC)', 'Survey', 'Name', 'Email', 'Points', 'Tier', 'Reward ($)', 'Reward status', 'Review platform', 'Review stars', 'Reviewer name', 'Verified proofs', ...columns.map((c) => c.label)])}`;
      const { where, params } = scoped(businessId, scope);
      let filter = where;
      const filterParams = [...params];
      if (options.search) {
        filter += ` and (r.customer_email ilike ? or r.customer_name ilike ?)`;
        filterParams.push(containing(options.search), containing(options.search));
      }
      const batch = options.batch ?? 2000;
      // Each answer as a text column (`responses ->> 'key'`): no JSON object per row to parse and collect.
      // The keys are the label map's own ([a-z0-9_]), never input.
      const answerColumns = columns.map((c, i) => {
        if (!/^[a-z0-9_]+$/i.test(c.key)) throw new Error(`unexpected question key ${c.key}`);
        return `r.responses ->> '${c.key}' as a${i}`;
      }).join(', ');
      type ResponseCsvRow = {
        id: string;
        cursor_at: string;
        title: string | null;
        customer_name: string | null;
        customer_email: string | null;
        total_points: number;
        reward_tier: string | null;
        reward_value: number | null;
        review_platform: string | null;
        review_star_rating: number | null;
        reviewer_name: string | null;
        reward_status: RewardStatus;
        proofs: string[] | null;
        [answer: `a${number}`]: string | null;
      };
      yield* keysetCsv<ResponseCsvRow>(
        batch,
        (after) =>
          sql(
            // The review columns and 'Verified proofs' come from the verifications the response used, when the response row lacks them.
            `select r.id, ${cursorAt('r.submitted_at')}, s.title, r.customer_name, r.customer_email,
                    r.total_points, r.reward_tier, r.reward_value, ${REWARD_STATUS_SQL} as reward_status,
                    coalesce(r.review_platform, v.platform) as review_platform, coalesce(r.review_star_rating, v.star_rating) as review_star_rating,
                    coalesce(r.reviewer_name, v.reviewer_name) as reviewer_name,
                    (select array_agg(sv.platform || ':' || sv.kind order by sv.created_at, sv.id) from screenshot_verifications sv
                      where sv.survey_response_id = r.id and sv.is_valid) as proofs,
                    ${answerColumns}
               from survey_responses r left join survey_configs s on s.id = r.survey_config_id
               left join lateral (select sv.platform, sv.star_rating, sv.reviewer_name from screenshot_verifications sv
                                   where sv.survey_response_id = r.id and sv.kind = 'review' and sv.is_valid order by sv.created_at, sv.id limit 1) v on true
              where ${filter}${after ? keysetAfter('r.submitted_at', 'r.id') : ''}
              order by r.submitted_at desc, r.id desc limit ${batch}`,
            after ? [...filterParams, after.at, after.id] : filterParams,
          ),
        (r) => [
          csvTime(r.cursor_at),
          r.title,
          r.customer_name,
          r.customer_email,
          r.total_points,
          r.reward_tier,
          r.reward_value === null ? null : (r.reward_value / 100).toFixed(2),
          REWARD_STATUS_LABELS[r.reward_status],
          r.review_platform ? platformName(r.review_platform) : null,
          r.review_star_rating,
          r.reviewer_name,
          (r.proofs ?? []).map(proofLabel).join(', ') || null,
          ...columns.map((_, i) => r[`a${i}`] ?? null),
        ],
      );
    },

    /** CSV of the gift cards of a scope, newest first, streamed by keyset like `exportResponses`. */
    async *exportGiftCards(businessId: string, scope: Scope, options: { batch?: number } = {}): AsyncGenerator<string> {
      yield `\uFEFF${csvRow(['Issued (UTC)', 'Name', 'Email', 'Gift card number', 'Value ($)', 'Tier', 'Card', 'Balance at Square ($)', 'Email sent'])}`;
      const { where, params } = cardScope(businessId, scope);
      const batch = options.batch ?? 2000;
      yield* keysetCsv<CardRow & { cursor_at: string }>(
        batch,
        (after) =>
          sql(
            `select i.id, i.survey_response_id, i.issued_at, ${cursorAt('i.issued_at')},
                  i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier, i.is_square_gift_card, i.card_state,
                  i.card_balance_cents, i.emailed_at, i.email_failed_at
             from gift_card_issuances i
            where ${where}${after ? keysetAfter('i.issued_at', 'i.id') : ''}
            order by i.issued_at desc, i.id desc limit ${batch}`,
            after ? [...params, after.at, after.id] : params,
          ),
        (r) => [
          csvTime(r.cursor_at),
          r.customer_name,
          r.customer_email,
          r.gift_card_number,
          (r.reward_value / 100).toFixed(2),
          r.reward_tier,
          r.is_square_gift_card ? 'Square' : 'Test',
          r.is_square_gift_card && r.card_balance_cents !== null ? (r.card_balance_cents / 100).toFixed(2) : null,
          r.emailed_at ? 'yes' : r.email_failed_at ? 'failed' : 'not yet',
        ],
      );
    },

    /**
     * The spec's GET /api/gift-card-issuances: "Gift card issuance (client)" (cents), newest first,
     * `limit` at a time after the keyset `cursor` (issued_at with microseconds, id).
     */
    async clientGiftCards(
      businessId: string,
      options: { after: { submittedAt: string; id: string } | null; limit: number },
    ): Promise<{
      issuances: Array<{ id: string; issuedAt: string; customerName: string | null; customerEmail: string; giftCardNumber: string; rewardValue: number; rewardTier: string; isSquareGiftCard: boolean }>;
      next: { submittedAt: string; id: string } | null;
    }> {
      const keyset = options.after ? keysetAfter('i.issued_at', 'i.id') : '';
      const rows = await sql<CardRow & { cursor_at: string }>(
        `select i.id, i.issued_at, i.customer_name, i.customer_email, i.gift_card_number, i.reward_value, i.reward_tier, i.is_square_gift_card,
                ${cursorAt('i.issued_at')}
           from gift_card_issuances i where i.business_id = ?${keyset}
          order by i.issued_at desc, i.id desc limit ${options.limit + 1}`,
        options.after ? [businessId, options.after.submittedAt, options.after.id] : [businessId],
      );
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return {
        issuances: page.map((r) => ({
          id: r.id,
          issuedAt: iso(r.issued_at),
          customerName: r.customer_name,
          customerEmail: r.customer_email,
          giftCardNumber: r.gift_card_number,
          rewardValue: r.reward_value,
          rewardTier: r.reward_tier,
          isSquareGiftCard: r.is_square_gift_card,
        })),
        next: rows.length > options.limit && last ? { submittedAt: last.cursor_at, id: last.id } : null,
      };
    },

    /**
     * For `reward-cli analytics` (an operator on the server, no owner session): the survey and the
     * business it belongs to, by the survey's id; null when there is none. Never reached from a request.
     */
    async surveyForOperator(surveyId: string): Promise<(SurveyOption & { businessId: string }) | null> {
      if (!isUuid(surveyId)) return null;
      const [row] = await sql<{ id: string; title: string; is_active: boolean; business_id: string }>(`select id, title, is_active, business_id from survey_configs where id = ?`, [surveyId]);
      return row ? { id: row.id, title: row.title, isActive: row.is_active, businessId: row.business_id } : null;
    },

    /** Every figure of the analytics page for one scope, as the page computes them (the CLI prints these). */
    async report(businessId: string, scope: Scope) {
      const [stats, distribution, questions, weeks, cards, funnel] = await Promise.all([
        this.stats(businessId, scope),
        this.distribution(businessId, scope),
        this.questions(businessId, scope),
        this.ratingsByWeek(businessId, scope),
        this.giftCards(businessId, scope, { page: 1, pageSize: 1 }),
        this.funnel(businessId, scope),
      ]);
      return { stats, distribution, questions, weeks, giftCards: cards.totals, funnel };
    },

    /** A screenshot one of the owner's customers uploaded (the re-encoded image), or null when not the owner's. */
    async screenshot(businessId: string, verificationId: string): Promise<StoredBlob | null> {
      if (!isUuid(verificationId)) return null;
      const [row] = await sql<{ upload_key: string }>(`select upload_key from screenshot_verifications where id = ? and business_id = ?`, [verificationId, businessId]);
      if (!row) return null;
      return deps.blobStore.get(row.upload_key);
    },

    /**
     * The spec's GET /api/survey/responses[/{surveyId}]: the client shape, newest first, `limit` at a
     * time after the keyset `cursor` (the last row's submittedAt and id).
     */
    async clientResponses(
      businessId: string,
      options: { surveyId: string | null; after: { submittedAt: string; id: string } | null; limit: number },
    ): Promise<{ responses: ClientResponse[]; next: { submittedAt: string; id: string } | null }> {
      const { where, params } = scoped(businessId, { surveyId: options.surveyId, from: null, to: null });
      const keyset = options.after ? keysetAfter('r.submitted_at', 'r.id') : '';
      const rows = await sql<{
        id: string;
        customer_name: string | null;
        customer_email: string | null;
        total_points: number;
        reward_tier: string | null;
        reward_value: number | null;
        submitted_at: Date;
        cursor_at: string;
        responses: Record<string, string | number>;
        review_platform: string | null;
        review_star_rating: number | null;
        reviewer_name: string | null;
        review_text: string | null;
      }>(
        `select r.id, r.customer_name, r.customer_email, r.total_points, r.reward_tier, r.reward_value, r.submitted_at, r.responses,
                r.review_platform, r.review_star_rating, r.reviewer_name, r.review_text,
                ${cursorAt('r.submitted_at')}
           from survey_responses r where ${where}${keyset}
          order by r.submitted_at desc, r.id desc limit ${options.limit + 1}`,
        options.after ? [...params, options.after.submittedAt, options.after.id] : params,
      );
      const page = rows.slice(0, options.limit);
      const last = page[page.length - 1];
      return {
        responses: page.map((r) => ({
          id: r.id,
          customerName: r.customer_name,
          customerEmail: r.customer_email,
          totalPoints: r.total_points,
          rewardTier: r.reward_tier,
          rewardValue: r.reward_value,
          submittedAt: iso(r.submitted_at),
          responses: r.responses,
          reviewPlatform: r.review_platform,
          reviewStarRating: r.review_star_rating,
          reviewerName: r.reviewer_name,
          reviewText: r.review_text,
        })),
        // The cursor keeps the database's microseconds: a millisecond Date would skip or repeat rows.
        next: rows.length > options.limit && last ? { submittedAt: last.cursor_at, id: last.id } : null,
      };
    },
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;

/** '2026-11-24T08:05:00.123456Z' -> '2026-11-24 08:05:00' for the CSV's UTC time column. */
function csvTime(cursorAt: string): string {
  return `${cursorAt.slice(0, 10)} ${cursorAt.slice(11, 19)}`;
}

/**
 * The CSV exports' loop: reads `batch` rows at a time by keyset (`cursor_at` with microseconds,
 * `id`), newest first, and yields them 100 CSV rows at a time, so it never holds more than one batch.
 */
async function* keysetCsv<Row extends { id: string; cursor_at: string }>(
  batch: number,
  page: (after: { at: string; id: string } | null) => Promise<Row[]>,
  toCells: (row: Row) => Parameters<typeof csvRow>[0],
): AsyncGenerator<string> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) return;
    let chunk = '';
    for (const [n, r] of rows.entries()) {
      if (n > 0 && n % 100 === 0) {
        yield chunk;
        chunk = '';
      }
      chunk += csvRow(toCells(r));
    }
    yield chunk;
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.cursor_at, id: last.id };
  }
}
