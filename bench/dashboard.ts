/**
 * The owner's dashboard against a plain page (issue 29): starts the production server (the embedded
 * PostgreSQL by default, or with --postgres a freshly created database on the local PostgreSQL,
 * dropped afterwards), makes an owner with a live survey (bench/customer-setup.ts
 * `createReachableSurvey`: sign-up, survey, free trial, published, the demo point of sale) and a few
 * customer submissions, then measures with autocannon `GET /` with the owner's session cookie (the
 * dashboard) and `GET /terms` without one (a plain page of the same server), alternating (dashboard,
 * terms, terms, dashboard, ... for --rounds rounds, each run after its own warm-up), and reports
 * each run, the median p99 per page and their ratio.
 *
 *   node bench/dashboard.ts [--postgres] [--connections 10] [--duration 10] [--warmup 3] [--rounds 3]
 *                           [--responses 6] [--max-wait 120] [--profile] [--only dashboard|plain] [--compare DIR]
 *                           [--json] [--strict]
 *
 * --profile  run the server with --cpu-prof; the .cpuprofile lands in bench/out/ when it stops.
 * --only     measure one page only (with --profile: a profile of that page alone).
 * --compare  also start the server of another checkout of the project (with its own node_modules and
 *            build, e.g. a `git worktree` of the commit before a change) and measure both in turns.
 *
 * Target: the dashboard's p99 at most 1.5x the plain page's (median over the rounds).
 * Exits 1 when the server does not start, the set-up fails or any request fails (non-2xx, error,
 * timeout, or a body that is not the expected page); 2 with --strict when the target is missed.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BAKERY_ANSWERS, createReachableSurvey, measure, report, startProductionServer, type AutocannonResult, type BenchDatabase, type Measured } from './customer-setup.ts';
import { checkNode, cleanupStack, machine, median, projectDir, requireBuild, waitForQuiet, type SpawnedServer } from './lib.ts';

const P99_RATIO_TARGET = 1.5;
const DISPLAY_NAME = 'Bench Dashboard Bakery';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    responses: { type: 'string', default: '6' },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '120' },
    profile: { type: 'boolean', default: false },
    only: { type: 'string' },
    compare: { type: 'string' },
  },
});

const { cleanups, cleanup } = cleanupStack();

async function main() {
  checkNode();
  requireBuild();
  const connections = Number(args.connections);
  const duration = Number(args.duration);
  const warmup = Number(args.warmup);
  const rounds = Number(args.rounds);
  const responses = Number(args.responses);
  if (!Number.isInteger(connections) || connections < 1 || !(duration > 0) || !(warmup >= 0) || !Number.isInteger(rounds) || rounds < 1 || !(responses >= 0)) {
    throw new Error('--connections and --rounds must be positive integers, --duration positive, --warmup and --responses >= 0');
  }
  const database = args.postgres ? `external PostgreSQL (${new URL(process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432').host})` : 'embedded PostgreSQL';
  console.log(`dashboard vs a plain page: ${database}, ${connections} connections, ${rounds} x ${duration} s per page (+${warmup} s warm-up each); ${machine()}`);

  if (args.profile) {
    mkdirSync(path.join(projectDir, 'bench/out'), { recursive: true });
    console.log(`  profiling the server(s): CPU profile(s) go to ${path.join(projectDir, 'bench/out')}`);
  }
  // This checkout, and with --compare another one (its own node_modules and build), measured in turns.
  const targets: Target[] = [await startTarget('this checkout', undefined)];
  if (args.compare) targets.push(await startTarget(`compare ${args.compare}`, path.resolve(args.compare)));

  const maxWait = Number(args['max-wait']);
  const quietBefore = maxWait > 0 ? await waitForQuiet(maxWait) : null;
  const opts = { connections, duration, warmup };
  const results: AutocannonResult[] = [];
  const runDashboard = async (t: Target) => {
    const r = await measure(t.server, t.pgdb, `${t.short} dashboard`, '/', DISPLAY_NAME, { ...opts, headers: { cookie: t.cookie } });
    t.dashRuns.push(r.measured);
    results.push(r.result);
    report(r.measured, t.dashRuns.length);
  };
  const runPlain = async (t: Target) => {
    const r = await measure(t.server, t.pgdb, `${t.short} /terms`, '/terms', 'Terms of Service', opts);
    t.plainRuns.push(r.measured);
    results.push(r.result);
    report(r.measured, t.plainRuns.length);
  };
  console.log(`\nload runs (${connections} connections, ${duration} s each, ${rounds} round(s), alternating):`);
  // Dashboard, plain, plain, dashboard, ...: a machine that gets busier or quieter hits both pages (and both checkouts) alike.
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) {
      if (args.only === 'dashboard') await runDashboard(t);
      else if (args.only === 'plain') await runPlain(t);
      else if (round % 2 === 0) {
        await runDashboard(t);
        await runPlain(t);
      } else {
        await runPlain(t);
        await runDashboard(t);
      }
    }
  }
  const summarize = (list: Measured[]) => ({
    requestsPerSec: Math.round(median(list.map((m) => m.requestsPerSec))),
    p50: median(list.map((m) => m.latencyMs.p50)),
    p99: median(list.map((m) => m.latencyMs.p99)),
    otherCpuPct: Math.max(...list.map((m) => m.cpuPctOfOneCore.otherProcesses)),
    // Server CPU (Node and the embedded PostgreSQL under it) per request: less exposed to a busy machine than latency.
    cpuMsPerRequest: Number(median(list.map((m) => ((m.cpuPctOfOneCore.server / 100) * duration * 1000) / Math.max(1, m.totalRequests))).toFixed(2)),
  });
  if (args.only) {
    await cleanup();
    return;
  }
  const summaries = targets.map((t) => {
    const dash = summarize(t.dashRuns);
    const plain = summarize(t.plainRuns);
    const ratio = dash.p99 / plain.p99;
    // Per round (the two runs next to each other), the ratio of p99s: less exposed to drift.
    const perRound = t.dashRuns.map((d, i) => Number((d.latencyMs.p99 / t.plainRuns[i]!.latencyMs.p99).toFixed(2)));
    return { label: t.label, dashboardHtmlKiB: t.htmlKiB, dashboard: { ...dash, runs: t.dashRuns }, plain: { ...plain, runs: t.plainRuns }, p99Ratio: Number(ratio.toFixed(2)), perRound, pass: ratio <= P99_RATIO_TARGET };
  });
  console.log(`\nsummary (median over ${rounds} run(s) per page):`);
  for (const { label, dashboard: dash, plain, p99Ratio, perRound, pass } of summaries) {
    console.log(`  ${label}`);
    console.log(`    dashboard /        ${dash.requestsPerSec} req/s, p50 ${dash.p50} ms, p99 ${dash.p99} ms, server CPU ${dash.cpuMsPerRequest} ms a request (other processes up to ${dash.otherCpuPct}% of a core)`);
    console.log(`    plain page /terms  ${plain.requestsPerSec} req/s, p50 ${plain.p50} ms, p99 ${plain.p99} ms, server CPU ${plain.cpuMsPerRequest} ms a request (other processes up to ${plain.otherCpuPct}% of a core)`);
    console.log(`    p99 dashboard / plain  ${p99Ratio.toFixed(2)} (per round: ${perRound.map((r) => r.toFixed(2)).join(', ')}); target <= ${P99_RATIO_TARGET}: ${pass ? 'PASS' : 'MISSED'}`);
    console.log(`    requests/s dashboard / plain  ${(dash.requestsPerSec / plain.requestsPerSec).toFixed(2)}; server CPU a request dashboard / plain ${(dash.cpuMsPerRequest / plain.cpuMsPerRequest).toFixed(2)}`);
  }
  if (args.json) {
    console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), database, connections, durationS: duration, rounds, otherCpuPctBeforeRun: quietBefore, target: P99_RATIO_TARGET, summaries }, null, 2));
  }
  const failed = results.some((r) => r['2xx'] === 0 || r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.mismatches > 0);
  await cleanup();
  if (failed) {
    console.error('FAILED: some requests did not return the expected page (see above).');
    process.exit(1);
  }
  if (args.strict && !summaries[0]!.pass) process.exit(2);
}

type Target = {
  label: string;
  short: string;
  server: SpawnedServer;
  pgdb: BenchDatabase | null;
  cookie: string;
  htmlKiB: number;
  dashRuns: Measured[];
  plainRuns: Measured[];
};

/** Starts the production server of a checkout (this one, or `cwd`), and makes its owner with a live survey and this week's responses. */
async function startTarget(label: string, cwd: string | undefined): Promise<Target> {
  const env: Record<string, string> = {};
  if (args.profile) env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${path.join(projectDir, 'bench/out')}`.trim();
  const { server, pgdb } = await startProductionServer(cleanups, { postgres: args.postgres, env, cwd });

  const owner = await createReachableSurvey(server.url, DISPLAY_NAME);
  const responses = Number(args.responses);
  for (let i = 0; i < responses; i++) {
    const res = await fetch(`${server.url}/api/survey/submit/${owner.businessId}/${owner.surveyId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': `10.78.0.${i + 1}` },
      body: JSON.stringify({ responses: BAKERY_ANSWERS, customerEmail: `dash${i}@example.com`, bypassSquare: true }),
    });
    if (res.status !== 201) throw new Error(`${label}: submission ${i + 1} failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
  }
  const page = await fetch(`${server.url}/`, { headers: { cookie: owner.cookie } });
  const html = await page.text();
  if (page.status !== 200 || !html.includes(DISPLAY_NAME)) throw new Error(`${label}: GET / with the session cookie did not render the dashboard (HTTP ${page.status})`);
  const terms = await fetch(`${server.url}/terms`);
  const termsHtml = await terms.text();
  if (terms.status !== 200 || !termsHtml.includes('Terms of Service')) throw new Error(`${label}: GET /terms: HTTP ${terms.status}, not the terms page`);
  console.log(`  ${label}: owner with a live survey and ${responses} response(s); dashboard ${(html.length / 1024).toFixed(1)} KiB HTML, /terms ${(termsHtml.length / 1024).toFixed(1)} KiB`);
  return { label, short: cwd ? 'cmp' : 'this', server, pgdb, cookie: owner.cookie, htmlKiB: Number((html.length / 1024).toFixed(1)), dashRuns: [], plainRuns: [] };
}

main().catch(async (error: unknown) => {
  console.error('dashboard benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
