/**
 * Two instances on one database, under load and through a crash (issue 26's load and fault suites).
 *
 * 1. **Load**: two production servers (`node server/index.ts`, each with its job workers) on one
 *    fresh database of the local PostgreSQL, as two hosts of one deployment run them (the same
 *    SESSION_SECRET and TOKEN_ENCRYPTION_KEY, a DATA_DIR each, the mail outbox and uploads in the
 *    database). An owner's survey is made reachable through instance A. Then --customers virtual
 *    customers for --seconds: each opens the survey page on one instance and submits on the other
 *    (`POST /api/survey/submit/…`, its own email and client address), then starts again as a new
 *    customer. With --kill, instance B is killed with SIGKILL a third of the way through (requests
 *    in flight on it die; their customers retry on A, as a load balancer does) and restarted at two
 *    thirds. With --pg-restart, the database is a throwaway PostgreSQL server the script starts
 *    itself (the embedded one, in a temp folder), stopped at half-time and started again 5 s later
 *    on the same port. Customers whose request got no answer or a 5xx retry (on the other instance,
 *    up to 10 times, a second apart). Reported: submissions answered, p50/p99 of pages and
 *    submissions, the retries.
 * 2. **Exactly once**: after the load, A stays up until every reward job has run (--drain seconds at
 *    most), then both stop and the database is read: one stored response per customer whose
 *    submission was answered 201 (or, after a retry, 409 "already submitted": stored by the attempt
 *    whose answer was lost), no other; per rewarded response one gift card (a unique constraint) or
 *    a hold for the owner; one reward email per card (the outbox in the database), none twice.
 * 3. **Workers** (unless --no-workers): the customer page served by one instance with
 *    WEB_CONCURRENCY=1 and then 2 (autocannon, --connections, 10 s after a 3 s warm-up), --rounds
 *    times interleaved; the ratio of each round and their median. --accept-encoding sends that
 *    header on those runs (`"gzip, deflate, br"` is what a phone's browser sends; default none:
 *    plain HTML).
 *
 *   node bench/instances.ts [--customers 200] [--seconds 60] [--kill] [--pg-restart] [--drain 120] [--no-workers] [--rounds 1] [--accept-encoding VALUE] [--json]
 *
 * BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where the database is
 * created and dropped. Exits 1 when it cannot measure or a check fails.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../server/embedded-postgres.ts';
import { autocannon, BAKERY_ANSWERS, createPostgresDatabase, createReachableSurvey } from './customer-setup.ts';
import { checkNode, cleanupStack, machine, median, percentile, requireBuild, spawnServer, waitFor200, waitForQuiet, type SpawnedServer } from './lib.ts';

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    kill: { type: 'boolean', default: false },
    'pg-restart': { type: 'boolean', default: false },
    drain: { type: 'string', default: '120' },
    'no-workers': { type: 'boolean', default: false },
    connections: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '1' },
    'accept-encoding': { type: 'string' },
    json: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '120' },
  },
});

const { cleanups, cleanup } = cleanupStack();

/** One deployment's settings: what every instance shares. */
const SHARED = {
  SESSION_SECRET: 'bench-instances-secret-0123456789abcdef',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  ALLOW_DEMO_ADAPTERS: 'true',
  SCREENSHOT_VERIFIER: 'fake',
};

/** A distinct client address per customer: 10.x.y.z. */
const clientIp = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

type Attempt = { status: number; ms: number; instance: 'A' | 'B'; error?: string };
type Customer = { i: number; email: string; page?: Attempt; submits: Attempt[]; responseId?: string; rewardTier?: string | null; stored: 'answered' | 'already' | 'lost' };

