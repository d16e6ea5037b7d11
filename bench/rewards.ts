/**
 * Rewards through the queue (issue 5): starts the production server as `npm start` does (its job
 * workers included; the embedded PostgreSQL by default, or with --postgres a fresh database on the local
 * PostgreSQL, dropped afterwards) with Test gift cards (GIFT_CARDS=test: no Square) and the mail
 * outbox, makes a survey customers can reach, then measures two things:
 *
 * 1. Time from submit to email: --latency-count submissions, one at a time every --interval-ms, each
 *    timed from sending `POST /api/survey/submit/...` to its .eml file appearing in DATA_DIR/outbox
 *    (the outbox folder is polled every 10 ms). p50/p90/p99.
 * 2. Rewards per second: --count submissions sent --concurrency at a time, then the time until the
 *    last of their emails is in the outbox. Reported as rewards (card + email) per second from the
 *    first submission to the last email, and, read from the database after the server stopped,
 *    cards issued per second (issued_at) and emails per second (emailed_at).
 *
 * Then it checks that nothing was lost or doubled: one gift_card_issuances row per response, every
 * one emailed, one .eml per customer, no failed reward.
 *
 *   node bench/rewards.ts [--postgres] [--count 300] [--concurrency 10] [--latency-count 50]
 *                         [--interval-ms 400] [--max-wait 300] [--json]
 *
 * Each submission carries its own X-Forwarded-For address (the endpoint allows 20 per IP per 10
 * minutes; TRUST_PROXY=loopback makes this process's header the client IP, as in bench/submissions.ts).
 * Exits 1 when the server does not start, a submission is refused, an email does not arrive within
 * 120 s of the last submission, or the stored rows do not match.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { openDatabase } from '../server/database.ts';
import { BAKERY_ANSWERS, createPostgresDatabase, createReachableSurvey, type BenchDatabase } from './customer-setup.ts';
import { checkNode, cleanupStack, cpuByPid, cpuDelta, machine, onInterrupt, percentile, processTree, requireBuild, spawnServer, systemCpuSeconds, waitFor200, waitForQuiet } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    count: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '10' },
    'latency-count': { type: 'string', default: '50' },
    'interval-ms': { type: 'string', default: '400' },
    json: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '300' },
  },
});

const { cleanups, cleanup } = cleanupStack();
onInterrupt(cleanup);

/** Parts 1 and 2 in full: 12 points, Silver ($3.00 with the bench survey's preset_2). */
/** Watches the outbox folder: when each customer's email file first appeared (performance.now()). */
function watchOutbox(dir: string) {
  mkdirSync(dir, { recursive: true });
  const seen = new Set<string>();
  const arrivedAt = new Map<string, number[]>();
  const scan = () => {
    const now = performance.now();
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.eml') || seen.has(file)) continue;
      let text: string;
      try {
        text = readFileSync(path.join(dir, file), 'utf8');
      } catch {
        continue; // being written: next scan
      }
      const to = /^To: (.*)$/m.exec(text)?.[1]?.trim().toLowerCase();
      if (!to || !text.includes('\n\n')) continue; // still being written: next scan
      if (!/^(latency|burst)-\d+@example\.com$/.test(to)) {
        seen.add(file); // the owner's verification email
        continue;
      }
      seen.add(file);
      arrivedAt.set(to, [...(arrivedAt.get(to) ?? []), now]);
    }
  };
  const timer = setInterval(scan, 10);
  return {
    arrivedAt,
    stop: () => clearInterval(timer),
    async waitFor(emails: string[], timeoutMs: number) {
      const deadline = performance.now() + timeoutMs;
      while (emails.some((e) => !arrivedAt.has(e))) {
        if (performance.now() > deadline) {
          const missing = emails.filter((e) => !arrivedAt.has(e));
          throw new Error(`${missing.length} email(s) not in the outbox after ${timeoutMs / 1000} s (e.g. ${missing.slice(0, 3).join(', ')})`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

let ipCounter = 0;
async function submit(baseUrl: string, target: { businessId: string; surveyId: string }, customerEmail: string): Promise<{ responseId: string; sentAt: number }> {
  ipCounter += 1;
  const sentAt = performance.now();
  const res = await fetch(`${baseUrl}/api/survey/submit/${target.businessId}/${target.surveyId}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: baseUrl,
      'X-Forwarded-For': `10.66.${(ipCounter >> 8) & 255}.${ipCounter & 255}`,
      'User-Agent': 'rewardloop-bench/rewards',
    },
    body: JSON.stringify({ responses: BAKERY_ANSWERS, customerEmail, customerName: 'Bench Customer', bypassSquare: true }),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`submission for ${customerEmail} answered ${res.status}: ${text.slice(0, 300)}`);
  return { responseId: (JSON.parse(text) as { responseId: string }).responseId, sentAt };
}

type Stored = {
  issuances: Array<{ survey_response_id: string; customer_email: string; issued_at: Date; emailed_at: Date | null; submitted_at: Date }>;
  requests: number;
  failed: number;
};

const QUERIES = {
  issuances: `select i.survey_response_id::text as survey_response_id, i.customer_email, i.issued_at, i.emailed_at, r.submitted_at
                from gift_card_issuances i join survey_responses r on r.id = i.survey_response_id where i.business_id = ?`,
  requests: `select count(*)::int as n from gift_card_requests where business_id = ?`,
  failed: `select (select count(*) from gift_card_requests where business_id = ? and failed_at is not null)::int
                + (select count(*) from gift_card_issuances where business_id = ? and email_failed_at is not null)::int as n`,
};

async function readStored(businessId: string, where: { dataDir: string } | { url: string }): Promise<Stored> {
  let q: <T>(sql: string, params: unknown[]) => Promise<T[]>;
  let close: () => Promise<void>;
  if ('url' in where) {
    const c = new pg.Client({ connectionString: where.url });
    await c.connect();
    q = async <T>(sql: string, params: unknown[]) => {
      let n = 0;
      return (await c.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
    };
    close = () => c.end();
  } else {
    const db = await openDatabase({ dataDir: where.dataDir, poolMax: 1, logger: pino({ level: 'silent' }), migrate: false });
    q = async <T>(sql: string, params: unknown[]) => (await db.orm.em.getConnection().execute(sql, params)) as T[];
    close = () => db.close();
  }
  try {
    return {
      issuances: await q(QUERIES.issuances, [businessId]),
      requests: (await q<{ n: number }>(QUERIES.requests, [businessId]))[0]!.n,
      failed: (await q<{ n: number }>(QUERIES.failed, [businessId, businessId]))[0]!.n,
    };
  } finally {
    await close();
  }
}

const ms = (v: number) => `${Math.round(v)} ms`;
const time = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

async function main() {
  checkNode();
  requireBuild();
  const count = Number(args.count);
  const concurrency = Number(args.concurrency);
  const latencyCount = Number(args['latency-count']);
  const intervalMs = Number(args['interval-ms']);
  for (const [name, v] of Object.entries({ count, concurrency, 'latency-count': latencyCount, 'interval-ms': intervalMs })) {
    if (!Number.isInteger(v) || v < (name === 'interval-ms' ? 0 : 1)) throw new Error(`--${name} must be a positive integer`);
  }
  if (count + latencyCount > 60_000) throw new Error('at most 60000 submissions in all');
  const database = args.postgres ? `external PostgreSQL (${new URL(process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432').host})` : 'embedded PostgreSQL';
  console.log(`rewards through the queue: Test gift cards, mail outbox, ${database}; ${machine()}`);

  const env: Record<string, string> = { TRUST_PROXY: 'loopback', GIFT_CARDS: 'test', POS: 'demo', SCREENSHOT_VERIFIER: 'fake' };
  let pgdb: BenchDatabase | null = null;
  if (args.postgres) {
    pgdb = await createPostgresDatabase();
    cleanups.push(pgdb.drop);
    env.DATABASE_URL = pgdb.url;
  }
  const server = await spawnServer('production', env);
  cleanups.push(async () => rmSync(server.dataDir, { recursive: true, force: true }));
  cleanups.push(() => server.stop({ keepDataDir: true }));
  await waitFor200(server, '/readyz', 90_000);
  const target = await createReachableSurvey(server.url, 'Bench Rewards Bakery');
  const outbox = watchOutbox(path.join(server.dataDir, 'outbox'));
  cleanups.push(async () => outbox.stop());
  const maxWait = Number(args['max-wait']);
  const quietBefore = maxWait > 0 ? await waitForQuiet(maxWait) : null;

  // 1. Submit to email, one customer at a time -------------------------------------------------
  console.log(`\n1. submit -> email in the outbox: ${latencyCount} customers, one every ${intervalMs} ms`);
  const latencyRuns: Array<{ email: string; sentAt: number }> = [];
  for (let i = 0; i < latencyCount; i += 1) {
    const email = `latency-${i}@example.com`;
    const { sentAt } = await submit(server.url, target, email);
    latencyRuns.push({ email, sentAt });
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  await outbox.waitFor(latencyRuns.map((r) => r.email), 120_000);
  const latencies = latencyRuns.map((r) => outbox.arrivedAt.get(r.email)![0]! - r.sentAt);
  const latency = { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: Math.max(...latencies) };
  console.log(`   p50 ${ms(latency.p50)}, p90 ${ms(latency.p90)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}`);

  // 2. A burst: rewards per second ---------------------------------------------------------------
  console.log(`\n2. rewards per second: ${count} submissions, ${concurrency} in flight`);
  const pid = server.child.pid!;
  const serverPids = processTree(pid);
  const serverCpu0 = cpuByPid(serverPids);
  const machine0 = systemCpuSeconds();
  const burstEmails = Array.from({ length: count }, (_, i) => `burst-${i}@example.com`);
  let next = 0;
  const firstSent = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await submit(server.url, target, burstEmails[next++]!);
    }),
  );
  const submittedAll = performance.now();
  await outbox.waitFor(burstEmails, 120_000 + count * 200);
  const lastEmail = Math.max(...burstEmails.map((e) => outbox.arrivedAt.get(e)![0]!));
  const wallS = (lastEmail - firstSent) / 1000;
  const serverCpuS = cpuDelta(serverCpu0, cpuByPid(serverPids));
  const machine1 = systemCpuSeconds();
  const otherPct = Math.round((Math.max(0, machine1.busy - machine0.busy - serverCpuS) / wallS) * 100);
  const burstLatency = burstEmails.map((e) => outbox.arrivedAt.get(e)![0]! - firstSent);
  console.log(
    `   ${(count / wallS).toFixed(1)} rewards/s end to end (${count} in ${wallS.toFixed(1)} s; submissions took ${((submittedAll - firstSent) / 1000).toFixed(1)} s); ` +
      `server CPU ${Math.round((serverCpuS / wallS) * 100)}% of a core, other processes ${otherPct}%`,
  );
  await new Promise((r) => setTimeout(r, 2000)); // a duplicate email would have arrived by now
  outbox.stop();

  // 3. What the server stored ------------------------------------------------------------------
  await server.stop({ keepDataDir: true });
  const stored = await readStored(target.businessId, pgdb ? { url: pgdb.url } : { dataDir: server.dataDir });
  const burst = stored.issuances.filter((i) => i.customer_email.startsWith('burst-'));
  const issuedTimes = burst.map((i) => time(i.issued_at)).sort((a, b) => a - b);
  const emailedTimes = burst.filter((i) => i.emailed_at).map((i) => time(i.emailed_at!)).sort((a, b) => a - b);
  const firstSubmitted = Math.min(...burst.map((i) => time(i.submitted_at)));
  const issuedPerS = burst.length / ((issuedTimes.at(-1)! - firstSubmitted) / 1000);
  const emailedPerS = emailedTimes.length / ((emailedTimes.at(-1)! - firstSubmitted) / 1000);
  const total = count + latencyCount;
  const duplicates = [...outbox.arrivedAt.values()].filter((times) => times.length > 1).length;
  const checks = {
    oneIssuancePerResponse: stored.issuances.length === total && new Set(stored.issuances.map((i) => i.survey_response_id)).size === total,
    everyOneEmailed: stored.issuances.every((i) => i.emailed_at !== null),
    oneEmailPerCustomer: outbox.arrivedAt.size === total && duplicates === 0,
    noFailures: stored.failed === 0 && stored.requests === total,
  };
  console.log(`\n3. stored (read after the server stopped):`);
  console.log(`   cards issued/s ${issuedPerS.toFixed(1)}, emails sent/s ${emailedPerS.toFixed(1)} (from the first burst submission, database clocks)`);
  console.log(`   ${stored.issuances.length} issuances for ${total} responses, ${duplicates} duplicate emails, ${stored.failed} failed: ${Object.values(checks).every(Boolean) ? 'OK' : 'MISMATCH'}`);
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          date: new Date().toISOString(),
          database,
          otherCpuPctBeforeRun: quietBefore,
          submitToEmailMs: { count: latencyCount, intervalMs, p50: Math.round(latency.p50), p90: Math.round(latency.p90), p99: Math.round(latency.p99), max: Math.round(latency.max) },
          burst: {
            count,
            concurrency,
            rewardsPerSecond: Number((count / wallS).toFixed(1)),
            issuedPerSecond: Number(issuedPerS.toFixed(1)),
            emailedPerSecond: Number(emailedPerS.toFixed(1)),
            wallS: Number(wallS.toFixed(2)),
            lastEmailAfterFirstSubmitMs: Math.round(Math.max(...burstLatency)),
            serverCpuPct: Math.round((serverCpuS / wallS) * 100),
            otherCpuPct: otherPct,
          },
          checks,
        },
        null,
        2,
      ),
    );
  }
  await cleanup();
  if (!Object.values(checks).every(Boolean)) {
    console.error('FAILED: ' + Object.entries(checks).filter(([, v]) => !v).map(([k]) => k).join(', '));
    process.exit(1);
  }
}

main().catch(async (error: unknown) => {
  console.error('rewards benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
