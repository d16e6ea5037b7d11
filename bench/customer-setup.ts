/**
 * Shared set-up for the customer-side benchmarks (bench/customer-page.ts, bench/submissions.ts):
 * a throwaway PostgreSQL database for --postgres, and a survey a customer can reach, created over
 * HTTP the way an owner does it (sign up through the JSON API, create a survey, start the free
 * trial), and the cost of one measured run (measureRun). Not a test helper: nothing here asserts
 * beyond "the step answered as expected".
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { cpuByPid, cpuDelta, processTree, procStatusKiB, spawnServer, systemCpuSeconds, waitFor200, type SpawnedServer } from './lib.ts';

/** The slice of autocannon's programmatic API the benchmarks use (the package ships no types). */
export type Histogram = { average: number; mean: number; stddev: number; min: number; max: number; p50: number; p90: number; p99: number; p99_9: number };
export type AutocannonResult = Record<'1xx' | '2xx' | '3xx' | '4xx' | '5xx', number> & {
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  throughput: Histogram & { total: number };
  statusCodeStats: Record<string, { count: number }>;
};
export type AutocannonOptions = {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  timeout?: number;
  verifyBody?: (body: string) => boolean;
};
const require = createRequire(import.meta.url);
export const autocannon = require('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

export const adminUrl = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type BenchDatabase = {
  name: string;
  url: string;
  /** The server's pool connections to this database (local PostgreSQL only), to count their CPU. */
  backendPids(): Promise<number[]>;
  /** DROP DATABASE ... WITH (FORCE). */
  drop(): Promise<void>;
};

/**
 * The production server, ready (`/readyz` answered 200): on the embedded PostgreSQL, or with
 * `postgres` on a throwaway database of the local PostgreSQL. Its stop and the database's drop go
 * on `cleanups` (the server stops first).
 */
export async function startProductionServer(
  cleanups: Array<() => Promise<void>>,
  options: { postgres: boolean; env?: Record<string, string>; cwd?: string },
): Promise<{ server: SpawnedServer; pgdb: BenchDatabase | null }> {
  const env: Record<string, string> = { ...options.env };
  let pgdb: BenchDatabase | null = null;
  if (options.postgres) {
    pgdb = await createPostgresDatabase();
    cleanups.push(pgdb.drop);
    env.DATABASE_URL = pgdb.url;
  }
  const server = await spawnServer('production', env, { cwd: options.cwd });
  cleanups.push(() => server.stop());
  await waitFor200(server, '/readyz', 90_000);
  return { server, pgdb };
}

/** Creates a throwaway database on the local PostgreSQL (BENCH_PG_ADMIN_URL). The caller registers drop() as a cleanup. */
export async function createPostgresDatabase(): Promise<BenchDatabase> {
  const name = `rl_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async <T>(fn: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    backendPids: () =>
      admin(async (c) => (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name])).rows.map((r) => r.pid)),
    drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}

/** The answers every bench submission sends (the bakery template's questions; Silver). */
export const BAKERY_ANSWERS = {
  overall_rating: 5,
  recommend: 'yes',
  visit_frequency: 'Weekly',
  service_rating: 4,
  favorite_item: 'The almond croissant, always warm',
  atmosphere_rating: 5,
  value_rating: 4,
  improvement_suggestions: 'Open a little earlier on weekdays please.',
};

/** A valid survey for the JSON API (tests/setup/factories.ts surveyBody()), amounts in cents. */
export const SURVEY_TITLE = 'Bench spring feedback';
export const surveyBody = () => ({
  title: SURVEY_TITLE,
  rewardMode: 'preset_2',
  redemptionWebsite: 'https://crumbandco.com',
  surveyFrequencyDays: 90,
  selectedReviewPlatforms: ['google'],
  reviewUrls: { google: 'https://g.page/r/crumb/review' },
  selectedSocialPlatforms: ['instagram'],
  socialHandles: { instagram: '@crumbandco' },
  customQuestions: [],
});

export type ReachableSurvey = { cookie: string; businessId: string; surveyId: string; email: string };

async function describe(res: Response): Promise<string> {
  return `HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`;
}

/**
 * Signs up an owner (POST /api/auth/signup), creates a survey (POST /api/survey/builder-config)
 * starts the free trial through the fake checkout (BILLING=fake), publishes it and connects the demo
 * point of sale (POS=demo, no location: Test cards), all with an Origin header equal to the server
 * URL: customers reach it like any published survey.
 */
export async function createReachableSurvey(baseUrl: string, displayName = 'Bench Bakery'): Promise<ReachableSurvey> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const signup = await fetch(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl },
    body: JSON.stringify({ email, password, confirmPassword: password, displayName, terms: true }),
  });
  const cookie = signup.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('rl_session='));
  if (signup.status !== 201 || !cookie) throw new Error(`sign-up failed (${cookie ? 'cookie present' : 'no rl_session cookie'}): ${await describe(signup)}`);
  await signup.arrayBuffer();

  const created = await fetch(`${baseUrl}/api/survey/builder-config`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl, cookie },
    body: JSON.stringify(surveyBody()),
  });
  if (created.status !== 201) throw new Error(`creating the survey failed: ${await describe(created)}`);
  const survey = (await created.json()) as { id: string; businessId: string };

  // The free trial through the fake checkout (BILLING=fake): the plan, the test card, the completion.
  const post = (path: string, body: unknown, withCookie = true) =>
    fetch(baseUrl + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: baseUrl, ...(withCookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const checkout = await post('/api/create-subscription-existing', { planId: 'starter', isYearly: true, surveyId: survey.id });
  if (checkout.status !== 201) throw new Error(`starting the checkout failed: ${await describe(checkout)}`);
  const { setupIntentId, clientSecret } = (await checkout.json()) as { setupIntentId: string; clientSecret: string };
  const card = await post('/api/billing/fake/confirm-setup', { clientSecret, cardNumber: '4242 4242 4242 4242' }, false);
  if (card.status !== 200) throw new Error(`the test card was refused: ${await describe(card)}`);
  await card.arrayBuffer();
  const completed = await post('/api/subscription-complete', { setupIntentId });
  if (completed.status !== 200) throw new Error(`completing the trial failed: ${await describe(completed)}`);
  await completed.arrayBuffer();
  // Published means published (issue 14): customers reach only a survey its owner published.
  const published = await post('/api/survey/publish', { surveyId: survey.id });
  if (published.status !== 200) throw new Error(`publishing the survey failed: ${await describe(published)}`);
  await published.arrayBuffer();
  // Customers reach a published survey once Square is connected (the spec's Available): the demo
  // point of sale's consent (POS=demo), as an owner clicks through it; no location, so Test cards.
  const auth = await fetch(`${baseUrl}/api/square/auth`, { headers: { cookie, Origin: baseUrl }, redirect: 'manual' });
  const consent = auth.headers.get('Location');
  if (auth.status !== 302 || !consent?.includes('state=')) throw new Error(`starting the Square connection failed: ${await describe(auth)}`);
  const allow = await fetch(new URL(consent, baseUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseUrl, cookie },
    body: new URLSearchParams({ state: new URL(consent, baseUrl).searchParams.get('state')!, intent: 'allow' }).toString(),
    redirect: 'manual',
  });
  const callback = allow.headers.get('Location');
  if (allow.status !== 302 || !callback?.includes('code=')) throw new Error(`the demo consent failed: ${await describe(allow)}`);
  const connected = await fetch(new URL(callback, baseUrl), { headers: { cookie }, redirect: 'manual' });
  if (connected.status !== 302) throw new Error(`the Square callback failed: ${await describe(connected)}`);
  await connected.arrayBuffer();
  // The proof is that the page now renders.
  const reachable = { cookie, businessId: survey.businessId, surveyId: survey.id, email };
  const page = await fetch(baseUrl + previewPath(reachable));
  const html = await page.text();
  if (page.status !== 200 || !html.includes(SURVEY_TITLE)) {
    throw new Error(`the survey is not reachable after starting the trial (GET ${previewPath(reachable)}: HTTP ${page.status}${html.includes('Survey Not Found') ? ', Survey Not Found' : ''})`);
  }
  return reachable;
}

/** The owner's preview URL of the customer survey (the same page customers get, Square waived). */
export const previewPath = (s: Pick<ReachableSurvey, 'businessId' | 'surveyId'>) => `/survey/public/${s.businessId}/${s.surveyId}?bypass_square=true`;

/** What one measured run cost: wall time, the server's peak RSS, and CPU split by who used it (percent of one core). */
export type RunCost = {
  wallS: number;
  peakKiB: number;
  cpuPctOfOneCore: { server: number; postgresBackends: number | null; loadGenerator: number; otherProcesses: number };
};

/**
 * Runs `work` against the server while sampling its RSS every 100 ms and counting CPU: the server's
 * process tree, the PostgreSQL backends of `pgdb` (opened during the run included), this process
 * (the load generator), and the rest of the machine. Throws if the server died during the run.
 */
export async function measureRun<T>(server: SpawnedServer, pgdb: BenchDatabase | null, work: () => Promise<T>): Promise<{ value: T; cost: RunCost }> {
  const pid = server.child.pid!;
  let peakKiB = 0;
  const sample = () => {
    const rss = procStatusKiB(pid)?.VmRSS;
    if (rss !== undefined) peakKiB = Math.max(peakKiB, rss);
  };
  const poller = setInterval(sample, 100);
  const serverPids = processTree(pid);
  const backendPids = pgdb ? await pgdb.backendPids() : [];
  const serverCpu0 = cpuByPid(serverPids);
  const backendCpu0 = cpuByPid(backendPids);
  const machine0 = systemCpuSeconds();
  const self0 = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const wallS = (performance.now() - started) / 1000;
  const self = process.cpuUsage(self0);
  const machine1 = systemCpuSeconds();
  const serverCpuS = cpuDelta(serverCpu0, cpuByPid(serverPids));
  // Backends the server's pool opened during the run count from zero (the pool closes idle connections).
  const backendPidsAfter = pgdb ? await pgdb.backendPids() : [];
  const backendCpuS = cpuDelta(backendCpu0, cpuByPid([...new Set([...backendPids, ...backendPidsAfter])]));
  clearInterval(poller);
  sample();
  if (!procStatusKiB(pid)) {
    throw new Error(`the server process exited during the run (code ${server.child.exitCode}, signal ${server.child.signalCode}):\n${server.output()}`);
  }
  const pct = (seconds: number) => Math.round((seconds / wallS) * 100);
  const loadgenCpuS = (self.user + self.system) / 1e6;
  const otherCpuS = Math.max(0, machine1.busy - machine0.busy - serverCpuS - backendCpuS - loadgenCpuS);
  return {
    value,
    cost: {
      wallS,
      peakKiB,
      cpuPctOfOneCore: { server: pct(serverCpuS), postgresBackends: pgdb ? pct(backendCpuS) : null, loadGenerator: pct(loadgenCpuS), otherProcesses: pct(otherCpuS) },
    },
  };
}

/** One measured autocannon run of one page (bench/customer-page.ts, bench/dashboard.ts). */
export type Measured = {
  label: string;
  path: string;
  requestsPerSec: number;
  totalRequests: number;
  latencyMs: { avg: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  statusCodes: Record<string, number>;
  cpuPctOfOneCore: { server: number; postgresBackends: number | null; loadGenerator: number; otherProcesses: number };
  peakRssMiB: number | null;
};

/**
 * A warm-up (discarded), then one measured autocannon run of `urlPath`; every body must contain
 * `expect` (plain HTML only). `opts.headers`: e.g. the owner's session cookie.
 */
export async function measure(
  server: SpawnedServer,
  pgdb: BenchDatabase | null,
  label: string,
  urlPath: string,
  expect: string,
  opts: { connections: number; duration: number; warmup: number; encoding?: string; headers?: Record<string, string> },
): Promise<{ measured: Measured; result: AutocannonResult }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.encoding) headers['accept-encoding'] = opts.encoding;
  // Plain HTML is checked for the expected text; compressed bytes cannot be.
  const verifyBody = opts.encoding ? undefined : (body: string) => body.includes(expect);
  const base = { url: server.url + urlPath, connections: opts.connections, headers, timeout: 10, verifyBody };
  if (opts.warmup > 0) await autocannon({ ...base, duration: opts.warmup });

  const { value: result, cost } = await measureRun(server, pgdb, () => autocannon({ ...base, duration: opts.duration }));
  return {
    result,
    measured: {
      label,
      path: urlPath,
      requestsPerSec: Math.round(result.requests.average),
      totalRequests: result.requests.total,
      latencyMs: { avg: result.latency.average, p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      mismatches: result.mismatches,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count])),
      cpuPctOfOneCore: cost.cpuPctOfOneCore,
      peakRssMiB: cost.peakKiB ? Math.round(cost.peakKiB / 1024) : null,
    },
  };
}

/** Prints one measured run (two lines). */
export function report(m: Measured, n: number) {
  const cpu = m.cpuPctOfOneCore;
  console.log(
    `  ${`${m.label} #${n}`.padEnd(15)} ${String(m.requestsPerSec).padStart(5)} req/s; p50 ${m.latencyMs.p50} ms, p90 ${m.latencyMs.p90} ms, p99 ${m.latencyMs.p99} ms (max ${m.latencyMs.max}); ` +
      `non-2xx ${m.non2xx}, errors ${m.errors}, timeouts ${m.timeouts}, wrong body ${m.mismatches}`,
  );
  console.log(
    `  ${''.padEnd(15)} CPU (% of a core) server ${cpu.server}%${cpu.postgresBackends === null ? '' : `, PostgreSQL backends ${cpu.postgresBackends}%`}, ` +
      `load generator ${cpu.loadGenerator}%, other processes ${cpu.otherProcesses}%${cpu.otherProcesses > 20 ? ' (noisy)' : ''}; server peak RSS ${m.peakRssMiB ?? '?'} MiB`,
  );
}
