/**
 * Analytics on a busy cafe's two years (issue 12): seeds one business with --per-day responses a day
 * for --days days (default 150 x 730 ≈ 110,000 responses over two surveys, a gift card for every
 * response that earned a tier, 90% of them Square cards with balances as Square's webhooks report
 * them) plus a second, smaller business whose rows must not slow the first one down, then times
 * what each analytics view's loader asks the database (`context.analytics`, exactly the calls of
 * app/utils/analytics.server.ts), one view at a time, --runs times after two warm-up runs.
 *
 *   node bench/analytics.ts [--postgres] [--per-day 150] [--days 730] [--runs 15] [--json]
 *   node bench/analytics.ts --seed-only --data-dir /tmp/rl-demo --per-day 20 --days 120
 *   node bench/analytics.ts --only question        # only the views whose name contains 'question'
 *
 * Without --postgres the embedded PostgreSQL runs in a temporary DATA_DIR (deleted afterwards); with
 * --postgres a throwaway database on the local server (BENCH_PG_ADMIN_URL), dropped afterwards.
 * --seed-only keeps --data-dir (embedded) with the seeded owner, to try the pages with
 * `DATA_DIR=… npm run dev`: it prints the sign-in.
 *
 * The loader's session read and React's render are not included (they do not grow with the data).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { GIFT_CARDS_PAGE_SIZE, RESPONSES_PAGE_SIZE, type Scope } from '../modules/analytics/index.ts';
import { surveyConfigApiSchema } from '../modules/surveys/schema.ts';
import { loadConfig } from '../server/config.ts';
import { createRequestContext, createRoot, type Root } from '../server/composition.ts';
import { createPostgresDatabase } from './customer-setup.ts';
import { checkNode, cleanupStack, machine, median, waitForQuiet } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    'per-day': { type: 'string', default: '150' },
    days: { type: 'string', default: '730' },
    runs: { type: 'string', default: '15' },
    'seed-only': { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    'max-wait': { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
checkNode();
const perDay = Number(args['per-day']);
const days = Number(args.days);
const runs = Number(args.runs);

export const BENCH_OWNER = { displayName: 'Busy Bean Cafe', email: 'analytics@bench.local', password: 'rewardloop-bench-2y' };

const surveyBody = (title: string) =>
  surveyConfigApiSchema.parse({
    title,
    rewardMode: 'preset_2',
    redemptionWebsite: 'https://busybean.example',
    surveyFrequencyDays: 90,
    selectedReviewPlatforms: ['google'],
    reviewUrls: { google: 'https://g.page/r/busybean/review' },
    selectedSocialPlatforms: ['instagram'],
    socialHandles: { instagram: '@busybean' },
    customQuestions: [],
  });

/** One business with two surveys and `perDay` responses a day for `days` days, cards for the tiers. */
async function seedBusiness(root: Root, owner: { displayName: string; email: string; password: string }, perDayCount: number, dayCount: number, seed: number) {
  const ctx = createRequestContext(root, { cspNonce: '', clientIp: 'bench' });
  const signed = await ctx.accounts.signUp(owner);
  if (!signed.ok) throw new Error(`sign-up failed: ${JSON.stringify(signed)}`);
  const businessId = (await ctx.accounts.byEmail(owner.email))!.id;
  const create = async (title: string) => {
    const saved = await ctx.surveys.save(businessId, surveyBody(title));
    if (saved.status !== 'saved') throw new Error(`survey refused: ${saved.refusal.message}`);
    return saved.survey;
  };
  const main = await create('In-store feedback');
  const second = await create('Catering feedback');
  const sql = (q: string, params: unknown[] = []) => root.db.orm.em.fork().getConnection().execute(q, params);
  await sql(`update survey_configs set published_at = now() where business_id = ?`, [businessId]);
  const total = perDayCount * dayCount;
  // Deterministic pseudo-random data: random() after setseed in the same statement's session.
  await root.db.orm.em.fork().transactional(async (tx) => {
    const q = (text: string, params: unknown[] = []) => tx.getConnection().execute(text, params, 'all', tx.getTransactionContext());
    await q(`select setseed(?)`, [seed]);
    await q(
      `insert into survey_responses (business_id, survey_config_id, customer_email, customer_name, responses, total_points, reward_tier, reward_value, submitted_at, review_platform, review_star_rating, reviewer_name)
       select ?, case when x.pick < 0.85 then ?::uuid else ?::uuid end,
              case when x.points > 0 then 'customer' || g || '@example.com' end,
              case when x.pick2 < 0.7 then (array['Ana','Ben','Cleo','Dan','Eve','Finn','Gia','Hugo','Ines','Jon'])[1 + (g % 10)] || ' ' || (array['Silva','Okafor','Martin','Nguyen','Smith','Kowalski'])[1 + (g % 6)] end,
              jsonb_build_object(
                'overall_rating', x.rating,
                'recommend', case when x.rating >= 3 then 'yes' else 'no' end,
                'visit_frequency', (array['First time','Weekly','Monthly','Occasionally','Special occasions only'])[1 + (g % 5)],
                'service_rating', greatest(1, least(5, x.rating + (g % 3) - 1)),
                'atmosphere_rating', greatest(1, least(5, x.rating + (g % 2))),
                'value_rating', greatest(1, least(5, x.rating - (g % 2))),
                'favorite_item', (array['The almond croissant, always warm','Flat white with oat milk','Cardamom bun from the oven','Sourdough toast and eggs','Lemon drizzle cake slice'])[1 + (g % 5)],
                'improvement_suggestions', (array['More seats near the window would be lovely','Faster service at the weekend rush please','Open a little earlier on weekdays','More vegan options in the cabinet'])[1 + (g % 4)]
                                            || case when g % 2 = 0 then ' (visit ' || g || ')' else '' end
              ) || case when x.rating <= 3 then jsonb_build_object('five_star_improvement', 'Shorter queues at lunch and a warmer welcome at the counter') else '{}'::jsonb end,
              x.points,
              case when x.points >= 17 then 'Gold' when x.points >= 8 then 'Silver' when x.points >= 5 then 'Bronze' end,
              case when x.points >= 17 then 800 when x.points >= 8 then 300 when x.points >= 5 then 100 end,
              now() - ((g - 1) / ?::float8) * interval '1 day' - x.jitter * interval '1 hour',
              case when x.rating >= 4 and x.pick2 < 0.3 then 'google' end,
              case when x.rating >= 4 and x.pick2 < 0.3 then 5 end,
              case when x.rating >= 4 and x.pick2 < 0.3 then 'Reviewer ' || g end
         from generate_series(1, ?) g
         cross join lateral (
           select r.rating, r.pick, r.pick2, r.jitter,
                  case when r.rating >= 4 then 8 + floor(r.extra * 20)::int when r.rating = 3 then 4 + floor(r.extra * 8)::int else floor(r.extra * 6)::int end as points
             from (select (array[1,2,3,3,4,4,4,5,5,5])[1 + floor(random() * 10)::int] as rating, random() as pick, random() as pick2, random() as extra, random() * 10 as jitter, g as gg) r
         ) x`,
      [businessId, main.id, second.id, perDayCount, total],
    );
    await q(
      `insert into gift_card_issuances (business_id, survey_response_id, customer_email, customer_name, gift_card_number, gift_card_id, reward_value, reward_tier,
                                        is_square_gift_card, issued_at, emailed_at, card_state, card_balance_cents, card_updated_at)
       select r.business_id, r.id, r.customer_email, r.customer_name, lpad((row_number() over ())::text, 16, '7'), 'gftc:' || r.id, r.reward_value, r.reward_tier,
              s.square, r.submitted_at + interval '1 minute', r.submitted_at + interval '2 minutes',
              case when s.square then 'ACTIVE' end,
              case when s.square and s.k < 0.6 then (r.reward_value * floor(s.k2 * 3) / 2)::int / 2 * 2 end,
              case when s.square and s.k < 0.6 then r.submitted_at + interval '3 days' end
         from survey_responses r cross join lateral (select random() < 0.9 as square, random() as k, random() as k2, r.id as rid) s
        where r.business_id = ? and r.reward_tier is not null and r.customer_email is not null`,
      [businessId],
    );
  });
  await sql(`analyze`);
  return { businessId, surveyIds: [main.id, second.id] };
}

