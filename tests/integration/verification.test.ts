/**
 * Screenshot verification: one contract run against both ScreenshotVerifier adapters, then the
 * OCR verifier's accuracy on the rendered fixture set (tests/fixtures/screenshots/manifest.json).
 * One OCR pool (2 workers) serves the whole file.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeScreenshotVerifier } from '../../adapters/verification/FakeScreenshotVerifier.ts';
import { OcrScreenshotVerifier } from '../../adapters/verification/OcrScreenshotVerifier.ts';
import { defaultLangPath } from '../../adapters/verification/TesseractPool.ts';
import { InMemoryVerificationHistory } from '../../modules/verification/history.ts';
import { OCR_TIMEOUT_REASON } from '../../modules/verification/judge.ts';
import type { ReviewVerificationRequest, ScreenshotVerifier, SocialVerificationRequest, VerificationResult } from '../../modules/verification/port.ts';
import { accuracy, fixtureImage, loadManifest, runCases, SCREENSHOTS_DIR } from '../fixtures/screenshots/cases.ts';
import { acceptedOutright, loadVerificationSet, report, runAll } from '../fixtures/verification-runner.ts';

const ocrHistory = new InMemoryVerificationHistory();
const ocr = new OcrScreenshotVerifier({ history: ocrHistory, size: 2 });
const fakeHistory = new InMemoryVerificationHistory();
const fake = new FakeScreenshotVerifier({ history: fakeHistory });

beforeAll(() => ocr.warmUp(), 60_000);
afterAll(async () => {
  await ocr.close();
});

const review = (patch: Partial<ReviewVerificationRequest> = {}): ReviewVerificationRequest => ({
  businessId: 'biz-crumb',
  businessName: 'Crumb & Co Bakery',
  platform: 'google',
  image: fixtureImage('google-review-ana.png'),
  reviewerName: 'Ana Pereira',
  reviewLink: 'https://maps.app.goo.gl/x7Qm2aVbC9dEf',
  ...patch,
});

const follow = (patch: Partial<SocialVerificationRequest> = {}): SocialVerificationRequest => ({
  businessId: 'biz-crumb',
  businessName: 'Crumb & Co Bakery',
  platform: 'instagram',
  image: fixtureImage('instagram-follow.png'),
  userHandle: '@ana.pereira',
  businessHandle: '@crumbandco',
  verificationType: 'follow',
  ...patch,
});

function expectShape(result: VerificationResult): void {
  expect(typeof result.isValid).toBe('boolean');
  expect(result.evidence.imageHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  if (result.isValid) {
    expect(result.rejectionReason).toBeNull();
    expect(result.rejectionCode).toBeNull();
  } else {
    expect(typeof result.rejectionReason).toBe('string');
    expect(result.rejectionReason!.length).toBeGreaterThan(20);
    expect(result.rejectionReason).toMatch(/[.!]$/);
    expect(result.rejectionCode).toEqual(expect.any(String));
  }
}

type Subject = {
  name: string;
  verifier: ScreenshotVerifier;
  history: InMemoryVerificationHistory;
  /** A review this adapter must reject on its own terms (OCR: someone else's review; fake: the reject name). */
  mustReject: ReviewVerificationRequest;
};

