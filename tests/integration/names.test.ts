/**
 * Names as people write them, end to end (issue 31, part 0; ADR 076): review screenshots of
 * customers whose names carry accents or letters beyond English, drawn in DejaVu Serif (a font no
 * set the judge was tuned on uses; tests/fixtures/names/generate.ts), through the OCR verifier:
 * the name typed without its accents (or with them) passes, another name still fails with
 * name_mismatch.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OcrScreenshotVerifier } from '../../adapters/verification/OcrScreenshotVerifier.ts';
import type { FixtureCase } from '../fixtures/screenshots/generate.ts';

const DIR = path.join(import.meta.dirname, '../fixtures/names');
const manifest = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as { cases: FixtureCase[] };
const verifier = new OcrScreenshotVerifier({ size: 1 });

beforeAll(() => verifier.warmUp(), 120_000);
afterAll(() => verifier.close());

describe('accented reviewer names through the OCR verifier', () => {
  for (const c of manifest.cases) {
    if (c.kind !== 'review') continue;
    it(`${c.id}: ${c.note}`, { timeout: 120_000 }, async () => {
      const result = await verifier.verifyReview({ ...c.input, businessId: c.businessId, businessName: c.businessName, image: readFileSync(path.join(DIR, c.image)) });
      expect({ isValid: result.isValid, code: result.rejectionCode }).toEqual({ isValid: c.expect.isValid, code: c.expect.isValid ? null : c.expect.rejectionCode });
    });
  }
});
