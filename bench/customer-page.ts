/**
 * Customer survey page under load (issue 4): starts the production server (the embedded PostgreSQL by
 * default, or with --postgres a freshly created database on the local PostgreSQL, dropped
 * afterwards), creates a survey a customer can reach (owner sign-up, survey, free trial, published,
 * the demo point of sale connected; the page is fetched as a customer, with no session), then in the
 * same run measures with autocannon the survey page and a bare page of the same server (`/terms`),
 * alternating (survey, bare, bare, survey, ... for --rounds rounds, each run after its own warm-up),
 * and reports requests/s and latency p50/p90/p99 per run, the median per page, and the ratio. It also sums the JavaScript a browser
 * downloads for the survey page: every `<script src>` and `<link rel=modulepreload>` of its HTML
 * (and any static import of those files), fetched from the server and gzipped at level 9.
 *
 *   node bench/customer-page.ts [--postgres] [--connections 50] [--duration 15] [--warmup 3] [--rounds 2]
 *                               [--accept-encoding VALUE] [--max-wait 300] [--json] [--strict]
 *
 * Targets (issue 29): the survey page serves at least 0.85 of the bare page's requests/s; its JavaScript is
 * at most 50 KB gzipped.
 * --accept-encoding  send this Accept-Encoding on the load runs (default none: plain HTML).
 * --max-wait before the measured runs, wait up to this many seconds for other processes on the
 *            machine to go quiet (under 20% of a core); 0 to not wait.
 * BENCH_PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) is where --postgres
 * creates and drops its database.
 *
 * Exits 1 when the server does not start, the set-up fails or any request fails (non-2xx, error,
 * timeout, or a body that is not the expected page); 2 with --strict when a target is missed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createReachableSurvey, measure, previewPath, report, startProductionServer, SURVEY_TITLE, type AutocannonResult, type Measured } from './customer-setup.ts';
import {
  checkNode,
  machine,
  median,
  cleanupStack,
  projectDir,
  requireBuild,
  waitForQuiet,
} from './lib.ts';

const RATIO_TARGET = 0.85;
const JS_TARGET_KB = 50;

const { values: args } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    connections: { type: 'string', default: '50' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    'accept-encoding': { type: 'string' },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
    'max-wait': { type: 'string', default: '300' },
  },
});

const { cleanups, cleanup } = cleanupStack();

type JsFile = { url: string; via: 'script' | 'modulepreload' | 'inline import' | 'import'; rawBytes: number; gzipBytes: number };

/** Attribute value of one HTML tag (double, single or no quotes). */
function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3] ?? '') : null;
}

/**
 * The JavaScript a browser fetches for this HTML: every <script src> and <link rel=modulepreload>,
 * what inline scripts import (Remix's own pages start with an inline `import("/assets/...")`), plus
 * the static imports of those modules (followed until none is new), each fetched and gzipped -9.
 * Dynamic imports inside the modules are lazy and not counted.
 */
