import { analysedQuestions } from './labels.ts';
import { askedQuestions, dayScope, iso, num, round, scoped, templateText, type Sql } from './sql.ts';
import type { QuestionStat, Scope } from './types.ts';

/** The analytics page's Question Analysis (issue 28 item 4: split from service.ts). */

/**
 * Question Analysis: per question of the templates (answers in words or on a scale; no contact
 * details or part-3 proof), the number of answers, the mean rating and sentiment of scale
 * questions, the 5 most common answers (case and surrounding spaces ignored) and the 5 latest.
 */
export async function questionStats(sql: Sql, businessId: string, scope: Scope): Promise<QuestionStat[]> {
    const asked = await askedQuestions(sql, businessId, scope);
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
}
