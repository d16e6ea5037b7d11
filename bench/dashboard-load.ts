/**
 * Dashboard under load: starts the production server (the embedded PostgreSQL by default, or with
 * --postgres a freshly created database on the local PostgreSQL, dropped afterwards), signs up
 * one owner, warms up, then runs autocannon against `GET /` with the session cookie and reports
 * requests/s, latency percentiles, non-2xx responses, server CPU and the server's peak memory.
 *
 *   node bench/dashboard-load.ts [--postgres] [--connections 20] [--duration 15] [--warmup 3]
 *                                [--restart] [--accept-encoding VALUE] [--profile] [--json]
 *                                [--strict] [--max-wait 300]
 *
 * --restart  boot once to create the database, stop, and measure a second boot on the same
 *            DATA_DIR / database (what a restarted production server looks like).
 * --accept-encoding  send this Accept-Encoding, e.g. 'gzip' or a browser's 'gzip, deflate, br, zstd'
 *            (the compression middleware then answers with Brotli). Default: none, plain HTML.
 * --profile  run the server with --cpu-prof; the .cpuprofile lands in bench/out/ (open it in
 *            Chrome DevTools or speedscope).
 * --max-wait before the measured run, wait up to this many seconds for other processes on the
 *            machine to go quiet (under 20% of a core); 0 to not wait.
 * BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where --postgres
 * creates and drops its database.
 *
 * Exits 1 when the server does not start, sign-up fails or any request fails (non-2xx, error,
 * timeout, or a body that is not the dashboard); 2 with --strict when the p99 target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  checkNode,
  cpuByPid,
  cpuDelta,
  machine,
  mib,
  cleanupStack,
  processTree,
  procStatusKiB,
  projectDir,
  requireBuild,
  spawnServer,
  systemCpuSeconds,
  waitFor200,
  waitForQuiet,
  type SpawnedServer,
} from './lib.ts';
import { autocannon } from './customer-setup.ts';

const P99_TARGET_MS = 50;
const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DISPLAY_NAME = 'Bench Bakery';

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    connections: { type: 'string', default: '20' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    restart: { type: 'boolean', default: false },
    'accept-encoding': { type: 'string' },
    profile: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '300' },
  },
});

const { cleanups, cleanup } = cleanupStack();

/** Creates a throwaway database on the local PostgreSQL; registers its DROP as a cleanup. */
async function createPostgresDatabase(): Promise<{ url: string; backendPids: () => Promise<number[]> }> {
  const name = `rl_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // The server's pool connections to this database, to count their CPU (local server only).
  const backendPids = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
      return r.rows.map((row) => row.pid);
    } finally {
      await c.end();
    }
  };
  return { url: url.toString(), backendPids };
}

async function startProduction(env: Record<string, string>, dataDir?: string): Promise<SpawnedServer> {
  const server = await spawnServer('production', env, { dataDir });
  cleanups.push(() => server.stop());
  await waitFor200(server, '/readyz', 90_000);
  return server;
}

/** Signs up one owner through the real form; returns the `rl_session=...` cookie pair. */
async function signUp(baseUrl: string): Promise<string> {
  const password = randomBytes(12).toString('base64url');
  const body = new URLSearchParams({
    intent: 'signup',
    displayName: DISPLAY_NAME,
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password,
    confirmPassword: password,
    terms: 'on',
  });
  const res = await fetch(`${baseUrl}/auth`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseUrl },
    redirect: 'manual',
  });
  const text = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('rl_session='));
  if (res.status !== 302 || !cookie) {
    throw new Error(`sign-up failed: HTTP ${res.status}, Set-Cookie ${cookie ? 'present' : 'missing'}\n${text.slice(0, 500)}`);
  }
  return cookie;
}

function startRssPoller(pid: number, everyMs = 100) {
  let peakKiB = 0;
  const sample = () => {
    const status = procStatusKiB(pid);
    if (status?.VmRSS !== undefined) peakKiB = Math.max(peakKiB, status.VmRSS);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peakKiB;
    },
  };
}

async function main() {
  checkNode();
  requireBuild();
  const connections = Number(args.connections);
  const duration = Number(args.duration);
  const warmup = Number(args.warmup);
  if (!Number.isInteger(connections) || connections < 1 || !(duration > 0) || !(warmup >= 0)) {
    throw new Error('--connections must be a positive integer, --duration positive and --warmup >= 0 (seconds)');
  }
  const database = args.postgres ? `external PostgreSQL (${new URL(adminUrl).host})` : 'embedded PostgreSQL';
  console.log(`dashboard load: GET / as a signed-in owner, ${database}, ${connections} connections, ${duration} s (+${warmup} s warm-up); ${machine()}`);
  const maxWait = Number(args['max-wait']);

  const env: Record<string, string> = {};
  const pgdb = args.postgres ? await createPostgresDatabase() : null;
  if (pgdb) env.DATABASE_URL = pgdb.url;
  if (args.profile) {
    const dir = path.join(projectDir, 'bench/out');
    mkdirSync(dir, { recursive: true });
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${dir}`.trim();
    console.log(`  profiling the server: CPU profile(s) go to ${dir}`);
  }

  let server = await startProduction(env);
  if (args.restart) {
    // First boot creates the database (and, embedded, runs initdb); measure a normal restart.
    await server.stop({ keepDataDir: true });
    server = await startProduction(env, server.dataDir);
    console.log('  restarted on the same data; measuring the second boot');
  }
  const pid = server.child.pid!;
  const bootStatus = procStatusKiB(pid);

  const cookie = await signUp(server.url);
  const headers: Record<string, string> = { cookie };
  const encoding = args['accept-encoding'];
  if (encoding) headers['accept-encoding'] = encoding;
  const check = await fetch(`${server.url}/`, { headers: { cookie } });
  const html = await check.text();
  if (check.status !== 200 || !html.includes(DISPLAY_NAME)) {
    throw new Error(`GET / with the session cookie did not render the dashboard (HTTP ${check.status})`);
  }
  console.log(`  signed up; dashboard page ${(html.length / 1024).toFixed(1)} KiB uncompressed; RSS after boot ${bootStatus ? mib(bootStatus.VmRSS ?? 0) : '?'}`);

  const base = { url: `${server.url}/`, connections, headers, timeout: 10 };
  // Plain HTML is checked for the owner's name; compressed bytes cannot be.
  const verifyBody = encoding ? undefined : (body: string) => body.includes(DISPLAY_NAME);
  const quietBefore = maxWait > 0 ? await waitForQuiet(maxWait) : null;
  const rss = startRssPoller(pid);
  if (warmup > 0) await autocannon({ ...base, duration: warmup, verifyBody });

  // CPU accounting over the measured run: the server (and any children), the PostgreSQL backends
  // serving it (--postgres), this process (autocannon), and whatever else the machine ran.
  const serverPids = processTree(pid);
  const backendPids = pgdb ? await pgdb.backendPids() : [];
  const serverCpu0 = cpuByPid(serverPids);
  const backendCpu0 = cpuByPid(backendPids);
  const machine0 = systemCpuSeconds();
  const self0 = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({ ...base, duration, verifyBody });
  const wallS = (performance.now() - started) / 1000;
  const self = process.cpuUsage(self0);
  const machine1 = systemCpuSeconds();
  const serverCpuS = cpuDelta(serverCpu0, cpuByPid(serverPids));
  const backendCpuS = cpuDelta(backendCpu0, cpuByPid(backendPids));
  const peakRssDuringLoadKiB = rss.stop();
  const endStatus = procStatusKiB(pid);
  if (!endStatus) {
    throw new Error(`the server process exited during the run (code ${server.child.exitCode}, signal ${server.child.signalCode}):\n${server.output()}`);
  }

  const pct = (seconds: number) => Math.round((seconds / wallS) * 100);
  const loadgenCpuS = (self.user + self.system) / 1e6;
  const otherCpuS = Math.max(0, machine1.busy - machine0.busy - serverCpuS - backendCpuS - loadgenCpuS);
  const summary = {
    database,
    restart: args.restart,
    acceptEncoding: encoding ?? null,
    connections,
    durationS: duration,
    requestsPerSec: Math.round(result.requests.average),
    totalRequests: result.requests.total,
    latencyMs: { avg: result.latency.average, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])),
    cpuPctOfOneCore: {
      server: pct(serverCpuS),
      postgresBackends: pgdb ? pct(backendCpuS) : null,
      loadGenerator: pct(loadgenCpuS),
      otherProcesses: pct(otherCpuS),
    },
    otherCpuPctBeforeRun: quietBefore,
    rssAfterBootMiB: bootStatus?.VmRSS ? Math.round(bootStatus.VmRSS / 1024) : null,
    peakRssDuringLoadMiB: Math.round(peakRssDuringLoadKiB / 1024),
    peakRssLifetimeMiB: endStatus.VmHWM ? Math.round(endStatus.VmHWM / 1024) : null,
    p99TargetMs: P99_TARGET_MS,
    pass: result.latency.p99 < P99_TARGET_MS,
  };

  console.log(`\nresults (${database}${args.restart ? ', restarted server' : ''}${encoding ? `, Accept-Encoding: ${encoding}` : ''}):`);
  console.log(`  requests/s          ${summary.requestsPerSec} (total ${summary.totalRequests} in ${duration} s)`);
  console.log(`  latency             p50 ${summary.latencyMs.p50} ms, p90 ${summary.latencyMs.p90} ms, p99 ${summary.latencyMs.p99} ms (avg ${summary.latencyMs.avg.toFixed(1)}, max ${summary.latencyMs.max})`);
  console.log(`  non-2xx             ${summary.non2xx} (errors ${summary.errors}, timeouts ${summary.timeouts}, wrong body ${summary.mismatches}; codes ${JSON.stringify(summary.statusCodes)})`);
  const cpu = summary.cpuPctOfOneCore;
  console.log(
    `  CPU (% of one core) server ${cpu.server}%${cpu.postgresBackends === null ? '' : `, PostgreSQL backends ${cpu.postgresBackends}%`}, ` +
      `load generator ${cpu.loadGenerator}%, other processes ${cpu.otherProcesses}%`,
  );
  if (cpu.otherProcesses > 20) console.warn(`  warning: other processes used ${cpu.otherProcesses}% of a core during the run; these figures are noisy.`);
  console.log(`  server RSS          after boot ${summary.rssAfterBootMiB ?? '?'} MiB, peak during load ${summary.peakRssDuringLoadMiB} MiB, peak over the process lifetime (VmHWM) ${summary.peakRssLifetimeMiB ?? '?'} MiB`);
  console.log(`  p99 target < ${P99_TARGET_MS} ms at ${connections} connections: ${summary.pass ? 'PASS' : 'MISSED'}`);
  if (args.json) console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), ...summary }, null, 2));

  const failed = result['2xx'] === 0 || result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.mismatches > 0;
  await cleanup();
  if (failed) {
    console.error('FAILED: some requests did not return the dashboard (see above).');
    process.exit(1);
  }
  if (!summary.pass && args.strict) process.exit(2);
}

main().catch(async (error: unknown) => {
  console.error('dashboard-load benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
