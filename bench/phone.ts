/**
 * The customer page on a cheap phone (issue 29): starts the production server (embedded PostgreSQL,
 * or --postgres a fresh database on the local PostgreSQL), makes a survey customers can reach
 * (`createReachableSurvey`), then opens the customer's survey page and a plain page (`/terms`) in
 * Debian's Chromium through playwright-core as a phone on Slow 4G: a 360 x 740 viewport at device
 * scale 2, touch, the network emulated through CDP (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s
 * up) and the CPU slowed 4x (`Emulation.setCPUThrottlingRate`). Each run is a new browser context:
 * a new connection and an empty cache, as a customer who just scanned the QR code.
 *
 * Per run it records, with no script of its own in the page (so the same way with JavaScript off):
 *  - LCP: the last `largest-contentful-paint` event of CDP's PerformanceTimeline before load + 1 s,
 *    from the document request's start (`Network.requestWillBeSent.wallTime`);
 *  - load: `Page.loadEventFired` from the same start;
 *  - what went over the wire by type (`Network.loadingFinished.encodedDataLength`): HTML, CSS, JS,
 *    and the number of requests before the load event.
 * Runs alternate between the variants (customer with JS, customer without, plain with, plain
 * without, then the next round in reverse) so a machine that gets busier hits all alike; it reports
 * each run and the median of --runs per variant against the target (customer page LCP <= 0.5 s).
 *
 *   node bench/phone.ts [--runs 5] [--postgres] [--cpu 4] [--latency 150] [--down 1600] [--up 750]
 *                       [--max-wait 120] [--json] [--strict]
 *
 * CHROMIUM_PATH overrides `which chromium`. Exits 1 when the set-up fails or a page is not the
 * expected one; 2 with --strict when the customer page's median LCP misses the target.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { createReachableSurvey, startProductionServer, SURVEY_TITLE } from './customer-setup.ts';
import { checkNode, cleanupStack, machine, median, requireBuild, waitForQuiet } from './lib.ts';

const LCP_TARGET_MS = 500;
const JS_TARGET_KB = 50;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    postgres: { type: 'boolean', default: false },
    cpu: { type: 'string', default: '4' },
    latency: { type: 'string', default: '150' },
    down: { type: 'string', default: '1600' },
    up: { type: 'string', default: '750' },
    'max-wait': { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
  },
});

const { cleanups, cleanup } = cleanupStack();

type Variant = { name: string; path: string; expect: string; javaScript: boolean };
type Run = { variant: string; ttfbMs: number; lcpMs: number; lcpSize: number; loadMs: number; requests: number; kb: { html: number; css: number; js: number; other: number; total: number } };

/** Bytes over the wire per resource type, as Chromium counts them (headers and body, compressed). */
function bucket(type: string | undefined): keyof Run['kb'] {
  if (type === 'Document') return 'html';
  if (type === 'Stylesheet') return 'css';
  if (type === 'Script') return 'js';
  return 'other';
}

async function measureOnce(browser: Browser, baseUrl: string, variant: Variant, net: { latency: number; down: number; up: number; cpu: number }): Promise<Run> {
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: variant.javaScript,
    userAgent: 'Mozilla/5.0 (Linux; Android 12; moto g play) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
  });
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: net.latency,
      downloadThroughput: (net.down * 1000) / 8,
      uploadThroughput: (net.up * 1000) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: net.cpu });
    await cdp.send('PerformanceTimeline.enable', { eventTypes: ['largest-contentful-paint'] });

    const types = new Map<string, string>();
    const kb: Run['kb'] = { html: 0, css: 0, js: 0, other: 0, total: 0 };
    let documentStart: { wall: number; mono: number } | null = null;
    let loadAt: number | null = null;
    let requests = 0;
    const lcps: Array<{ at: number; size: number }> = [];
    let ttfb: number | null = null;
    cdp.on('Network.requestWillBeSent', (e) => {
      types.set(e.requestId, e.type ?? '');
      if (loadAt === null) requests += 1;
      if (e.type === 'Document' && !documentStart) documentStart = { wall: e.wallTime, mono: e.timestamp };
    });
    cdp.on('Network.responseReceived', (e) => {
      types.set(e.requestId, e.type ?? types.get(e.requestId) ?? '');
      // The document's first byte, from the request's start (a new connection's handshake included).
      if (e.type === 'Document' && ttfb === null && e.response.timing) ttfb = e.response.timing.receiveHeadersEnd;
    });
    cdp.on('Network.loadingFinished', (e) => {
      const b = bucket(types.get(e.requestId));
      kb[b] += e.encodedDataLength / 1024;
      kb.total += e.encodedDataLength / 1024;
    });
    cdp.on('Page.loadEventFired', (e) => {
      loadAt ??= e.timestamp;
    });
    cdp.on('PerformanceTimeline.timelineEventAdded', (e) => {
      const d = e.event.lcpDetails;
      if (d) lcps.push({ at: d.renderTime || d.loadTime || e.event.time, size: d.size });
    });
    await cdp.send('Page.enable');
    const response = await page.goto(baseUrl + variant.path, { waitUntil: 'load', timeout: 60_000 });
    if (response?.status() !== 200) throw new Error(`${variant.name}: GET ${variant.path} answered ${response?.status()}`);
    // LCP candidates arrive after paint; the page is still and nothing is typed, so a second after load is the last one.
    await page.waitForTimeout(1000);
    const html = await page.content();
    if (!html.includes(variant.expect)) throw new Error(`${variant.name}: the page does not say "${variant.expect}"`);
    const start = documentStart as { wall: number; mono: number } | null;
    if (!start || loadAt === null || lcps.length === 0) throw new Error(`${variant.name}: no ${!start ? 'document request' : loadAt === null ? 'load event' : 'LCP event'} seen`);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      variant: variant.name,
      ttfbMs: Math.round(ttfb ?? Number.NaN),
      lcpMs: Math.round((lcps.at(-1)!.at - start.wall) * 1000),
      lcpSize: lcps.at(-1)!.size,
      loadMs: Math.round((loadAt - start.mono) * 1000),
      requests,
      kb: { html: round(kb.html), css: round(kb.css), js: round(kb.js), other: round(kb.other), total: round(kb.total) },
    };
  } finally {
    await context.close();
  }
}