describe.each<Subject>([
  { name: 'OcrScreenshotVerifier', verifier: ocr, history: ocrHistory, mustReject: review({ image: fixtureImage('google-review-jose.jpg') }) },
  { name: 'FakeScreenshotVerifier', verifier: fake, history: fakeHistory, mustReject: review({ reviewerName: 'Reject' }) },
])('ScreenshotVerifier contract: $name', ({ verifier, history, mustReject }) => {
  it('accepts a genuine review and a genuine follow', async () => {
    const results = await Promise.all([verifier.verifyReview(review({ businessId: 'contract-genuine' })), verifier.verifySocial(follow({ businessId: 'contract-genuine' }))]);
    for (const result of results) {
      expectShape(result);
      expect(result.isValid).toBe(true);
    }
  });

  it('rejects with a reason the customer can read', async () => {
    const result = await verifier.verifyReview({ ...mustReject, businessId: 'contract-reject' });
    expectShape(result);
    expect(result.isValid).toBe(false);
  });

  it('rejects an image already rewarded for the business, and only for that business', async () => {
    const first = await verifier.verifyReview(review({ businessId: 'contract-dup' }));
    expect(first.isValid).toBe(true);
    history.markRewarded('contract-dup', first.evidence);
    const again = await verifier.verifyReview(review({ businessId: 'contract-dup' }));
    expectShape(again);
    expect(again).toMatchObject({ isValid: false, rejectionCode: 'duplicate', evidence: { imageHash: first.evidence.imageHash } });
    expect(again.rejectionReason).toContain('already been used for a reward at Crumb & Co Bakery');
    expect((await verifier.verifyReview(review({ businessId: 'contract-dup-other' }))).isValid).toBe(true);

    const followed = await verifier.verifySocial(follow({ businessId: 'contract-dup' }));
    history.markRewarded('contract-dup', followed.evidence);
    expect(await verifier.verifySocial(follow({ businessId: 'contract-dup' }))).toMatchObject({ isValid: false, rejectionCode: 'duplicate' });
  });

  it.each([
    ['a link on another platform', { reviewLink: 'https://www.yelp.com/biz/crumb' }, 'wrong_platform'],
    ['something that is not a link', { reviewLink: 'my review' }, 'not_posted'],
    ['no reviewer name', { reviewerName: '  ' }, 'name_mismatch'],
    ['no link', { reviewLink: '' }, 'not_posted'],
    ['an empty image', { image: Buffer.alloc(0) }, 'unreadable'],
  ])('rejects %s', async (_label, patch, code) => {
    const result = await verifier.verifyReview(review({ businessId: 'contract-input', ...patch }));
    expectShape(result);
    expect(result.isValid).toBe(false);
    expect(result.rejectionCode).toBe(code);
  });

  it('rejects a social request without handles', async () => {
    expect(await verifier.verifySocial(follow({ userHandle: '' }))).toMatchObject({ isValid: false, rejectionCode: 'wrong_account' });
    expect(await verifier.verifySocial(follow({ businessHandle: '@' }))).toMatchObject({ isValid: false, rejectionCode: 'wrong_business' });
  });

  it('throws on a platform outside the spec', async () => {
    await expect(verifier.verifyReview(review({ platform: 'tripadvisor' as never }))).rejects.toThrow(TypeError);
    await expect(verifier.verifySocial(follow({ platform: 'myspace' as never }))).rejects.toThrow(TypeError);
    await expect(verifier.verifySocial(follow({ verificationType: 'like' as never }))).rejects.toThrow(TypeError);
  });
});

describe('FakeScreenshotVerifier', () => {
  it('rejects images carrying the marker, and can be configured', async () => {
    const marked = Buffer.concat([fixtureImage('google-review-ana.png'), Buffer.from('FAKE-REJECT')]);
    expect(await fake.verifyReview(review({ image: marked }))).toMatchObject({ isValid: false, rejectionCode: 'not_a_review' });
    const custom = new FakeScreenshotVerifier({ rejectName: 'nope', rejectionReason: 'Custom reason.', rejectionCode: 'name_mismatch', checkLinks: false });
    expect(await custom.verifyReview(review({ reviewerName: 'Nope', reviewLink: 'https://example.com' }))).toEqual({
      verdict: 'rejected',
      isValid: false,
      rejectionReason: 'Custom reason.',
      rejectionCode: 'name_mismatch',
      reviewCode: null,
      reviewReason: null,
      evidence: { imageHash: expect.stringMatching(/^sha256:/) as string },
    });
    expect(await custom.verifyReview(review({ reviewLink: 'https://example.com' }))).toMatchObject({ isValid: true });
    expect(custom.calls).toHaveLength(2);
  });
});

describe('OcrScreenshotVerifier', () => {
  it('reads its language data from the installed package, never from the network', () => {
    const langPath = defaultLangPath();
    expect(path.isAbsolute(langPath)).toBe(true);
    expect(existsSync(path.join(langPath, 'eng.traineddata.gz'))).toBe(true);
  });

  it('fails loudly (throws, so the job retries) when its language data is missing', async () => {
    const broken = new OcrScreenshotVerifier({ langPath: '/nonexistent/tessdata' });
    await expect(broken.verifyReview(review())).rejects.toThrow(/language data not found/);
    await broken.close();
  });

  it('returns the review text and stars as evidence', async () => {
    const result = await ocr.verifyReview(review({ businessId: 'evidence' }));
    expect(result.isValid).toBe(true);
    expect(result.evidence.reviewText).toMatch(/^Best croissants in Portland, flaky and buttery/);
    expect(result.evidence.normalisedReviewText).toMatch(/^bestcrolssantslnportland/);
    expect(result.evidence.starRating).toBe(5);
  });

  it('gives the timeout reason when OCR is too slow, and recovers afterwards', async () => {
    const impatient = new OcrScreenshotVerifier({ size: 1, ocrTimeoutMs: 1 });
    try {
      await impatient.warmUp();
      const result = await impatient.verifyReview(review());
      expect(result).toMatchObject({ isValid: false, rejectionCode: 'unreadable', rejectionReason: OCR_TIMEOUT_REASON });
      expect(impatient.pool.started).toBe(false); // the busy worker was retired
      // The next image gets fresh workers (here with the same 1 ms limit: it times out again, cleanly).
      expect(await impatient.verifyReview(review())).toMatchObject({ rejectionCode: 'unreadable' });
    } finally {
      await impatient.close();
    }
  });

  it('is usable again after close()', async () => {
    const short = new OcrScreenshotVerifier({ size: 1 });
    try {
      expect((await short.verifySocial(follow({ image: fixtureImage('tiktok-follow.png'), platform: 'tiktok' }))).isValid).toBe(true);
      await short.close();
      expect(short.pool.started).toBe(false);
      expect((await short.verifySocial(follow({ image: fixtureImage('x-follow.png'), platform: 'x' }))).isValid).toBe(true);
    } finally {
      await short.close();
    }
  });
});

