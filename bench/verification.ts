/**
 * Screenshot verification (issue 13): scores a ScreenshotVerifier adapter on labelled fixture sets
 * and times it.
 *
 *   node bench/verification.ts [--set screenshots] [--set train] [--set train2] [--set holdout] [--set holdout2] [--set holdout3] [--set train3] [--set holdout4] [--set train4] [--set holdout5] [--set holdout6] [--set train5] [--set holdout7] [--set train6] [--set b-train] [--set b-holdout] [--set b-holdout2] [--set c-train] [--set c-holdout] [--set c-holdout2] [--set c-holdout3] [--set c-holdout4] [--cases]
 *                              [--workers 2] [--max-wait 120] [--json] [--verifier ocr|vision] [--match REGEX] [--dir DIR]
 *                              [--ocr-cache DIR] [--reasons]
 *
 * `--reasons` prints the verdict's reason under every case printed, right ones too.
 *
 * `--ocr-cache DIR` keeps every OCR reading in DIR by the hash of its image and options and reads it
 * back on the next run: a run over unchanged images then costs decoding and the judge only, to tune
 * the judge or to check that a change of its code leaves every verdict as it was. Its times are not
 * the verifier's (a cached image skips OCR); measure speed without it.
 *
 * `--dir DIR` (repeatable) scores a labelled set in a folder of its own: DIR/manifest.json in the
 * verification set's schema with its images, as `reward-cli verifications labels export` writes
 * owners' decisions (ADR 080). Its cases are printed (they are the owners' screenshots: run it where
 * they may be read). With only --dir, no default set is run.
 *
 * `--match REGEX` keeps the cases whose "id kind platform" matches (tuning sets only), e.g.
 * `--match 'follow|tag'` for the social cases, `--match review` for the reviews.
 *
 * `--verifier vision` scores the hosted vision adapter instead (SCREENSHOT_VISION_API_KEY and
 * friends in the environment; every image of the chosen sets is sent to that service); the cold
 * start lines are the OCR pool's either way.
 *
 * Sets: `screenshots` (the small rendered set beside the judge, tests/fixtures/screenshots),
 * `train`, `holdout`, `holdout2`, `train2`, `holdout3`, `train3`, `holdout4`, `train4`, `holdout5`, `holdout6`, `train5`, `holdout7` and `train6` (the independent set,
 * tests/fixtures/verification-set; the last eleven were drawn later, each with its own seed and wider
 * looks: six held-out parts and five more train parts). Default: screenshots
 * and train. The holdouts are for the final measure only: never tune on them; their cases are
 * printed only with --cases.
 *
 * `b-train` and `b-holdout` are verification set B (tests/fixtures/verification-set-b, issue 31
 * item 5), drawn by a second renderer independent of the first set's generator and of the judge;
 * `--dir tests/fixtures/verification-set-b` scores its train part too. `b-holdout` is a holdout;
 * `b-holdout2` is a second draw of the same recipes (other ids, so other random choices), all holdout,
 * drawn after `b-holdout` had been measured once.
 *
 * `c-train` and `c-holdout` are verification set C (tests/fixtures/verification-set-c), a third set
 * drawn as HTML/CSS in headless Chromium, independently of the verifier and of sets A and B.
 * `c-holdout` is a holdout like `b-holdout`: no --match, its cases printed only with --cases.
 * `c-holdout2` is a second draw of set C's recipes (ids ending in `-d2`, so other random choices),
 * all holdout, drawn and committed before any verifier ran on it; a holdout like `c-holdout`.
 * `c-holdout3` is the third draw (ids ending in `-d3`), made the same way after `c-holdout2` was measured,
 * and `c-holdout4` the fourth (`-d4`), made after `c-holdout3` was measured.
 *
 * Prints, in order:
 * - cold start: a new verifier's first verification with nothing started (worker threads, wasm,
 *   model, first OCR), and warmUp() alone (target: pool cold start < 5 s);
 * - per set: each case (expected, got, time; wrong ones with the reason given, '?' for a case sent
 *   to the owner's review), then the report: right, wrong and review (needs_review, ADR 077)
 *   overall and per platform, kind, class and expected verdict; genuine cases rejected (target
 *   <= 3%) and sent to review; plain fakes accepted outright (target 0); reason right on rejections (target
 *   >= 90%); median time per case, one at a time on a warm pool (target <= 1.5 s);
 * - the process memory (the OCR workers are threads of this process).
 */