async function main() {
  checkNode();
  requireBuild();
  const runs = Number(args.runs);
  const net = { latency: Number(args.latency), down: Number(args.down), up: Number(args.up), cpu: Number(args.cpu) };
  if (!Number.isInteger(runs) || runs < 1 || Object.values(net).some((v) => !(v > 0))) throw new Error('--runs must be a positive integer; --cpu, --latency, --down and --up positive numbers');
  console.log(`customer page on a phone: ${net.latency} ms round trip, ${net.down} kbit/s down, ${net.up} kbit/s up, CPU ${net.cpu}x slower, 360x740 @2x; ${runs} run(s) per variant; ${machine()}`);

  const { server } = await startProductionServer(cleanups, { postgres: args.postgres });
  const survey = await createReachableSurvey(server.url);
  // The path a customer's QR code leads to (Square connected, so no preview flag).
  const customerPath = `/survey/public/${survey.businessId}/${survey.surveyId}`;
  const variants: Variant[] = [
    { name: 'customer page, JS', path: customerPath, expect: SURVEY_TITLE, javaScript: true },
    { name: 'customer page, no JS', path: customerPath, expect: SURVEY_TITLE, javaScript: false },
    { name: '/terms, JS', path: '/terms', expect: 'Terms of Service', javaScript: true },
    { name: '/terms, no JS', path: '/terms', expect: 'Terms of Service', javaScript: false },
  ];

  const executablePath = process.env.CHROMIUM_PATH ?? execFileSync('which', ['chromium']).toString().trim();
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  cleanups.push(() => browser.close());
  // One unmeasured visit each: the server's first render of a page and Chromium's own start-up are not a customer's.
  for (const v of variants) await measureOnce(browser, server.url, v, net);

  const quietBefore = await waitForQuiet(Number(args['max-wait']));
  const all: Run[] = [];
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const r = await measureOnce(browser, server.url, v, net);
      all.push(r);
      console.log(
        `  ${r.variant.padEnd(22)} first byte ${String(r.ttfbMs).padStart(4)} ms  LCP ${String(r.lcpMs).padStart(5)} ms (${r.lcpSize} px²)  load ${String(r.loadMs).padStart(5)} ms  ${r.requests} req  HTML ${r.kb.html} KB  CSS ${r.kb.css} KB  JS ${r.kb.js} KB  total ${r.kb.total} KB`,
      );
    }
  }
  const summary = variants.map((v) => {
    const mine = all.filter((r) => r.variant === v.name);
    return {
      variant: v.name,
      lcpMs: Math.round(median(mine.map((r) => r.lcpMs))),
      lcpRangeMs: [Math.min(...mine.map((r) => r.lcpMs)), Math.max(...mine.map((r) => r.lcpMs))],
      ttfbMs: Math.round(median(mine.map((r) => r.ttfbMs))),
      loadMs: Math.round(median(mine.map((r) => r.loadMs))),
      requests: mine[0]!.requests,
      kb: mine[0]!.kb,
    };
  });
  console.log(`\nmedians over ${runs} run(s):`);
  for (const s of summary) {
    console.log(`  ${s.variant.padEnd(22)} first byte ${s.ttfbMs} ms  LCP ${s.lcpMs} ms (${s.lcpRangeMs.join('-')})  load ${s.loadMs} ms  ${s.requests} requests  JS ${s.kb.js} KB  CSS ${s.kb.css} KB  HTML ${s.kb.html} KB`);
  }
  const customer = summary.filter((s) => s.variant.startsWith('customer'));
  const lcpPass = customer.every((s) => s.lcpMs <= LCP_TARGET_MS);
  const jsKb = customer[0]!.kb.js;
  const jsPass = jsKb <= JS_TARGET_KB;
  console.log(`  customer page LCP <= ${LCP_TARGET_MS} ms with and without JavaScript: ${lcpPass ? 'PASS' : 'MISSED'}`);
  console.log(`  customer page JavaScript transferred ${jsKb} KB; target <= ${JS_TARGET_KB} KB: ${jsPass ? 'PASS' : 'MISSED'}`);
  if (args.json) {
    console.log(JSON.stringify({ machine: machine(), date: new Date().toISOString(), network: net, otherCpuPctBeforeRuns: quietBefore, runs: all, summary, pass: { lcp: lcpPass, javascript: jsPass } }, null, 2));
  }
  await cleanup();
  if (args.strict && !(lcpPass && jsPass)) process.exit(2);
}

main().catch(async (error: unknown) => {
  console.error('phone benchmark failed:', error instanceof Error ? error.message : error);
  await cleanup();
  process.exit(1);
});