async function pageJavaScript(pageUrl: string, html: string): Promise<JsFile[]> {
  const found = new Map<string, JsFile['via']>();
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attr(tag, 'src');
    if (src) found.set(new URL(src, pageUrl).href, 'script');
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
    const href = attr(tag, 'href');
    if (href && rel.includes('modulepreload') && !found.has(new URL(href, pageUrl).href)) found.set(new URL(href, pageUrl).href, 'modulepreload');
  }
  for (const m of html.matchAll(/<script\b(?![^>]*\ssrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const i of m[1]!.matchAll(/\bimport\s*\(?\s*["']((?:\.{1,2}\/|\/)[^"'\s]+\.m?js)["']/g)) {
      const url = new URL(i[1]!, pageUrl).href;
      if (!found.has(url)) found.set(url, 'inline import');
    }
  }
  const files: JsFile[] = [];
  const queue = [...found.entries()];
  while (queue.length) {
    const [url, via] = queue.shift()!;
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    files.push({ url, via, rawBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length });
    // Static imports of an ES module: `import"./x.js"`, `from"./x.js"` (minified or not).
    for (const m of bytes.toString('utf8').matchAll(/(?:\bimport|\bfrom)\s*["']((?:\.{1,2}\/|\/)[^"'\s]+\.m?js)["']/g)) {
      const next = new URL(m[1]!, url).href;
      if (!found.has(next)) {
        found.set(next, 'import');
        queue.push([next, 'import']);
      }
    }
  }
  return files;
}

async function main() {
  checkNode();
  requireBuild();
  const connections = Number(args.connections);
  const duration = Number(args.duration);
  const warmup = Number(args.warmup);
  const rounds = Number(args.rounds);
  if (!Number.isInteger(connections) || connections < 1 || !(duration > 0) || !(warmup >= 0) || !Number.isInteger(rounds) || rounds < 1) {
    throw new Error('--connections and --rounds must be positive integers, --duration positive and --warmup >= 0 (seconds)');
  }
  const islandFile = path.join(projectDir, 'build/survey-island.json');
  const island = existsSync(islandFile) ? (JSON.parse(readFileSync(islandFile, 'utf8')) as { file?: string }).file ?? null : null;
  if (!island) console.warn('warning: no build/survey-island.json: the build is older than the survey island; run `npm run build`.');
  const database = args.postgres ? `external PostgreSQL (${new URL(process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432').host})` : 'embedded PostgreSQL';
  console.log(`customer survey page vs a bare page: ${database}, ${connections} connections, ${rounds} x ${duration} s per page (+${warmup} s warm-up each); ${machine()}`);
  const maxWait = Number(args['max-wait']);

  const { server, pgdb } = await startProductionServer(cleanups, { postgres: args.postgres });

  const survey = await createReachableSurvey(server.url);
  const surveyPath = previewPath(survey);
  const page = await fetch(server.url + surveyPath);
  const html = await page.text();
  if (page.status !== 200 || !html.includes(SURVEY_TITLE)) throw new Error(`GET ${surveyPath}: HTTP ${page.status}, not the survey page`);
  const terms = await fetch(`${server.url}/terms`);
  const termsHtml = await terms.text();
  if (terms.status !== 200 || !termsHtml.includes('Terms of Service')) throw new Error(`GET /terms: HTTP ${terms.status}, not the terms page`);
  console.log(`  survey ${surveyPath}`);
  console.log(`  survey page ${(html.length / 1024).toFixed(1)} KiB HTML uncompressed, /terms ${(termsHtml.length / 1024).toFixed(1)} KiB`);

  // JavaScript of the survey page ----------------------------------------------------------------
  const js = await pageJavaScript(server.url + surveyPath, html);
  const jsGzip = js.reduce((a, f) => a + f.gzipBytes, 0);
  const jsRaw = js.reduce((a, f) => a + f.rawBytes, 0);
  console.log(`\nJavaScript the survey page makes a browser download (gzip -9):`);
  for (const f of js) console.log(`  ${new URL(f.url).pathname.padEnd(48)} ${f.via.padEnd(13)} ${(f.gzipBytes / 1024).toFixed(1).padStart(6)} KB gz  ${(f.rawBytes / 1024).toFixed(1).padStart(7)} KB raw`);
  console.log(`  total: ${(jsGzip / 1024).toFixed(1)} KB gzipped (${(jsRaw / 1024).toFixed(1)} KB raw) in ${js.length} file(s); target < ${JS_TARGET_KB} KB: ${jsGzip / 1024 < JS_TARGET_KB ? 'PASS' : 'MISSED'}`);
  if (island && !js.some((f) => new URL(f.url).pathname === island)) console.warn(`  warning: the page does not load the survey island ${island}`);
  // The same count for /terms (a page on the full Remix runtime), for comparison.
  const termsJs = await pageJavaScript(`${server.url}/terms`, termsHtml);
  const termsJsGzip = termsJs.reduce((a, f) => a + f.gzipBytes, 0);
  console.log(`  for comparison, /terms (Remix runtime): ${(termsJsGzip / 1024).toFixed(1)} KB gzipped in ${termsJs.length} file(s)`);

  // Load ------------------------------------------------------------------------------------------
  const quietBefore = maxWait > 0 ? await waitForQuiet(maxWait) : null;
  const opts = { connections, duration, warmup, encoding: args['accept-encoding'] };
  const surveyRuns: Measured[] = [];
  const bareRuns: Measured[] = [];
  const results: AutocannonResult[] = [];
  const runSurvey = async () => {
    const r = await measure(server, pgdb, 'survey page', surveyPath, SURVEY_TITLE, opts);
    surveyRuns.push(r.measured);
    results.push(r.result);
    report(r.measured, surveyRuns.length);
  };
  const runBare = async () => {
    const r = await measure(server, pgdb, 'bare page', '/terms', 'Terms of Service', opts);
    bareRuns.push(r.measured);
    results.push(r.result);
    report(r.measured, bareRuns.length);
  };
  console.log(`\nload runs (${database}${opts.encoding ? `, Accept-Encoding: ${opts.encoding}` : ''}, ${connections} connections, ${duration} s each, ${rounds} round(s), alternating):`);
  // Survey, bare, bare, survey, ...: a machine that gets busier or quieter over the run hits both pages alike.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      await runSurvey();
      await runBare();
    } else {
      await runBare();
      await runSurvey();
    }
  }
  const summarize = (list: Measured[]) => ({
    requestsPerSec: Math.round(median(list.map((m) => m.requestsPerSec))),
    p50: Math.round(median(list.map((m) => m.latencyMs.p50))),
    p99: Math.round(median(list.map((m) => m.latencyMs.p99))),
    otherCpuPct: Math.max(...list.map((m) => m.cpuPctOfOneCore.otherProcesses)),
  });
  const surveySummary = summarize(surveyRuns);
  const bareSummary = summarize(bareRuns);
  const ratio = surveySummary.requestsPerSec / bareSummary.requestsPerSec;

  console.log(`\nsummary (median over ${rounds} run(s) per page):`);
  console.log(`  survey page        ${surveySummary.requestsPerSec} req/s, p50 ${surveySummary.p50} ms, p99 ${surveySummary.p99} ms (other processes up to ${surveySummary.otherCpuPct}% of a core)`);
  console.log(`  bare page /terms   ${bareSummary.requestsPerSec} req/s, p50 ${bareSummary.p50} ms, p99 ${bareSummary.p99} ms (other processes up to ${bareSummary.otherCpuPct}% of a core)`);
  // The same ratio from the quiet runs only (other processes under 20% of a core), when each page has one.
  const quiet = (list: Measured[]) => list.filter((m) => m.cpuPctOfOneCore.otherProcesses <= 20);
  const quietRatio =
    quiet(surveyRuns).length && quiet(bareRuns).length ? summarize(quiet(surveyRuns)).requestsPerSec / summarize(quiet(bareRuns)).requestsPerSec : null;
  const ratioPass = ratio >= RATIO_TARGET;
  const jsPass = jsGzip / 1024 < JS_TARGET_KB;
  console.log(`  survey / bare      ${ratio.toFixed(2)} of the bare page's requests/s; target >= ${RATIO_TARGET}: ${ratioPass ? 'PASS' : 'MISSED'}`);
  console.log(
    quietRatio === null
      ? `  quiet runs only    none for one of the pages (every run had other processes above 20% of a core)`
      : `  quiet runs only    ${quietRatio.toFixed(2)} (survey ${quiet(surveyRuns).length}, bare ${quiet(bareRuns).length} run(s) with other processes <= 20% of a core)`,
  );
  console.log(`  survey page JS     ${(jsGzip / 1024).toFixed(1)} KB gzipped; target < ${JS_TARGET_KB} KB: ${jsPass ? 'PASS' : 'MISSED'}`);
  if (args.json) {
    console.log(
      JSON.stringify(
        {
          machine: machine(),
          date: new Date().toISOString(),
          database,
          acceptEncoding: opts.encoding ?? null,
          connections,
          durationS: duration,
          otherCpuPctBeforeRun: quietBefore,
          rounds,
          surveyPage: { ...surveySummary, runs: surveyRuns },
          barePage: { ...bareSummary, runs: bareRuns },
          ratio: Number(ratio.toFixed(3)),
          quietRunsRatio: quietRatio === null ? null : Number(quietRatio.toFixed(3)),
          ratioTarget: RATIO_TARGET,
          javascript: { gzipKB: Number((jsGzip / 1024).toFixed(1)), rawKB: Number((jsRaw / 1024).toFixed(1)), files: js, targetKB: JS_TARGET_KB },
          barePageJavaScriptGzipKB: Number((termsJsGzip / 1024).toFixed(1)),
          pass: { ratio: ratioPass, javascript: jsPass },
        },
        null,
        2,
      ),
    );
  }

  const failed = results.some((r) => r['2xx'] === 0 || r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.mismatches > 0);
  await cleanup();
  if (failed) {
    console.error('FAILED: some requests did not return the expected page (see above).');
    process.exit(1);
  }
  if (args.strict && !(ratioPass && jsPass)) process.exit(2);
}

main().catch(async (error: unknown) => {
  console.error('customer-page benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