import { parseArgs } from 'node:util';
import { OcrScreenshotVerifier } from '../adapters/verification/OcrScreenshotVerifier.ts';
import {
  formatReport,
  loadManifestDir,
  loadScreenshotSet,
  loadVerificationSet,
  loadVerificationSetB,
  loadVerificationSetC,
  VERIFICATION_PARTS,
  VERIFICATION_SET_B_PARTS,
  VERIFICATION_SET_C_PARTS,
  type VerificationSetBPart,
  type VerificationSetCPart,
  type VerificationPart,
  report,
  runAll,
  runOne,
  verifierByName,
  type Report,
  type RunnerCase,
} from '../tests/fixtures/verification-runner.ts';
import { InMemoryVerificationHistory } from '../modules/verification/history.ts';
import { checkNode, machine, mib, procStatusKiB, waitForQuiet } from './lib.ts';

checkNode();

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', multiple: true },
    cases: { type: 'boolean', default: false },
    workers: { type: 'string', default: '2' },
    verifier: { type: 'string', default: 'ocr' },
    'max-wait': { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
    match: { type: 'string' },
    dir: { type: 'string', multiple: true },
    'ocr-cache': { type: 'string' },
    reasons: { type: 'boolean', default: false },
  },
});
const workers = Math.max(1, Number(args.workers));
const dirs = args.dir ?? [];
const sets = [...(args.set?.length ? args.set : dirs.length ? [] : ['screenshots', 'train']), ...dirs.map((dir) => `dir:${dir}`)];
const log = (line = '') => {
  if (!args.json) console.log(line);
};
const ms = (value: number) => `${value.toFixed(0)} ms`;
const rssKiB = () => procStatusKiB(process.pid)?.VmRSS ?? Math.round(process.memoryUsage().rss / 1024);

function load(set: string): RunnerCase[] {
  if (set.startsWith('dir:')) return loadManifestDir(set.slice(4));
  if (set === 'screenshots') return loadScreenshotSet();
  if ((VERIFICATION_PARTS as readonly string[]).includes(set)) return loadVerificationSet(set as VerificationPart);
  if ((VERIFICATION_SET_B_PARTS as readonly string[]).includes(set)) return loadVerificationSetB(set as VerificationSetBPart);
  if ((VERIFICATION_SET_C_PARTS as readonly string[]).includes(set)) return loadVerificationSetC(set as VerificationSetCPart);
  throw new Error(`unknown set ${set} (screenshots, ${[...VERIFICATION_PARTS, ...VERIFICATION_SET_B_PARTS, ...VERIFICATION_SET_C_PARTS].join(', ')})`);
}

const busy = Number(args['max-wait']) > 0 ? await waitForQuiet(Number(args['max-wait'])) : null;
log(`Screenshot verification (OCR) — ${machine()}${busy === null ? '' : `, other load ${busy}% of a core`}`);

