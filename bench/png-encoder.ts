/**
 * The flyer's PNG encoder (issue 11): the hand-written writer in modules/sharing/png.ts (filter 0,
 * zlib level 3, deflate on libuv's pool, pHYs 300 dpi) against sharp (libvips/libspng) on the same
 * pixels: one rendered 2550x3300 flyer, decoded back to RGBA once, then encoded --runs times by each
 * (after --warmup runs), one at a time. The read-back from the canvas is the same for both and is
 * not timed; what differs is the RGBA-to-RGB copy plus deflate (ours) or sharp's pipeline.
 *
 *   node bench/png-encoder.ts [--runs 20] [--warmup 3] [--max-wait 120] [--json]
 *
 * sharp is run at the settings closest to ours (compressionLevel 3, no adaptive filtering) and at
 * its defaults (level 6, adaptive filtering), each with the 300 dpi density.
 */
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { renderFlyer } from '../modules/sharing/flyer.ts';
import { encodePngAsync, rgbaToRgbScanlines } from '../modules/sharing/png.ts';
import { checkNode, machine, median, waitForQuiet } from './lib.ts';

checkNode();
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    'max-wait': { type: 'string', default: '120' },
    json: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(args.runs));
const warmup = Math.max(0, Number(args.warmup));

const flyer = await renderFlyer({
  businessName: 'Crumb & Co. Bakery',
  surveyTitle: 'Spring Tasting Survey',
  url: 'https://app.rewardloop.example/survey/public/a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f607/9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  rewards: { bronze: 100, silver: 300, gold: 800 },
});
const { data: rgba, info } = await sharp(flyer).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
const { width, height } = info;

const encoders: Record<string, () => Promise<Buffer>> = {
  'hand-written (png.ts, level 3, filter 0)': () => encodePngAsync(rgbaToRgbScanlines(rgba, width, height), { dpi: 300 }),
  'sharp (level 3, no adaptive filtering)': () =>
    sharp(rgba, { raw: { width, height, channels: 4 } }).removeAlpha().withMetadata({ density: 300 }).png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer(),
  'sharp (defaults: level 6, adaptive filtering)': () =>
    sharp(rgba, { raw: { width, height, channels: 4 } }).removeAlpha().withMetadata({ density: 300 }).png().toBuffer(),
};

const quiet = Number(args['max-wait']) > 0 ? await waitForQuiet(Number(args['max-wait'])) : null;
const results = [];
for (const [name, encode] of Object.entries(encoders)) {
  let bytes = 0;
  for (let i = 0; i < warmup; i++) bytes = (await encode()).length;
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    bytes = (await encode()).length;
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  results.push({ encoder: name, medianMs: Math.round(median(ms)), minMs: Math.round(ms[0]!), maxMs: Math.round(ms.at(-1)!), bytes });
}

const out = { machine: machine(), date: new Date().toISOString().slice(0, 10), otherLoadPctOfCore: quiet, width, height, runs, results };
if (args.json) console.log(JSON.stringify(out, null, 2));
else {
  console.log(`${out.date} ${out.machine}; flyer ${width}x${height}; ${runs} runs after ${warmup} warm-ups; other load ${quiet ?? '?'}% of a core`);
  for (const r of results) console.log(`  ${r.encoder.padEnd(48)} median ${r.medianMs} ms (min ${r.minMs}, max ${r.maxMs}), ${(r.bytes / 1024).toFixed(0)} KiB`);
}
