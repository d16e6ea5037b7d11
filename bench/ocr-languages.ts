/**
 * The speed cost of reading with more languages (ADR 076): the first OCR pass over genuine review
 * screenshots 1080-1170 px wide, read by a pool with English alone and by pools with several
 * models together; and the cost of reading only the reviewer's name line again with the
 * multi-language model (that line cut out and enlarged as the adapter does, read as one line).
 *
 *   node bench/ocr-languages.ts [--set train6] [--n 12] [--langs eng --langs eng+spa+por+fra+deu+pol ...] [--workers 1]
 *
 * One image at a time per pool (the median of one image's first pass, decode excluded), so the
 * figures compare models, not queueing. Prints each pool's median and p90, and the name line's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { openScreenshot, type DecodedScreenshot } from '../adapters/verification/preprocess.ts';
import { TesseractPool } from '../adapters/verification/TesseractPool.ts';
import { tsvToOcrText } from '../adapters/verification/ocr-text.ts';
import { findName } from '../modules/verification/judge.ts';
import { checkNode, machine } from './lib.ts';

checkNode();

const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'train6' },
    n: { type: 'string', default: '12' },
    langs: { type: 'string', multiple: true },
    workers: { type: 'string', default: '1' },
  },
});
const configs = args.langs?.length ? args.langs : ['eng', 'eng+spa+por+fra+deu+pol'];
const dir = path.join(import.meta.dirname, '../tests/fixtures/verification-set');
type Case = { id: string; image: string; kind: string; input: { reviewerName?: string }; expect: { isValid: boolean }; tags: { width: number; class: string } };
const manifest = JSON.parse(readFileSync(path.join(dir, `manifest-${args.set}.json`), 'utf8')) as { cases: Case[] };
const cases = manifest.cases
  .filter((c) => c.kind === 'review' && c.expect.isValid && c.tags.width >= 1080 && c.tags.width <= 1170)
  .slice(0, Number(args.n));

const decodedOf = async (file: string): Promise<DecodedScreenshot> => {
  let decoded: DecodedScreenshot | null = null;
  const opened = await openScreenshot(readFileSync(file), async (d) => {
    decoded = d;
    return { kind: 'timeout' };
  });
  await opened.read!();
  return decoded!;
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))] ?? 0;

console.log(`OCR languages — ${machine()}; ${cases.length} genuine reviews of ${args.set}, 1080-1170 px wide`);
const images = await Promise.all(cases.map(async (c) => ({ c, decoded: await decodedOf(path.join(dir, c.image)) })));
const eng = new TesseractPool({ size: Number(args.workers) });
for (const langs of configs) {
  const pool = langs === 'eng' ? eng : new TesseractPool({ size: Number(args.workers), langs: langs.split('+') });
  let started = performance.now();
  await pool.warmUp();
  const warm = performance.now() - started;
  const times: number[] = [];
  for (const { decoded } of images) {
    started = performance.now();
    await pool.recognize(decoded.ocrImage, 60_000);
    times.push(performance.now() - started);
  }
  console.log(`first pass, ${langs.padEnd(28)} median ${median(times).toFixed(0)} ms, p90 ${p90(times).toFixed(0)} ms (warmUp ${warm.toFixed(0)} ms)`);
  // The name line alone: found by the English pass, cut out with a margin, read as one line.
  if (langs !== 'eng') {
    const lineTimes: number[] = [];
    for (const { c, decoded } of images) {
      const ocr = tsvToOcrText(await eng.recognize(decoded.ocrImage, 60_000), decoded.ocrWidth, decoded.ocrHeight);
      const m = findName(ocr, c.input.reviewerName ?? '');
      if (!m) continue;
      // As the adapter cuts it (`rereadLines`): the words of two letters or more, a margin of 0.4 of their height, enlarged twice.
      const line = ocr.lines[m.line]!;
      const named = line.words.filter((w) => (w.text.match(/\p{L}/gu) ?? []).length >= 2);
      const b = named.length > 0 ? { x0: Math.min(...named.map((w) => w.bbox.x0)), y0: Math.min(...named.map((w) => w.bbox.y0)), x1: Math.max(...named.map((w) => w.bbox.x1)), y1: Math.max(...named.map((w) => w.bbox.y1)) } : line.bbox;
      const pad = Math.round((b.y1 - b.y0) * 0.4);
      const left = Math.max(0, Math.floor(b.x0 - pad));
      const top = Math.max(0, Math.floor(b.y0 - pad));
      const width = Math.min(decoded.ocrWidth, Math.ceil(b.x1 + pad)) - left;
      const height = Math.min(decoded.ocrHeight, Math.ceil(b.y1 + pad)) - top;
      const crop = await sharp(decoded.ocrImage).extract({ left, top, width, height }).resize({ width: width * 2, kernel: 'lanczos3' }).png().toBuffer();
      started = performance.now();
      await pool.recognize(crop, 60_000, { pageSegMode: 7 });
      lineTimes.push(performance.now() - started);
    }
    console.log(`  name line again, ${langs.padEnd(22)} median ${median(lineTimes).toFixed(0)} ms, p90 ${p90(lineTimes).toFixed(0)} ms (${lineTimes.length} lines)`);
    await pool.close();
  }
}
await eng.close();
