import { csvRow } from './csv.ts';
import { platformName, proofLabel, QUESTION_LABELS, REWARD_STATUS_LABELS, type RewardStatus } from './labels.ts';
import { askedQuestions, cardScope, containing, csvTime, cursorAt, keysetAfter, keysetCsv, languageFilter, LOCALE_SQL, platformsInScope, REWARD_STATUS_SQL, scoped, type CardRow, type Sql } from './sql.ts';
import type { Scope } from './types.ts';

/** The analytics CSV exports (issue 12), streamed by keyset (issue 28 item 4: split from service.ts). */

/**
 * CSV of the responses of a scope (and search), newest first: one row per response, one column per
 * question (labelled), formula injection neutralised. Reads `batch` rows at a time by keyset
 * (submitted_at with microseconds, id) and yields 100 rows at a time: it never holds more than one
 * batch (peak memory in practice: bench/README.md).
 */
export async function* exportResponses(sql: Sql, businessId: string, scope: Scope, options: { search: string; language?: string; batch?: number }): AsyncGenerator<string> {
  const asked = await askedQuestions(sql, businessId, scope);
  // Part-3 columns only for the platforms the surveys in scope use (issue 27 item 4), or that an answer in scope was given for.
  const platforms = await platformsInScope(sql, businessId, scope);
  const columns = [
    ...[...QUESTION_LABELS.values()].filter((q) => q.type !== 'contact' && q.type !== 'email' && q.fieldType !== 'image_upload' && (!q.platform || platforms.has(q.platform))),
    ...asked.owner,
  ];
  yield `\uFEFF${csvRow(['Submitted (UTC)', 'Survey', 'Name', 'Email', 'Points', 'Tier', 'Reward ($)', 'Reward status', 'Language', 'Review platform', 'Review stars', 'Reviewer name', 'Verified proofs', ...columns.map((c) => c.label)])}`;
  const { where, params } = scoped(businessId, scope);
  let filter = where;
  const filterParams = [...params];
  if (options.search) {
    filter += ` and (r.customer_email ilike ? or r.customer_name ilike ?)`;
    filterParams.push(containing(options.search), containing(options.search));
  }
  // Only one language's responses (ADR 086), as the page's filter.
  const byLanguage = languageFilter(options.language ?? '');
  filter += byLanguage.sql;
  filterParams.push(...byLanguage.params);
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
    locale: string;
    proofs: string[] | null;
    [answer: `a${number}`]: string | null;
  };
  yield* keysetCsv<ResponseCsvRow>(
    batch,
    (after) =>
      sql(
        // The review columns and 'Verified proofs' come from the verifications the response used, when the response row lacks them.
        `select r.id, ${cursorAt('r.submitted_at')}, s.title, r.customer_name, r.customer_email,
                r.total_points, r.reward_tier, r.reward_value, ${REWARD_STATUS_SQL} as reward_status, ${LOCALE_SQL} as locale,
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
      r.locale,
      r.review_platform ? platformName(r.review_platform) : null,
      r.review_star_rating,
      r.reviewer_name,
      (r.proofs ?? []).map(proofLabel).join(', ') || null,
      ...columns.map((_, i) => r[`a${i}`] ?? null),
    ],
  );
}

/** CSV of the gift cards of a scope, newest first, streamed by keyset like `exportResponses`. */
export async function* exportGiftCards(sql: Sql, businessId: string, scope: Scope, options: { batch?: number } = {}): AsyncGenerator<string> {
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
}
