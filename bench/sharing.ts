/**
 * Sharing (QR and flyer): renders the 2550x3300 promotional flyer in-process the way the
 * 'Download Promotional Material' route does, and times the QR renderers.
 *
 *   node bench/sharing.ts [--runs 20] [--warmup 2] [--svg-runs 200] [--out /tmp/flyer-sample.png]
 *                         [--max-wait 120] [--json] [--strict]
 *
 * Reports the flyer render median and p95 over --runs renders (after --warmup renders that load
 * the fonts and warm Skia and the JIT), the process's peak RSS during the measured renders (VmHWM,
 * reset through /proc/self/clear_refs just before them, so the warm-ups and start-up do not
 * count), the RSS before them, and the QR SVG and 400x400 QR PNG medians.
 *
 * --out      also write the last rendered flyer there (to look at it).
 * --max-wait before measuring, wait up to this many seconds for the machine to go quiet (under
 *            20% of a core); 0 to not wait.
 * --strict   exit 2 when the flyer median misses its target (400 ms).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { flyerFileName, renderFlyer, type FlyerInput } from '../modules/sharing/flyer.ts';
import { qrPng, qrSvg } from '../modules/sharing/qr.ts';
import { publicSurveyUrl } from '../modules/sharing/urls.ts';
import { checkNode, machine, median, mib, percentile, procStatusKiB, waitForQuiet } from './lib.ts';

const FLYER_TARGET_MS = 400;

checkNode();

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '2' },
    'svg-runs': { type: 'string', default: '200' },
    out: { type: 'string' },
    'max-wait': { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
    strict: { type: 'boolean', default: false },
  },
});

const runs = Math.max(1, Number(args.runs));
const warmup = Math.max(0, Number(args.warmup));
const svgRuns = Math.max(1, Number(args['svg-runs']));

/** Resets VmHWM to the current RSS (Linux: writing 5 to clear_refs). False when not possible. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

// A realistic link: UUIDs for both ids, on a production-like origin.
const url = publicSurveyUrl('https://app.rewardloop.example', 'a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607', '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b');
const input: FlyerInput = {
  businessName: 'Crumb & Co. Bakery',
  surveyTitle: 'Spring Tasting Survey',
  url,
  rewards: { bronze: 100, silver: 300, gold: 800 },
};

const quiet = Number(args['max-wait']) > 0 ? await waitForQuiet(Number(args['max-wait'])) : null;

// --- flyer
let last: Buffer | undefined;
for (let i = 0; i < warmup; i++) last = await renderFlyer(input);

const rssBeforeKiB = procStatusKiB(process.pid)?.VmRSS ?? Math.round(process.memoryUsage().rss / 1024);
const hwmReset = resetPeakRss();
// Fallback sampling when VmHWM cannot be reset (not Linux, or no permission): catches the peaks
// between the synchronous phases of a render.
let sampledPeak = process.memoryUsage().rss;
const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss)), 5);

const flyerMs: number[] = [];
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  last = await renderFlyer(input);
  flyerMs.push(performance.now() - t);
  sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss);
}
clearInterval(sampler);
const hwmKiB = procStatusKiB(process.pid)?.VmHWM;
const peakRssKiB = hwmReset && hwmKiB ? hwmKiB : Math.round(sampledPeak / 1024);

if (args.out && last) writeFileSync(args.out, last);

// --- QR
for (let i = 0; i < 20; i++) qrSvg(url);
const svgMs: number[] = [];
for (let i = 0; i < svgRuns; i++) {
  const t = performance.now();
  qrSvg(url);
  svgMs.push(performance.now() - t);
}
for (let i = 0; i < 5; i++) qrPng(url);
const pngMs: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  qrPng(url);
  pngMs.push(performance.now() - t);
}

const result = {
  machine: machine(),
  date: new Date().toISOString().slice(0, 10),
  otherLoadPctOfCore: quiet,
  flyer: {
    runs,
    warmup,
    medianMs: Math.round(median(flyerMs)),
    p95Ms: Math.round(percentile(flyerMs, 95)),
    minMs: Math.round(Math.min(...flyerMs)),
    maxMs: Math.round(Math.max(...flyerMs)),
    bytes: last?.length ?? 0,
    fileName: flyerFileName(input.surveyTitle),
    rssBeforeMiB: Math.round(rssBeforeKiB / 1024),
    peakRssMiB: Math.round(peakRssKiB / 1024),
    peakRssSource: hwmReset && hwmKiB ? 'VmHWM (reset before the measured renders)' : 'process.memoryUsage().rss sampled every 5 ms',
    targetMedianMs: FLYER_TARGET_MS,
    met: median(flyerMs) < FLYER_TARGET_MS,
  },
  qrSvg: { runs: svgRuns, medianMs: Number(median(svgMs).toFixed(3)), p95Ms: Number(percentile(svgMs, 95).toFixed(3)), bytes: qrSvg(url).length },
  qrPng400: { runs: pngMs.length, medianMs: Number(median(pngMs).toFixed(3)), bytes: qrPng(url).length },
};

if (args.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const f = result.flyer;
  console.log(`Sharing (QR and flyer) on ${result.machine}${quiet === null ? '' : `, other load ${quiet}% of a core`}`);
  console.log(`  flyer 2550x3300 PNG: median ${f.medianMs} ms, p95 ${f.p95Ms} ms (min ${f.minMs}, max ${f.maxMs}; ${f.runs} runs after ${f.warmup} warm-ups) — target median < ${FLYER_TARGET_MS} ms: ${f.met ? 'met' : 'MISSED'}`);
  console.log(`  flyer size ${(f.bytes / 1024).toFixed(0)} KiB as ${f.fileName}`);
  console.log(`  peak RSS during the renders ${mib(peakRssKiB)} (before: ${mib(rssBeforeKiB)}; ${f.peakRssSource})`);
  console.log(`  QR SVG: median ${result.qrSvg.medianMs} ms, p95 ${result.qrSvg.p95Ms} ms over ${result.qrSvg.runs} (${result.qrSvg.bytes} bytes)`);
  console.log(`  QR PNG 400x400: median ${result.qrPng400.medianMs} ms over ${result.qrPng400.runs} (${result.qrPng400.bytes} bytes)`);
  if (args.out) console.log(`  sample written to ${args.out}`);
}

if (args.strict && !result.flyer.met) process.exitCode = 2;