describe('fixture set', () => {
  it('stays small, and every case names a committed image', () => {
    const { images, cases } = loadManifest();
    const sizes = images.map((file) => statSync(path.join(SCREENSHOTS_DIR, file)).size);
    expect(Math.max(...sizes)).toBeLessThan(150 * 1024);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(3 * 1024 * 1024);
    for (const c of cases) {
      for (const file of [c.image, c.history?.rewardedImageOf, c.history?.rewardedReviewTextOf].filter(Boolean)) expect(images).toContain(file);
    }
    expect(cases.filter((c) => c.expect.isValid).length).toBeGreaterThanOrEqual(10);
    expect(new Set(cases.filter((c) => !c.expect.isValid).map((c) => c.expect.rejectionCode)).size).toBeGreaterThanOrEqual(8);
  });
});

describe('OCR accuracy on the fixture set', () => {
  /*
   * Threshold: every case. The fixtures are rendered deterministically (fixed fonts, no
   * randomness) and OCR is deterministic for a given tesseract.js build and model, so anything
   * short of 100% is a regression in the judge or the preprocessing, not noise. In particular a
   * must-fail case that passes would pay a reward for a fake, and a genuine one that fails would
   * turn away a real customer. The rejection code must match too, so the customer is told the
   * right thing. Run `node bench/verification.ts` to see each case.
   */
  it('decides every case as the manifest expects', async () => {
    const { cases } = loadManifest();
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const outcomes = await runCases(ocr, ocrHistory, cases, ocr.pool.size);
    const wrong = outcomes.filter((o) => !o.correct).map((o) => `${o.case.id}: got ${o.result.rejectionCode ?? 'valid'} (${o.result.rejectionReason ?? ''})`);
    expect(wrong).toEqual([]);
    const score = accuracy(outcomes);
    expect(score.genuine.accepted).toBe(score.genuine.total);
    expect(score.mustFail.rejected).toBe(score.mustFail.total);
    expect(score.stars.correct).toBe(score.stars.total);
    for (const o of outcomes) expectShape(o.result);
  }, 240_000);
});

describe('the independent set, train part (a sample; the whole set and the holdouts are for bench/verification.ts)', () => {
  /*
   * One case per kind (review, follow, tag) and expected verdict, two of the genuine ones (the
   * first in the manifest), about 20 images: what the judge was tuned on, so a regression shows
   * here cheaply. (Two per cell, about 40 images, took 206 s of the 240 s allowed under a load
   * average of 14 on 2 cores: a CI risk; the whole train part, 149 cases, is in the bench.) No fake
   * of the sample may pass (a lossy copy of a rewarded social screenshot included, ADR 067), and at
   * most one case in seven may be decided wrongly (the whole train part is at 94%: OCR cannot read
   * some overlays and stickers). The holdout parts are never run by tests.
   */
  it('accepts no fake of the sample (not even a lossy copy of a rewarded social screenshot) and decides most cases right', async () => {
    const cases = loadVerificationSet('train');
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const seen = new Map<string, number>();
    const sample = cases.filter((c) => {
      const key = `${c.kind}/${c.expect.code ?? 'valid'}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return seen.get(key)! <= (c.expect.isValid ? 2 : 1);
    });
    // Every kind, and every rejection code the train part has, is in the sample.
    expect(new Set(sample.map((c) => c.kind))).toEqual(new Set(['review', 'follow', 'tag']));
    expect(new Set(sample.map((c) => c.expect.code))).toEqual(new Set(cases.map((c) => c.expect.code)));
    expect(sample.length).toBeGreaterThanOrEqual(18);
    const outcomes = await runAll(ocr, ocrHistory, sample, ocr.pool.size);
    const r = report(outcomes);
    const wrong = outcomes.filter((o) => !o.correct).map((o) => `${o.case.id}: got ${o.result?.rejectionCode ?? o.error ?? 'valid'}`);
    // No fake passes: a lossy copy of a rewarded follow or tag screenshot is found by its fingerprint (ADR 067).
    // (A fake sent to the owner's review, ADR 077, is not accepted: its reward waits for the owner.)
    const fakesAccepted = outcomes.filter((o) => !o.case.expect.isValid && acceptedOutright(o.result));
    expect(fakesAccepted.map((o) => o.case.id)).toEqual([]);
    expect(r.plainFakes.accepted + r.adversarialFakes.accepted).toBe(fakesAccepted.length);
    expect(r.overall.right / r.overall.total, wrong.join('; ')).toBeGreaterThanOrEqual(6 / 7);
    for (const o of outcomes) if (o.result) expectShape(o.result);
  }, 240_000);
});
