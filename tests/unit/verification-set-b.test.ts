/**
 * Verification set B (issue 31 item 5, tests/fixtures/verification-set-b): the committed manifests
 * are what the recipes give, every label is well formed, the split follows its rule, and every
 * image exists. No drawing, no browser, no OCR.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignSplit, checkSet, lookAlike, manifestCases, MANIFEST_FILES, REASONS, rng, SET_DIR, SPLIT_RULE, stratum } from '../fixtures/verification-set-b/cases.ts';
import { loadManifestDir, loadVerificationSetB } from '../fixtures/verification-runner.ts';

describe('verification set B', () => {
  const cases = manifestCases();

  it('has manifests and images that agree with the recipes and the split rule', () => {
    expect(checkSet()).toEqual([]);
  });

  it('is the size the issue asks for, split 60/40 in every stratum of five or more, with genuine, plain and adversarial cases on both sides', () => {
    expect(cases.length).toBeGreaterThanOrEqual(120);
    const holdout = cases.filter((c) => c.split === 'holdout').length;
    expect(holdout / cases.length).toBeGreaterThan(0.33);
    expect(holdout / cases.length).toBeLessThan(0.45);
    for (const klass of ['genuine', 'plain_fake', 'adversarial']) {
      expect(cases.some((c) => c.split === 'train' && c.tags.class === klass)).toBe(true);
      expect(cases.some((c) => c.split === 'holdout' && c.tags.class === klass)).toBe(true);
    }
    const strata = new Map<string, { train: number; holdout: number }>();
    for (const c of cases) {
      const key = stratum({ kind: c.kind, verificationType: c.verificationType ?? null, reason: c.expected.reason });
      const t = strata.get(key) ?? { train: 0, holdout: 0 };
      if (c.split === 'holdout2') throw new Error(`${c.id}: the first draw holds no holdout2 case`);
      t[c.split]++;
      strata.set(key, t);
    }
    for (const [, t] of strata) if (t.train + t.holdout >= 5) expect(t.holdout).toBe(Math.floor((t.train + t.holdout + 1) / 5) + Math.floor((t.train + t.holdout + 3) / 5));
  });

  it('has a second draw of every recipe, all holdout2, with its customers and businesses drawn afresh', () => {
    const second = JSON.parse(readFileSync(path.join(SET_DIR, MANIFEST_FILES.holdout2), 'utf8')) as { cases: typeof cases };
    expect(second.cases.length).toBe(cases.length);
    expect(second.cases.every((c) => c.split === 'holdout2' && c.id.includes('-d2-') && c.image.startsWith('images/holdout2/'))).toBe(true);
    // The same recipe, other random choices: most scenes name another customer, business or language.
    const first = new Map(cases.map((c) => [c.id, c]));
    const changed = second.cases.filter((c) => {
      const before = first.get(c.id.replace('-d2-', '-'))!;
      return JSON.stringify(before.input) !== JSON.stringify(c.input) || before.businessName !== c.businessName || before.tags.language !== c.tags.language;
    });
    expect(changed.length / cases.length).toBeGreaterThan(0.8);
  });

  it('splits by the written rule: position in the stratum (kind and reason), ordered by class, platform, then the hash of the id', () => {
    const manifest = JSON.parse(readFileSync(path.join(SET_DIR, MANIFEST_FILES.holdout), 'utf8')) as { splitRule: string };
    expect(manifest.splitRule).toBe(SPLIT_RULE);
    // The rule depends on ids, strata and reasons only: reversing the input order changes nothing.
    const items = cases.map((c) => ({ id: c.id, kind: c.kind, platform: c.platform, verificationType: c.verificationType ?? null, klass: c.tags.class as 'genuine', reason: c.expected.reason }));
    const forward = assignSplit(items);
    const backward = assignSplit([...items].reverse());
    for (const c of cases) expect(backward.get(c.id)).toBe(forward.get(c.id));
  });

  it('labels every case with one known reason, in both shapes the runners read', () => {
    for (const c of cases) {
      expect(REASONS).toContain(c.expected.reason);
      expect(c.expect.isValid).toBe(c.expected.reason === 'valid');
      if (!c.expect.isValid) expect(c.expect.rejectionCode).toBe(c.expected.reason);
      expect(c.input.platform).toBe(c.platform);
    }
  });

  it('keeps genuine claims of accented names, some typed without their accents', () => {
    const names = cases.filter((c) => c.kind === 'review' && c.expected.valid).map((c) => c.input.reviewerName!);
    expect(names.some((n) => /[áéíóúñüöçãłśß]/i.test(n))).toBe(true);
    expect(names.some((n) => /^[\x20-\x7e]+$/.test(n) && cases.some((c) => c.input.reviewerName === n && c.tags.language !== 'en'))).toBe(true);
  });

  it('makes look-alike handles exactly one edit away', () => {
    const r = rng('test');
    for (const handle of ['cafe.lumiere', 'noodletheory', 'baeckerei_sonnenschein', 'harborlanebooks']) {
      for (let i = 0; i < 20; i++) {
        const other = lookAlike(r, handle);
        expect(other).not.toBe(handle);
        expect(Math.abs(other.length - handle.length)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('loads through the bench runner (--dir reads manifest.json, the train part)', () => {
    const train = loadManifestDir(SET_DIR);
    expect(train.length).toBe(cases.filter((c) => c.split === 'train').length);
    for (const c of train) expect(existsSync(c.image)).toBe(true);
    expect(train.every((c) => c.kind === 'review' || c.kind === 'follow' || c.kind === 'tag')).toBe(true);
    // and bench/verification.ts --set b-train / --set b-holdout
    expect(loadVerificationSetB('b-train').map((c) => c.id)).toEqual(train.map((c) => c.id));
    const holdout = loadVerificationSetB('b-holdout');
    expect(holdout.map((c) => c.id).sort()).toEqual(cases.filter((c) => c.split === 'holdout').map((c) => c.id).sort());
    expect(holdout.filter((c) => c.adversarial).length).toBe(cases.filter((c) => c.split === 'holdout' && c.tags.class === 'adversarial').length);
  });

  it('stays small enough to commit (under 40 MB)', () => {
    let bytes = 0;
    for (const c of cases) {
      bytes += statSync(path.join(SET_DIR, c.image)).size;
      if (c.history) bytes += statSync(path.join(SET_DIR, c.history.rewardedImageOf)).size;
    }
    expect(bytes).toBeLessThan(40 * 1024 * 1024);
  });
});