async function request(url: string, init: RequestInit): Promise<{ status: number; ms: number; body: string; error?: string }> {
  const t = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - t, body };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return { status: 0, ms: performance.now() - t, body: '', error: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

async function startInstance(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const server = await spawnServer('production', { ...SHARED, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', ...env });
  cleanups.push(() => server.stop());
  // An instance that ends by itself (not by our SIGTERM or SIGKILL) is a finding: say why.
  server.child.once('exit', (code, signal) => {
    if (signal === 'SIGKILL' || signal === 'SIGTERM' || (code === 0 && signal === null)) return;
    console.error(`instance ${name} exited by itself (code ${code}, signal ${signal}); its last output:\n${server.output().slice(-3000)}`);
  });
  await waitFor200(server, '/readyz', 60_000).catch((error: unknown) => {
    throw new Error(`instance ${name} did not become ready: ${error instanceof Error ? error.message : error}\n${server.output().slice(-2000)}`);
  });
  return server;
}

async function sql<T>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

async function main() {
  checkNode();
  requireBuild();
  const customersInFlight = Number(args.customers);
  const seconds = Number(args.seconds);
  const quietBefore = await waitForQuiet(Number(args['max-wait']));
  let restartDatabase: (() => Promise<void>) | null = null;
  let db: { url: string };
  if (args['pg-restart']) {
    // A server of our own, so stopping it touches nothing else on the machine.
    const dir = mkdtempSync(path.join(tmpdir(), 'rl-bench-pg-'));
    const logger = pino({ level: 'warn' });
    let server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), logger, mode: 'fast' });
    cleanups.push(async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    db = { url: server.url };
    restartDatabase = async () => {
      await server.stop();
      await new Promise((r) => setTimeout(r, 5_000));
      server = await startEmbeddedPostgres({ dir: path.join(dir, 'postgres'), logger, mode: 'fast' });
      if (server.url !== db.url) throw new Error(`the restarted PostgreSQL listens elsewhere (${server.port})`);
    };
  } else {
    const created = await createPostgresDatabase();
    cleanups.push(() => created.drop());
    db = created;
  }

  // 1. Load over two instances ---------------------------------------------------------------
  const a = await startInstance('A', db.url);
  let b = await startInstance('B', db.url);
  const survey = await createReachableSurvey(a.url, 'Two Instance Bakery');
  const pagePath = `/survey/public/${survey.businessId}/${survey.surveyId}`;
  const submitPath = `/api/survey/submit/${survey.businessId}/${survey.surveyId}`;
  const instances = () => ({ A: a, B: b });
  let bDown = false;
  const events: string[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let next = 0;
  const customers: Customer[] = [];

  const one = async (i: number) => {
    const email = `load-${i}@example.com`;
    const customer: Customer = { i, email, submits: [], stored: 'lost' };
    customers.push(customer);
    const headers = { 'X-Forwarded-For': clientIp(i), 'User-Agent': 'rewardloop-bench/instances' };
    // The page on one instance, the submission on the other (a load balancer's choice).
    const first: 'A' | 'B' = i % 2 === 0 ? 'A' : 'B';
    const pageOn = first === 'B' && bDown ? 'A' : first;
    const page = await request(instances()[pageOn].url + pagePath, { headers });
    customer.page = { status: page.status, ms: page.ms, instance: pageOn, error: page.error };
    let submitOn: 'A' | 'B' = pageOn === 'A' && !bDown ? 'B' : 'A';
    const attempts = args['pg-restart'] ? 10 : 3;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0 && args['pg-restart']) await new Promise((r) => setTimeout(r, 1_000));
      const target = instances()[submitOn];
      const res = await request(target.url + submitPath, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', Origin: target.url },
        body: JSON.stringify({ responses: BAKERY_ANSWERS, customerEmail: email }),
      });
      customer.submits.push({ status: res.status, ms: res.ms, instance: submitOn, error: res.error ?? (res.status >= 400 ? res.body.slice(0, 160) : undefined) });
      if (res.status === 201) {
        const body = JSON.parse(res.body) as { responseId: string; rewardTier: string | null };
        customer.responseId = body.responseId;
        customer.rewardTier = body.rewardTier;
        customer.stored = 'answered';
        return;
      }
      // A retry whose first attempt was stored but never answered: the survey says "already".
      if (res.status === 409 && attempt > 0) {
        customer.stored = 'already';
        return;
      }
      if (res.status !== 0 && res.status < 500) return;
      // No answer (the instance died) or 5xx: retry on the other instance, as a load balancer does.
      submitOn = submitOn === 'A' ? 'B' : 'A';
      if (submitOn === 'B' && bDown) submitOn = 'A';
    }
  };

  const killer = args.kill
    ? (async () => {
        await new Promise((r) => setTimeout(r, (seconds * 1000) / 3));
        bDown = true;
        b.child.kill('SIGKILL');
        events.push(`${((performance.now() - started) / 1000).toFixed(1)} s: instance B killed with SIGKILL`);
        await new Promise((r) => setTimeout(r, (seconds * 1000) / 3));
        b = await startInstance('B', db.url);
        bDown = false;
        events.push(`${((performance.now() - started) / 1000).toFixed(1)} s: instance B restarted and ready`);
      })()
    : restartDatabase
      ? (async () => {
          await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
          events.push(`${((performance.now() - started) / 1000).toFixed(1)} s: PostgreSQL stopped`);
          await restartDatabase();
          events.push(`${((performance.now() - started) / 1000).toFixed(1)} s: PostgreSQL started again`);
        })()
      : Promise.resolve();

  await Promise.all(
    Array.from({ length: customersInFlight }, async () => {
      while (performance.now() < deadline) await one(next++);
    }),
  );
  await killer;
  const wallS = (performance.now() - started) / 1000;

  // 2. Exactly once: let the reward jobs finish, then read the database ------------------------
  const answered = customers.filter((c) => c.stored === 'answered');
  const already = customers.filter((c) => c.stored === 'already');
  const drainDeadline = performance.now() + Number(args.drain) * 1000;
  type Progress = { pending: number };
  const pendingJobs = async () =>
    (await sql<Progress>(db.url, `select count(*)::int as pending from pgboss.job where name in ('reward-issue', 'reward-email') and state in ('created', 'retry', 'active')`))[0]!.pending;
  while ((await pendingJobs()) > 0 && performance.now() < drainDeadline) await new Promise((r) => setTimeout(r, 1000));
  const drainS = (performance.now() - started) / 1000 - wallS;
  await a.stop();
  await b.stop();

  const responses = await sql<{ id: string; email: string }>(db.url, `select id::text as id, lower(customer_email) as email from survey_responses where survey_config_id = $1`, [survey.surveyId]);
  const cards = await sql<{ response: string; emailed: boolean }>(db.url, `select survey_response_id::text as response, emailed_at is not null as emailed from gift_card_issuances where business_id = $1`, [survey.businessId]);
  const holds = await sql<{ response: string }>(db.url, `select survey_response_id::text as response from reward_holds where business_id = $1 and status in ('held', 'awaiting_email')`, [survey.businessId]);
  const [waits] = await sql<{ p50: number; max: number }>(
    db.url,
    `select percentile_cont(0.5) within group (order by w)::float8 as p50, max(w)::float8 as max
       from (select extract(epoch from i.emailed_at - r.submitted_at) as w from gift_card_issuances i join survey_responses r on r.id = i.survey_response_id where i.business_id = $1 and i.emailed_at is not null) t`,
    [survey.businessId],
  );
  const mails = await sql<{ to: string; n: number }>(db.url, `select lower(data->>'to') as to, count(*)::int as n from demo.objects where kind = 'mail' and data->>'subject' ilike '%gift card from%' group by 1`);

  const storedEmails = new Map<string, number>();
  for (const r of responses) storedEmails.set(r.email, (storedEmails.get(r.email) ?? 0) + 1);
  const answeredIds = new Set(answered.map((c) => c.responseId!));
  const storedIds = new Set(responses.map((r) => r.id));
  const cardFor = new Map<string, number>();
  for (const c of cards) cardFor.set(c.response, (cardFor.get(c.response) ?? 0) + 1);
  const held = new Set(holds.map((h) => h.response));
  const rewarded = responses.filter((r) => customers.find((c) => c.email === r.email)?.rewardTier !== null);
  const mailsTo = new Map(mails.map((m) => [m.to, m.n]));
  const checks = {
    everyAnsweredStored: [...answeredIds].every((id) => storedIds.has(id)),
    everyRetriedStoredOnce: already.every((c) => storedEmails.get(c.email) === 1),
    noCustomerStoredTwice: [...storedEmails.values()].every((n) => n === 1),
    noneStoredUnanswered: responses.every((r) => answeredIds.has(r.id) || already.some((c) => c.email === r.email)),
    oneCardOrHoldPerReward: rewarded.every((r) => (cardFor.get(r.id) ?? 0) + (held.has(r.id) ? 1 : 0) === 1),
    everyCardEmailed: cards.every((c) => c.emailed),
    oneEmailPerCard: responses.every((r) => (mailsTo.get(r.email) ?? 0) === (cardFor.get(r.id) ?? 0)),
  };

  const pages = customers.flatMap((c) => (c.page && c.page.status === 200 ? [c.page.ms] : []));
  const submits = customers.flatMap((c) => c.submits.filter((s) => s.status === 201).map((s) => s.ms));
  const codes: Record<string, number> = {};
  for (const c of customers) for (const s of c.submits) codes[s.status] = (codes[s.status] ?? 0) + 1;
  const retried = customers.filter((c) => c.submits.length > 1).length;
  const failed = customers.filter((c) => c.stored === 'lost');
  console.log(`\nload: ${customersInFlight} customers in flight for ${seconds} s over two instances${args.kill ? ', B killed at 1/3 and restarted at 2/3' : ''}${args['pg-restart'] ? ', PostgreSQL restarted at half-time' : ''} (${wallS.toFixed(1)} s)`);
  for (const e of events) console.log(`  ${e}`);
  console.log(`  customers           ${customers.length}; submissions answered 201: ${answered.length}, stored by an attempt whose answer was lost (409 on retry): ${already.length}, not stored: ${failed.length}`);
  console.log(`  submit answers      ${JSON.stringify(codes)}; customers who retried: ${retried}`);
  for (const c of failed.slice(0, 5)) console.log(`    customer ${c.i}: ${c.submits.map((s) => `${s.instance} ${s.status || 'no answer'} ${s.error ?? ''}`).join(' | ')}`);
  console.log(`  page latency        p50 ${Math.round(percentile(pages, 50))} ms, p99 ${Math.round(percentile(pages, 99))} ms (${pages.length} pages)`);
  console.log(`  submit latency      p50 ${Math.round(percentile(submits, 50))} ms, p99 ${Math.round(percentile(submits, 99))} ms; ${(answered.length / wallS).toFixed(1)} submissions/s`);
  console.log(`\nexactly once (reward jobs drained ${drainS.toFixed(1)} s after the load):`);
  console.log(`  stored responses    ${responses.length}; cards ${cards.length} (emailed ${cards.filter((c) => c.emailed).length}); held for the owner ${held.size}; reward emails in the outbox ${[...mailsTo.values()].reduce((s, n) => s + n, 0)}`);
  console.log(`  submission to email p50 ${waits?.p50?.toFixed(1)} s, longest ${waits?.max?.toFixed(1)} s (a card or an email cut by the kill waits for its retry)`);
  for (const [name, ok] of Object.entries(checks)) console.log(`  ${ok ? 'OK  ' : 'FAIL'} ${name}`);

  // 3. One instance with 1 and 2 web workers, interleaved rounds -----------------------------
  let workers: { one: number[]; two: number[]; ratios: number[]; ratio: number } | null = null;
  if (!args['no-workers']) {
    const one: number[] = [];
    const two: number[] = [];
    // 1, 2, 1, 2, …: a slow spell of the machine falls on both counts, not on one.
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const n of [1, 2]) {
        const server = await startInstance(`W${n}`, db.url, { WEB_CONCURRENCY: String(n) });
        const url = server.url + pagePath;
        const headers = args['accept-encoding'] ? { 'accept-encoding': args['accept-encoding'] } : undefined;
        await autocannon({ url, connections: Number(args.connections), duration: 3, headers });
        const result = await autocannon({ url, connections: Number(args.connections), duration: 10, headers });
        (n === 1 ? one : two).push(result.requests.average);
        console.log(`\nround ${round}, WEB_CONCURRENCY=${n}: customer page ${result.requests.average.toFixed(0)} requests/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
        await server.stop();
      }
    }
    const ratios = two.map((rate, i) => rate / one[i]!);
    workers = { one, two, ratios, ratio: median(ratios) };
    console.log(`  2 workers / 1 worker per round: ${ratios.map((r) => r.toFixed(2) + 'x').join(', ')}; median ${workers.ratio.toFixed(2)}x (the load generator runs on the same 2 cores)`);
  }

  if (args.json) {
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          date: new Date().toISOString(),
          otherCpuPctBeforeRun: quietBefore,
          customersInFlight,
          seconds,
          kill: args.kill,
          pgRestart: args['pg-restart'],
          events,
          customers: customers.length,
          answered: answered.length,
          storedAfterLostAnswer: already.length,
          notStored: failed.length,
          submitCodes: codes,
          latencyMs: { page: { p50: percentile(pages, 50), p99: percentile(pages, 99), median: median(pages) }, submit: { p50: percentile(submits, 50), p99: percentile(submits, 99) } },
          stored: { responses: responses.length, cards: cards.length, held: held.size },
          submissionToEmailS: waits,
          checks,
          workers,
        },
        null,
        2,
      ),
    );
  }
  await cleanup();
  const ok = Object.values(checks).every(Boolean) && failed.length === 0;
  if (!ok) {
    console.error('FAILED: ' + [...Object.entries(checks).filter(([, v]) => !v).map(([k]) => k), ...(failed.length ? [`${failed.length} customers not stored`] : [])].join(', '));
    process.exit(1);
  }
}

main().catch(async (error: unknown) => {
  console.error('instances benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
