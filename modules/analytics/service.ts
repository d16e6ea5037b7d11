import { isUuid } from '../shared/ids.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { BlobStore, StoredBlob } from '../uploads/index.ts';
import type { FunnelEvent } from './funnel.ts';
import type { FunnelCounts } from './funnel-counts.ts';
import { clientGiftCards, clientResponses } from './client-api.ts';
import { exportGiftCards, exportResponses } from './exports.ts';
import { questionStats } from './questions.ts';
import { responseDetail } from './response-detail.ts';
import {
  cardScope,
  containing,
  dayScope,
  num,
  pageCountOf,
  RESPONSE_COLUMNS,
  languageFilter,
  round,
  scoped,
  sqlOn,
  toCardRow,
  toResponseRow,
  type CardRow,
  type RowOfResponse,
} from './sql.ts';
import type {
  Funnel,
  GiftCardPage,
  GiftCardTotals,
  HomeFigures,
  QuestionStat,
  ResponseDetail,
  ResponsePage,
  Scope,
  Stats,
  SurveyOption,
  TierShare,
  WeekPoint,
} from './types.ts';

/**
 * Analytics over one owner's surveys (issue 12). Every figure is computed by PostgreSQL (count, avg,
 * GROUP BY, window functions over `jsonb_each`), never by loading responses into Node. Every method
 * takes the owner's business id first (the session's, never the request's) and puts it in the WHERE
 * clause of every query; a survey or response of another business is indistinguishable from one that
 * does not exist.
 *
 * Plain SQL over the request's EntityManager connection, and no runtime import of the ORM or of an
 * entity: the module's face is safe to import from route modules. The shapes are in `types.ts`, the
 * shared SQL pieces in `sql.ts`, the CSV exports in `exports.ts`, the spec's client API in
 * `client-api.ts`, Question Analysis in `questions.ts`, one response in full in `response-detail.ts`
 * (issue 28 item 4).
 */

export * from './types.ts';

/** The calendar week (UTC, from Monday 00:00) that contains `now`. */
export function weekOf(now: Date): { from: Date; to: Date } {
  const day = (now.getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day));
  return { from, to: new Date(from.getTime() + 7 * 86_400_000) };
}

export function createAnalytics(deps: { em: EntityManager; blobStore: BlobStore; funnelCounts: FunnelCounts }) {
  const sql = sqlOn(deps.em);
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

    /**
     * All Responses: newest first, 10 a page, optionally only those whose email or name contains
     * `search`, and only those in `language` (ADR 086).
     */
    async responses(businessId: string, scope: Scope, options: { page: number; pageSize: number; search: string; language?: string }): Promise<ResponsePage> {
      const { where, params } = scoped(businessId, scope);
      let filter = where;
      const filterParams = [...params];
      if (options.search) {
        filter += ` and (r.customer_email ilike ? or r.customer_name ilike ?)`;
        filterParams.push(containing(options.search), containing(options.search));
      }
      const byLanguage = languageFilter(options.language ?? '');
      filter += byLanguage.sql;
      filterParams.push(...byLanguage.params);
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

    /** Question Analysis (`questions.ts`). */
    questions: (businessId: string, scope: Scope): Promise<QuestionStat[]> => questionStats(sql, businessId, scope),

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

    /** One response with every answer, its screenshots' verdicts and its reward (`response-detail.ts`); null when not the owner's. */
    response: (businessId: string, responseId: string): Promise<ResponseDetail | null> => responseDetail(sql, businessId, responseId),

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

    /** CSV of the responses of a scope (and search), newest first (`exports.ts`). */
    exportResponses: (businessId: string, scope: Scope, options: { search: string; language?: string; batch?: number }) => exportResponses(sql, businessId, scope, options),
    /** CSV of the gift cards of a scope, newest first (`exports.ts`). */
    exportGiftCards: (businessId: string, scope: Scope, options: { batch?: number } = {}) => exportGiftCards(sql, businessId, scope, options),
    /** The spec's GET /api/gift-card-issuances (`client-api.ts`). */
    clientGiftCards: (businessId: string, options: Parameters<typeof clientGiftCards>[2]) => clientGiftCards(sql, businessId, options),
    /** The spec's GET /api/survey/responses[/{surveyId}] (`client-api.ts`). */
    clientResponses: (businessId: string, options: Parameters<typeof clientResponses>[2]) => clientResponses(sql, businessId, options),
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;
