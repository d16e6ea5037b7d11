import type { EntityManager } from '@mikro-orm/core';
import { csvRow } from './csv.ts';
import type { QuestionInfo, RewardStatus } from './labels.ts';
import { OWNER_QUESTION_ID, questionList, TEMPLATES } from '../surveys/index.ts';
import type { GiftCardRow, ResponseRow, Scope } from './types.ts';

/**
 * The SQL pieces the analytics reads share (issue 28 item 4: split from service.ts): the scope's
 * WHERE clauses, the row shapes and their mapping, keyset cursors, and the CSV loop. Plain SQL over
 * an EntityManager's connection; every clause starts with the owner's business id.
 */

/** A query on the request's connection: rows as plain objects. */
export type Sql = <T = Record<string, unknown>>(query: string, params?: unknown[]) => Promise<T[]>;
export const sqlOn =
  (em: EntityManager): Sql =>
  <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    em.getConnection().execute(query, params, 'all') as Promise<T[]>;

/**
 * The SQL of a response's reward status, over `r` (survey_responses): the hold decides first (a
 * rejected reward has no card, a held one none yet), then the card, then whether a reward was earned.
 */
export const REWARD_STATUS_SQL = `case (select h.status from reward_holds h where h.survey_response_id = r.id)
      when 'rejected' then 'rejected' when 'held' then 'held' when 'awaiting_email' then 'held'
      else case when exists (select 1 from gift_card_issuances gi where gi.survey_response_id = r.id) then 'issued'
                when r.reward_tier is null or coalesce(r.reward_value, 0) = 0 then 'none' else 'pending' end end`;

export const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();
export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
export const round = (v: unknown, digits: number): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits);
export const pageCountOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** A LIKE pattern matching `text` anywhere, with the pattern characters escaped. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An answer as text for display: numbers as numbers, strings as typed. */
export function answerText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A template question's own text (every template), to tell an edited text from the original. */
export function templateText(key: string): string | undefined {
  for (const template of Object.values(TEMPLATES)) {
    for (const s of template.sections) {
      const q = [...s.questions, ...(s.negative_questions ?? [])].find((x) => x.id === key);
      if (q) return q.text;
    }
  }
  return undefined;
}

/** A keyset cursor column: the time to the microsecond, in UTC, as text (`cursor_at`), so a page boundary is exact. */
export const cursorAt = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at`;
/** The keyset condition after a cursor (time, id), newest first; its two parameters are the cursor's. */
export const keysetAfter = (timeColumn: string, idColumn: string) => ` and (${timeColumn}, ${idColumn}) < (?::timestamptz, ?::uuid)`;

/** The WHERE clause of a scope over `survey_responses` (alias r). */
export function scoped(businessId: string, scope: Scope, alias = 'r', dateColumn = 'submitted_at') {
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

export type RowOfResponse = {
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
  locale: string;
};
/** The customer's language of a response (ADR 084, 086); responses stored before it count as English. */
export const LOCALE_SQL = `coalesce(r.locale, 'en')`;

/** The `where` part and its parameter of the responses filter by language (ADR 086); nothing for '' (all). */
export const languageFilter = (language: string): { sql: string; params: string[] } => (language ? { sql: ` and ${LOCALE_SQL} = ?`, params: [language] } : { sql: '', params: [] });

export const RESPONSE_COLUMNS = `r.id, r.survey_config_id, s.title, r.customer_name, r.customer_email, r.total_points, r.reward_tier, r.reward_value,
  r.submitted_at, r.responses->>'overall_rating' as overall_rating, r.review_platform, r.review_star_rating, r.reviewer_name,
  ${REWARD_STATUS_SQL} as reward_status, ${LOCALE_SQL} as locale`;
export const toResponseRow = (r: RowOfResponse): ResponseRow => ({
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
  locale: r.locale,
});

export type CardRow = {
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
export const toCardRow = (r: CardRow): GiftCardRow => ({
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
export function cardScope(businessId: string, scope: Scope) {
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
export async function askedQuestions(sql: Sql, businessId: string, scope: Scope): Promise<{ owner: QuestionInfo[]; texts: Map<string, string[]> }> {
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
export async function platformsInScope(sql: Sql, businessId: string, scope: Scope): Promise<Set<string>> {
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
export function dayScope(businessId: string, scope: Scope, alias: string) {
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

/** '2026-11-24T08:05:00.123456Z' -> '2026-11-24 08:05:00' for the CSV's UTC time column. */
export function csvTime(cursorAt: string): string {
  return `${cursorAt.slice(0, 10)} ${cursorAt.slice(11, 19)}`;
}

/**
 * The CSV exports' loop: reads `batch` rows at a time by keyset (`cursor_at` with microseconds,
 * `id`), newest first, and yields them 100 CSV rows at a time, so it never holds more than one batch.
 */
export async function* keysetCsv<Row extends { id: string; cursor_at: string }>(
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