async function main() {
  const { cleanups, cleanup } = cleanupStack();
  const dataDir = args['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'rl-bench-analytics-'));
  if (!args['data-dir'] && !args['seed-only']) cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl: string | undefined;
  if (args.postgres) {
    const db = await createPostgresDatabase();
    cleanups.push(() => db.drop());
    databaseUrl = db.url;
  }
  try {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
    const root = await createRoot(config, { logger: pino({ level: 'warn' }), migrate: true });
    cleanups.push(() => root.close());
    const t0 = performance.now();
    // A --data-dir seeded before is measured again as it is.
    const existing = await createRequestContext(root, { cspNonce: '', clientIp: 'bench' }).accounts.byEmail(BENCH_OWNER.email);
    const busy = existing
      ? {
          businessId: existing.id,
          surveyIds: (
            (await root.db.orm.em.fork().getConnection().execute(`select id from survey_configs where business_id = ? order by title desc`, [existing.id])) as Array<{ id: string }>
          ).map((r) => r.id),
        }
      : await seedBusiness(root, BENCH_OWNER, perDay, days, 0.42);
    if (!existing) {
      await seedBusiness(root, { displayName: 'Quiet Corner Bakery', email: 'other@bench.local', password: 'rewardloop-bench-other' }, Math.max(1, Math.round(perDay / 5)), days, 0.17);
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    const [counts] = (await root.db.orm.em
      .fork()
      .getConnection()
      .execute(
        `select (select count(*) from survey_responses where business_id = ?)::int as responses, (select count(*) from gift_card_issuances where business_id = ?)::int as cards,
                (select count(*) from survey_responses)::int as all_responses`,
        [busy.businessId, busy.businessId],
      )) as Array<{ responses: number; cards: number; all_responses: number }>;
    console.log(`seeded in ${seedSeconds.toFixed(1)} s: ${counts!.responses} responses and ${counts!.cards} gift cards for ${BENCH_OWNER.displayName} (${counts!.all_responses} responses in all)`);
    if (args['seed-only']) {
      console.log(`DATA_DIR=${dataDir}: sign in as ${BENCH_OWNER.email} / ${BENCH_OWNER.password}`);
      return;
    }

    const all: Scope = { surveyId: null, from: null, to: null };
    const one: Scope = { surveyId: busy.surveyIds[0]!, from: null, to: null };
    const day = 86_400_000;
    const last90: Scope = { surveyId: busy.surveyIds[0]!, from: new Date(Date.now() - 90 * day), to: new Date(Date.now() + day) };
    const id = busy.businessId;
    const a = () => createRequestContext(root, { cspNonce: '', clientIp: 'bench' }).analytics;
    // What analyticsPage() runs for each view: the stat cards beside the tab's figures.
    const views: Array<[string, () => Promise<unknown>]> = [
      ['All Responses, all surveys (page 1)', () => Promise.all([a().surveys(id), a().stats(id, all), a().responses(id, all, { page: 1, pageSize: RESPONSES_PAGE_SIZE, search: '' })])],
      ['All Responses, one survey, page 5,000', () => Promise.all([a().surveys(id), a().stats(id, one), a().responses(id, one, { page: 5000, pageSize: RESPONSES_PAGE_SIZE, search: '' })])],
      ['All Responses, search "okafor"', () => Promise.all([a().surveys(id), a().stats(id, all), a().responses(id, all, { page: 1, pageSize: RESPONSES_PAGE_SIZE, search: 'okafor' })])],
      ['Reward Distribution, all surveys', () => Promise.all([a().surveys(id), a().stats(id, all), a().distribution(id, all)])],
      ['Question Analysis + weekly ratings, all surveys', () => Promise.all([a().surveys(id), a().stats(id, all), a().questions(id, all), a().ratingsByWeek(id, all)])],
      ['Question Analysis + weekly ratings, last 90 days', () => Promise.all([a().surveys(id), a().stats(id, last90), a().questions(id, last90), a().ratingsByWeek(id, last90)])],
      ['Issued Gift Cards, all surveys (page 1)', () => Promise.all([a().surveys(id), a().stats(id, all), a().giftCards(id, all, { page: 1, pageSize: GIFT_CARDS_PAGE_SIZE })])],
      ['Issued Gift Cards, one survey (page 1)', () => Promise.all([a().surveys(id), a().stats(id, one), a().giftCards(id, one, { page: 1, pageSize: GIFT_CARDS_PAGE_SIZE })])],
      ['Response detail', async () => a().response(id, ((await a().responses(id, all, { page: 1, pageSize: 1, search: '' })).rows[0]!).id)],
      ['GET /api/survey/responses (100)', () => a().clientResponses(id, { surveyId: null, after: null, limit: 100 })],
    ];
    const quiet = await waitForQuiet(Number(args['max-wait']));
    const results: Array<{ view: string; medianMs: number; p90Ms: number; maxMs: number }> = [];
    for (const [view, fn] of views) {
      if (args.only && !view.toLowerCase().includes(args.only.toLowerCase())) continue;
      await fn();
      await fn();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await fn();
        times.push(performance.now() - start);
      }
      times.sort((x, y) => x - y);
      const r = { view, medianMs: Math.round(median(times)), p90Ms: Math.round(times[Math.min(times.length - 1, Math.floor(times.length * 0.9))]!), maxMs: Math.round(times.at(-1)!) };
      results.push(r);
      if (!args.json) console.log(`${view.padEnd(52)} median ${String(r.medianMs).padStart(5)} ms   p90 ${String(r.p90Ms).padStart(5)} ms   max ${String(r.maxMs).padStart(5)} ms`);
    }
    // The CSV export: rows per second, and the process's peak RSS above its level before, for ~10,000
    // rows (the last ~67 days) and for every row: memory must not grow with the rows.
    const exports: Array<{ export: string; rows: number; seconds: number; rowsPerSecond: number; peakRssGrowthMiB: number; bytes: number }> = [];
    if (!args.only || 'export'.includes(args.only.toLowerCase())) {
      const tenK: Scope = { surveyId: null, from: new Date(Date.now() - Math.round(10_000 / perDay) * day), to: null };
      for (const [name, scope, kind] of [
        ['responses, ~10,000 rows', tenK, 'responses'],
        ['responses, every row', all, 'responses'],
        ['gift cards, every row', all, 'giftcards'],
      ] as const) {
        (globalThis as { gc?: () => void }).gc?.();
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
        const start = performance.now();
        let bytes = 0;
        let lines = 0;
        const gen = kind === 'responses' ? a().exportResponses(id, scope, { search: '' }) : a().exportGiftCards(id, scope);
        for await (const chunk of gen) {
          bytes += Buffer.byteLength(chunk);
          for (let i = chunk.indexOf('\r\n'); i !== -1; i = chunk.indexOf('\r\n', i + 2)) lines += 1;
        }
        const seconds = (performance.now() - start) / 1000;
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        const rows = lines - 1;
        const r = { export: name, rows, seconds: Math.round(seconds * 100) / 100, rowsPerSecond: Math.round(rows / seconds), peakRssGrowthMiB: Math.round((peak - before) / 2 ** 20), bytes };
        exports.push(r);
        if (!args.json) console.log(`CSV ${name.padEnd(26)} ${String(rows).padStart(7)} rows in ${r.seconds} s: ${r.rowsPerSecond} rows/s, peak RSS +${r.peakRssGrowthMiB} MiB, ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV`);
      }
    }
    const report = {
      date: new Date().toISOString(),
      machine: machine(),
      database: args.postgres ? 'PostgreSQL (local server)' : 'embedded PostgreSQL 17',
      responses: counts!.responses,
      cards: counts!.cards,
      allResponses: counts!.all_responses,
      runs,
      otherProcessesCpuPctBefore: quiet,
      results,
      exports,
    };
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else console.log(`${report.date} · ${report.machine} · ${report.database} · other processes ${quiet}% of a core before measuring`);
    const slow = results.filter((r) => r.medianMs > 150);
    if (slow.length) console.log(`over the 150 ms target (median): ${slow.map((r) => r.view).join('; ')}`);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
