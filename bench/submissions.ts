/**
 * Survey submissions under load (issue 4): starts the production server with its job queue (as
 * `npm start` does; the embedded PostgreSQL by default, or with --postgres a freshly created database on the
 * local PostgreSQL, dropped afterwards), creates a survey a customer can reach (owner sign-up,
 * survey, free trial, published, the demo point of sale connected), then POSTs --count submissions
 * with distinct customer emails to `POST /api/survey/submit/{businessId}/{surveyId}` (the
 * `bypassSquare: true` they send is ignored without the owner's session), --concurrency at a time. Reports submissions/s, latency p50/p90/p99 and the
 * server's CPU, then stops the server and checks in its database that nothing was lost: one stored
 * `survey_responses` row and one queued pg-boss `reward-issue` job per 201 (the same response ids),
 * and no extra ones.
 *
 *   node bench/submissions.ts [--postgres] [--count 500] [--concurrency 15] [--max-wait 300] [--json]
 *
 * The submit endpoint allows 20 submissions per client IP per 10 minutes. The server is started
 * with TRUST_PROXY=loopback (the default), so X-Forwarded-For from this process (127.0.0.1) is the
 * client IP: every submission carries its own 10.x.y.z address, and the stored ip_address column
 * is checked to hold them (proof that the header was honoured, not worked around).
 *
 * The counts are read after the server stopped (so every queued write is settled), through the
 * project's own openDatabase (server/database.ts) on the kept DATA_DIR; with --postgres through
 * `pg` on the benchmark database.
 * BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where --postgres
 * creates and drops its database.
 *
 * Exits 1 when the server does not start, the set-up fails, a submission is not answered 201, or
 * the stored rows or queued jobs do not match the 201s.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { openDatabase } from '../server/database.ts';
import { BAKERY_ANSWERS, createPostgresDatabase, createReachableSurvey, measureRun, type BenchDatabase } from './customer-setup.ts';
import {
  checkNode,
  machine,
  median,
  percentile,
  cleanupStack,
  requireBuild,
  spawnServer,
  waitFor200,
  waitForQuiet,
  type SpawnedServer,
} from './lib.ts';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    count: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '15' },
    json: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '300' },
  },
});

const { cleanups, cleanup } = cleanupStack();

/** A distinct client address per submission: 10.77.x.y. */
const clientIp = (i: number) => `10.77.${(i >> 8) & 255}.${i & 255}`;

type Outcome = { i: number; status: number; ms: number; doneAt: number; responseId?: string; rewardTier?: string | null; error?: string };

async function submitAll(server: SpawnedServer, target: { businessId: string; surveyId: string }, count: number, concurrency: number): Promise<Outcome[]> {
  const url = `${server.url}/api/survey/submit/${target.businessId}/${target.surveyId}`;
  const outcomes: Outcome[] = [];
  let next = 0;
  const one = async (i: number) => {
    const t = performance.now();
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': clientIp(i), 'User-Agent': 'rewardloop-bench/submissions' },
        body: JSON.stringify({ responses: BAKERY_ANSWERS, customerEmail: `c${i}@example.com`, bypassSquare: true }),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      const done = performance.now();
      let body: { responseId?: string; rewardTier?: string | null; message?: string } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        /* not JSON: kept as the error text below */
      }
      outcomes.push({
        i,
        status: res.status,
        ms: done - t,
        doneAt: done,
        responseId: body.responseId,
        rewardTier: body.rewardTier,
        error: res.status === 201 ? undefined : (body.message ?? text.slice(0, 200)),
      });
    } catch (error) {
      const done = performance.now();
      outcomes.push({ i, status: 0, ms: done - t, doneAt: done, error: error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error) });
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return outcomes;
}

type Stored = { responses: Array<{ id: string; ip_address: string | null }>; jobs: Array<{ response_id: string | null; state: string }>; customers: number };

const QUERIES = {
  responses: `select id::text as id, ip_address from survey_responses where survey_config_id = ?`,
  jobs: `select data->>'responseId' as response_id, state::text as state from pgboss.job where name = 'reward-issue'`,
  customers: `select count(*)::int as n from customer_submissions where business_id = ?`,
};