// Cold start (not with --ocr-cache: its figures would be the cache's) -----------------------------
const rssBefore = rssKiB();
async function coldStart(): Promise<{ firstMs: number; warmUpMs: number; verdict: string | null | undefined }> {
  const coldCase = loadScreenshotSet().find((c) => c.id === 'google-genuine')!;
  const cold = new OcrScreenshotVerifier({ size: workers });
  let started = performance.now();
  const outcome = await runOne(cold, new InMemoryVerificationHistory(), coldCase);
  const firstMs = performance.now() - started;
  await cold.close();
  const warmupVerifier = new OcrScreenshotVerifier({ size: workers });
  started = performance.now();
  await warmupVerifier.warmUp();
  const warmUpMs = performance.now() - started;
  await warmupVerifier.close();
  const verdict = outcome.result?.verdict === 'needs_review' ? 'review' : outcome.result?.isValid ? 'valid' : (outcome.result?.rejectionCode ?? outcome.error);
  log(`cold start: first verification ${ms(firstMs)} (${verdict}); warmUp() of ${workers} workers alone ${ms(warmUpMs)} (target: < 5000 ms)`);
  return { firstMs, warmUpMs, verdict };
}
const coldRun = args['ocr-cache'] ? null : await coldStart();

// Sets -----------------------------------------------------------------------------------------
const history = new InMemoryVerificationHistory();
const verifier = verifierByName(args.verifier ?? 'ocr', history, workers, process.env, args['ocr-cache']);
if (args['ocr-cache']) log(`OCR readings cached in ${args['ocr-cache']}: verdicts are the verifier's, times are not (a cached image skips OCR)`);
if (verifier instanceof OcrScreenshotVerifier) await verifier.warmUp();
const rssWarm = rssKiB();
const reports: Record<string, Report> = {};
for (const set of sets) {
  const match = args.match === undefined ? null : new RegExp(args.match);
  const holdout = set.startsWith('holdout') || set.startsWith('b-holdout') || set.startsWith('c-holdout');
  if (match && holdout) throw new Error('--match is for tuning sets: a holdout is measured whole');
  const cases = load(set).filter((c) => !match || match.test(`${c.id} ${c.kind} ${c.platform}`));
  if (cases.length === 0) {
    log(`\n${set}: no cases found`);
    continue;
  }
  const outcomes = await runAll(verifier, history, cases, 1);
  const showCases = !holdout || args.cases;
  if (showCases) {
    log('');
    log(`${'case'.padEnd(44)} ${'expected'.padEnd(16)} ${'got'.padEnd(16)} time`);
    for (const o of outcomes) {
      const expected = o.case.expect.isValid ? 'valid' : (o.case.expect.code ?? 'rejected');
      const got = o.error ? 'ERROR' : o.outcome === 'review' ? `review:${o.result!.reviewCode ?? ''}` : o.result!.isValid ? 'valid' : (o.result!.rejectionCode ?? 'rejected');
      // ' ' right, '✗' wrong, '?' sent to the owner's review (ADR 077).
      log(`${o.outcome === 'right' ? ' ' : o.outcome === 'review' ? '?' : '✗'}${o.case.id.slice(0, 43).padEnd(43)} ${expected.padEnd(16)} ${got.padEnd(16)} ${ms(o.ms).padStart(7)}`);
      if (o.outcome !== 'right' || args.reasons) log(`    ${o.error ?? o.result!.rejectionReason ?? o.result!.reviewReason ?? '(accepted)'}`);
    }
  }
  reports[set] = report(outcomes);
  log('');
  log(formatReport(`${set} (${cases.length} cases)`, reports[set]));
}

const peak = procStatusKiB(process.pid)?.VmHWM ?? rssKiB();
log(`memory: RSS ${mib(rssBefore)} before the pool, ${mib(rssWarm)} with ${workers} warm workers, peak ${mib(peak)}`);
await verifier.close();

if (args.json) {
  console.log(
    JSON.stringify(
      {
        machine: machine(),
        otherLoadPctOfCore: busy,
        workers,
        coldFirstVerificationMs: coldRun ? Math.round(coldRun.firstMs) : null,
        warmUpMs: coldRun ? Math.round(coldRun.warmUpMs) : null,
        reports,
        memoryMiB: { before: Math.round(rssBefore / 1024), warm: Math.round(rssWarm / 1024), peak: Math.round(peak / 1024) },
      },
      null,
      2,
    ),
  );
}