/** Reads the stored rows with the server stopped: the project's openDatabase on the embedded data folder, or `pg` on --postgres's database. */
async function readStored(target: { businessId: string; surveyId: string }, where: { dataDir: string } | { url: string }): Promise<Stored> {
  if ('url' in where) {
    const c = new pg.Client({ connectionString: where.url });
    await c.connect();
    try {
      const q = async <T>(sql: string, params: unknown[] = []) => {
        let n = 0;
        return (await c.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
      };
      return {
        responses: await q(QUERIES.responses, [target.surveyId]),
        jobs: await q(QUERIES.jobs),
        customers: (await q<{ n: number }>(QUERIES.customers, [target.businessId]))[0]!.n,
      };
    } finally {
      await c.end();
    }
  }
  const db = await openDatabase({ dataDir: where.dataDir, poolMax: 1, logger: pino({ level: 'silent' }), migrate: false });
  try {
    const q = async <T>(sql: string, params: unknown[] = []) => (await db.orm.em.getConnection().execute(sql, params)) as T[];
    return {
      responses: await q(QUERIES.responses, [target.surveyId]),
      jobs: await q(QUERIES.jobs),
      customers: (await q<{ n: number }>(QUERIES.customers, [target.businessId]))[0]!.n,
    };
  } finally {
    await db.close();
  }
}

async function main() {
  checkNode();
  requireBuild();
  const count = Number(args.count);
  const concurrency = Number(args.concurrency);
  if (!Number.isInteger(count) || count < 1 || count > 65_536 || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error('--count must be an integer from 1 to 65536 and --concurrency a positive integer');
  }
  const database = args.postgres ? `external PostgreSQL (${new URL(process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432').host})` : 'embedded PostgreSQL';
  console.log(`survey submissions: ${count} to POST /api/survey/submit, ${concurrency} in flight, ${database}, job queue on; ${machine()}`);
  const maxWait = Number(args['max-wait']);

  const env: Record<string, string> = { TRUST_PROXY: 'loopback' };
  let pgdb: BenchDatabase | null = null;
  if (args.postgres) {
    pgdb = await createPostgresDatabase();
    cleanups.push(pgdb.drop);
    env.DATABASE_URL = pgdb.url;
  }
  const server = await spawnServer('production', env);
  // The data folder is kept at stop (the embedded database is read afterwards) and removed here.
  cleanups.push(async () => rmSync(server.dataDir, { recursive: true, force: true }));
  cleanups.push(() => server.stop({ keepDataDir: true }));
  await waitFor200(server, '/readyz', 90_000);
  const target = await createReachableSurvey(server.url);
  console.log(`  survey ${target.surveyId} of business ${target.businessId} (free trial, published, demo point of sale)`);

  const quietBefore = maxWait > 0 ? await waitForQuiet(maxWait) : null;
  const { value: outcomes, cost } = await measureRun(server, pgdb, () => submitAll(server, target, count, concurrency));
  const { wallS, peakKiB } = cost;

  const created = outcomes.filter((o) => o.status === 201);
  const failedOnes = outcomes.filter((o) => o.status !== 201);
  const statusCodes: Record<string, number> = {};
  for (const o of outcomes) statusCodes[o.status || 'error'] = (statusCodes[o.status || 'error'] ?? 0) + 1;
  const latencies = outcomes.map((o) => o.ms);
  // Sustained rate: completions after the first 10% (connection set-up, JIT) to the last one.
  const doneTimes = outcomes.map((o) => o.doneAt).sort((a, b) => a - b);
  const skip = Math.floor(count / 10);
  const steadyPerSec = count - skip > 1 ? (count - skip - 1) / ((doneTimes[count - 1]! - doneTimes[skip]!) / 1000) : count / wallS;
  const cpu = cost.cpuPctOfOneCore;
  const expectedJobs = created.filter((o) => o.rewardTier).length;

  console.log(`\nresults (${database}, ${count} submissions, ${concurrency} in flight):`);
  console.log(`  submissions/s       ${(count / wallS).toFixed(1)} over the whole run (${wallS.toFixed(1)} s), ${steadyPerSec.toFixed(1)} sustained (after the first 10%)`);
  console.log(`  latency             p50 ${Math.round(percentile(latencies, 50))} ms, p90 ${Math.round(percentile(latencies, 90))} ms, p99 ${Math.round(percentile(latencies, 99))} ms (median ${median(latencies).toFixed(1)}, max ${Math.round(Math.max(...latencies))})`);
  console.log(`  answers             ${created.length} x 201 of ${count}; codes ${JSON.stringify(statusCodes)}; ${expectedJobs} with a reward tier`);
  for (const o of failedOnes.slice(0, 5)) console.log(`    submission ${o.i}: ${o.status || 'no answer'} ${o.error ?? ''}`);
  console.log(
    `  CPU (% of one core) server ${cpu.server}%${cpu.postgresBackends === null ? '' : `, PostgreSQL backends ${cpu.postgresBackends}%`}, ` +
      `load generator ${cpu.loadGenerator}%, other processes ${cpu.otherProcesses}%; server peak RSS ${Math.round(peakKiB / 1024)} MiB`,
  );
  if (cpu.otherProcesses > 20) console.warn(`  warning: other processes used ${cpu.otherProcesses}% of a core during the run; these figures are noisy.`);

  // Nothing lost: stop the server, then read what it stored -------------------------------------
  await server.stop({ keepDataDir: true });
  const t = performance.now();
  const stored = await readStored(target, pgdb ? { url: pgdb.url } : { dataDir: server.dataDir });
  const answeredIds = new Set(created.map((o) => o.responseId).filter((id): id is string => Boolean(id)));
  const storedIds = new Set(stored.responses.map((r) => r.id));
  const jobIds = new Set(stored.jobs.map((j) => j.response_id).filter((id): id is string => Boolean(id)));
  const missingRows = [...answeredIds].filter((id) => !storedIds.has(id)).length;
  const extraRows = [...storedIds].filter((id) => !answeredIds.has(id)).length;
  const tierIds = new Set(created.filter((o) => o.rewardTier && o.responseId).map((o) => o.responseId!));
  const missingJobs = [...tierIds].filter((id) => !jobIds.has(id)).length;
  const extraJobs = [...jobIds].filter((id) => !tierIds.has(id)).length;
  const distinctIps = new Set(stored.responses.map((r) => r.ip_address)).size;
  const jobStates: Record<string, number> = {};
  for (const j of stored.jobs) jobStates[j.state] = (jobStates[j.state] ?? 0) + 1;
  const checks = {
    rowsEqual201: stored.responses.length === created.length && missingRows === 0 && extraRows === 0,
    jobsEqual201: stored.jobs.length === created.length && jobIds.size === created.length && missingJobs === 0 && extraJobs === 0,
    customersEqual201: stored.customers === created.length,
    ipsHonoured: distinctIps === created.length,
    all201: created.length === count,
  };
  console.log(`\nstored (read after the server stopped, ${((performance.now() - t) / 1000).toFixed(1)} s to open):`);
  console.log(`  survey_responses    ${stored.responses.length} rows (201s: ${created.length}; missing ${missingRows}, extra ${extraRows}): ${checks.rowsEqual201 ? 'OK' : 'MISMATCH'}`);
  console.log(`  reward-issue jobs   ${stored.jobs.length} in pgboss.job, states ${JSON.stringify(jobStates)} (missing ${missingJobs}, extra ${extraJobs}): ${checks.jobsEqual201 ? 'OK' : 'MISMATCH'}`);
  console.log(`  customer_submissions ${stored.customers} rows: ${checks.customersEqual201 ? 'OK' : 'MISMATCH'}`);
  console.log(`  client IPs          ${distinctIps} distinct ip_address values (X-Forwarded-For ${checks.ipsHonoured ? 'honoured' : 'NOT honoured'})`);
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          date: new Date().toISOString(),
          database,
          count,
          concurrency,
          otherCpuPctBeforeRun: quietBefore,
          wallS: Number(wallS.toFixed(2)),
          perSecOverall: Number((count / wallS).toFixed(1)),
          perSecSustained: Number(steadyPerSec.toFixed(1)),
          latencyMs: { p50: Math.round(percentile(latencies, 50)), p90: Math.round(percentile(latencies, 90)), p99: Math.round(percentile(latencies, 99)), max: Math.round(Math.max(...latencies)) },
          statusCodes,
          cpuPctOfOneCore: cpu,
          serverPeakRssMiB: Math.round(peakKiB / 1024),
          stored: { responses: stored.responses.length, rewardIssueJobs: stored.jobs.length, jobStates, customers: stored.customers, distinctIps },
          checks,
        },
        null,
        2,
      ),
    );
  }
  await cleanup();
  const ok = Object.values(checks).every(Boolean);
  if (!ok) {
    console.error('FAILED: ' + Object.entries(checks).filter(([, v]) => !v).map(([k]) => k).join(', '));
    process.exit(1);
  }
}

main().catch(async (error: unknown) => {
  console.error('submissions benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
