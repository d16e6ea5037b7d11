/**
 * Verification set C (tests/fixtures/verification-set-c): the committed manifests are what the
 * recipes give, every image exists, decodes and has the sha256 its manifest records, the counts
 * are the README's, the split follows its written rule, and every label is a known code. No
 * drawing, no browser, no OCR, no verifier.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { REJECTION_CODES } from '../../modules/verification/port.ts';
import { rng, lookAlike, stripAccents } from '../fixtures/verification-set-c/data.ts';
import { checkSet, counts, LATER_DRAWS, manifestCases, MANIFEST_FILES, readManifest, SET_DIR } from '../fixtures/verification-set-c/manifest.ts';
import { assignSplit, recipes, SPLIT_RULE, splitRuleOfDraw, stratum } from '../fixtures/verification-set-c/recipes.ts';
import { loadVerificationSetC, VERIFICATION_SET_C_PARTS } from '../fixtures/verification-runner.ts';

describe('verification set C', () => {
  const cases = manifestCases();

  it('has manifests and images that agree with the recipes, their hashes and the split rule', () => {
    expect(checkSet()).toEqual([]);
  });

  it('holds 150 cases: 69 genuine, 51 plain fakes, 30 adversarial, with the counts each manifest states', () => {
    expect(cases.length).toBe(150);
    const klass = (k: string) => cases.filter((c) => c.tags.class === k).length;
    expect([klass('genuine'), klass('plain_fake'), klass('adversarial')]).toEqual([69, 51, 30]);
    for (const part of ['train', 'holdout'] as const) {
      const manifest = readManifest(part);
      expect(manifest.part).toBe(part);
      expect(manifest.counts).toEqual(counts(manifest.cases));
    }
  });

  it('splits by the written rule: about one third train, the first of every three in each stratum (kind and reason) by the hash of the id', () => {
    for (const part of ['train', 'holdout'] as const) expect(readManifest(part).splitRule).toBe(SPLIT_RULE);
    const train = cases.filter((c) => c.split === 'train').length;
    expect(train / cases.length).toBeGreaterThan(0.3);
    expect(train / cases.length).toBeLessThan(0.42);
    const strata = new Map<string, { train: number; holdout: number }>();
    for (const c of cases) {
      const key = stratum({ kind: c.kind === 'review' ? 'review' : c.verificationType!, reason: c.expected.reason });
      const t = strata.get(key) ?? { train: 0, holdout: 0 };
      t[c.split === 'train' ? 'train' : 'holdout']++;
      strata.set(key, t);
    }
    for (const [, t] of strata) expect(t.train).toBe(Math.ceil((t.train + t.holdout) / 3));
    // The rule depends on ids, kinds and reasons only: reversing the input order changes nothing.
    const list = recipes();
    const forward = assignSplit(list);
    const backward = assignSplit([...list].reverse());
    for (const c of cases) expect(backward.get(c.id)).toBe(forward.get(c.id));
    for (const klass of ['genuine', 'plain_fake', 'adversarial']) {
      expect(cases.some((c) => c.split === 'train' && c.tags.class === klass)).toBe(true);
      expect(cases.some((c) => c.split === 'holdout' && c.tags.class === klass)).toBe(true);
    }
  });

  it('labels every case with one verdict: valid, or a rejection code of the port, in both shapes the runners read', () => {
    for (const c of cases) {
      if (c.expected.reason !== 'valid') expect(REJECTION_CODES).toContain(c.expected.reason);
      expect(c.expect.isValid).toBe(c.expected.reason === 'valid');
      expect(c.expected.valid).toBe(c.expect.isValid);
      if (!c.expect.isValid) expect(c.expect.rejectionCode).toBe(c.expected.reason);
      expect(c.input.platform).toBe(c.platform);
      if (c.kind === 'review') expect(['google', 'yelp', 'facebook']).toContain(c.platform);
      else expect(['instagram', 'facebook', 'x', 'tiktok']).toContain(c.platform);
      if (c.expected.reason === 'duplicate') expect(c.history?.rewardedImageOf.startsWith(`images/${c.split}/`)).toBe(true);
      else expect(c.history).toBeUndefined();
    }
  });

  it('has images that decode, thumbnails about 120 px wide, at most 15 MiB in all', async () => {
    let bytes = 0;
    for (const c of cases) {
      for (const file of [c.image, c.history?.rewardedImageOf]) {
        if (!file) continue;
        bytes += statSync(path.join(SET_DIR, file)).size;
        const meta = await sharp(readFileSync(path.join(SET_DIR, file))).metadata();
        expect(meta.width).toBeGreaterThan(0);
        if (file === c.image && c.tags.thumbnail) expect(meta.width).toBe(120);
        else expect(meta.width).toBeGreaterThanOrEqual(300);
        expect(meta.format).toBe(({ png: 'png', jpg: 'jpeg', webp: 'webp' } as const)[file.split('.').pop() as 'png']);
      }
    }
    expect(bytes).toBeLessThanOrEqual(15 * 1024 * 1024);
  });

  it('keeps claims of accented names, some typed without their accents or in lower case', () => {
    const names = cases.filter((c) => c.kind === 'review' && c.expected.valid).map((c) => c.input.reviewerName!);
    expect(names.some((n) => stripAccents(n) !== n)).toBe(true);
    expect(cases.some((c) => c.expected.valid && c.tags.claimForm === 'no-accents')).toBe(true);
    expect(cases.some((c) => c.expected.valid && c.tags.claimForm === 'lower-case')).toBe(true);
  });

  it('makes look-alike handles exactly one edit away', () => {
    const r = rng('test');
    for (const handle of ['cafelumiere', 'baeckerei.morgenrot', 'trattoria_ilgabbiano', 'zlotakaczka']) {
      for (let i = 0; i < 20; i++) {
        const other = lookAlike(r, handle);
        expect(other).not.toBe(handle);
        expect(Math.abs(other.length - handle.length)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('loads through the bench runner (--set c-train, --set c-holdout)', () => {
    const train = loadVerificationSetC('c-train');
    const holdout = loadVerificationSetC('c-holdout');
    expect(train.map((c) => c.id)).toEqual(readManifest('train').cases.map((c) => c.id));
    expect(holdout.map((c) => c.id)).toEqual(readManifest('holdout').cases.map((c) => c.id));
    for (const c of [...train, ...holdout]) {
      expect(['review', 'follow', 'tag']).toContain(c.kind);
      if (c.kind !== 'review') expect(c.businessHandle).toBeTruthy();
      if (c.expect.isValid) expect(c.expect.code).toBeNull();
      expect(c.adversarial).toBe(c.group === 'adversarial');
    }
    expect(holdout.filter((c) => c.adversarial).length).toBe(cases.filter((c) => c.split === 'holdout' && c.tags.class === 'adversarial').length);
    expect(Object.values(MANIFEST_FILES)).toEqual(['manifest.json', 'manifest-holdout.json', 'manifest-holdout2.json', 'manifest-holdout3.json', 'manifest-holdout4.json']);
  });
});

for (const { draw, part } of LATER_DRAWS) describe(`verification set C, draw ${draw} (${part})`, () => {
  const first = manifestCases();
  const manifest = readManifest(part);
  const cases = manifest.cases;

  it('holds the same 150 recipes with new ids (suffix -dN), every case in its own holdout part, with the counts it states', () => {
    expect(cases.length).toBe(150);
    expect(manifest.part).toBe(part);
    expect(manifest.splitRule).toBe(splitRuleOfDraw(draw));
    expect(manifest.counts).toEqual(counts(cases));
    const klass = (k: string) => cases.filter((c) => c.tags.class === k).length;
    expect([klass('genuine'), klass('plain_fake'), klass('adversarial')]).toEqual([69, 51, 30]);
    const firstIds = new Set(first.map((c) => c.id));
    expect(new Set(cases.map((c) => c.id)).size).toBe(150);
    for (const c of cases) {
      expect(c.split).toBe(part);
      expect(c.image.startsWith(`images/${part}/`)).toBe(true);
      expect(c.id.endsWith(`-d${draw}`)).toBe(true);
      expect(firstIds.has(c.id)).toBe(false);
      expect(firstIds.has(c.id.slice(0, -3))).toBe(true);
    }
    // Same recipes: the same expected verdicts per recipe as the first draw.
    const byFirst = new Map(first.map((c) => [c.id, c]));
    for (const c of cases) expect(c.expected).toEqual(byFirst.get(c.id.slice(0, -3))!.expected);
    // Drawn afresh: most cases differ from their first-draw twin in device, language or business.
    const differ = cases.filter((c) => {
      const f = byFirst.get(c.id.slice(0, -3))!;
      return f.tags.device !== c.tags.device || f.tags.language !== c.tags.language || f.businessId !== c.businessId;
    }).length;
    expect(differ).toBeGreaterThan(120);
  });

  it('labels every case with a known code, duplicates with an earlier image in their own part', () => {
    for (const c of cases) {
      if (c.expected.reason !== 'valid') expect(REJECTION_CODES).toContain(c.expected.reason);
      expect(c.expect.isValid).toBe(c.expected.reason === 'valid');
      if (!c.expect.isValid) expect(c.expect.rejectionCode).toBe(c.expected.reason);
      expect(c.input.platform).toBe(c.platform);
      if (c.expected.reason === 'duplicate') {
        expect(c.history?.rewardedImageOf.startsWith(`images/${part}/`)).toBe(true);
        expect(c.history?.sha256).toMatch(/^[0-9a-f]{64}$/);
      } else expect(c.history).toBeUndefined();
    }
    expect(cases.filter((c) => c.history).length).toBe(6);
  });

  it('has images that exist, hash as recorded and decode, thumbnails 120 px wide, at most 16 MiB in all', async () => {
    let bytes = 0;
    for (const c of cases) {
      for (const [file, hash] of [[c.image, c.sha256], [c.history?.rewardedImageOf, c.history?.sha256]] as const) {
        if (!file) continue;
        const buf = readFileSync(path.join(SET_DIR, file));
        bytes += buf.length;
        expect(createHash('sha256').update(buf).digest('hex')).toBe(hash);
        const meta = await sharp(buf).metadata();
        if (file === c.image && c.tags.thumbnail) expect(meta.width).toBe(120);
        else expect(meta.width).toBeGreaterThanOrEqual(300);
        expect(meta.format).toBe(({ png: 'png', jpg: 'jpeg', webp: 'webp' } as const)[file.split('.').pop() as 'png']);
      }
    }
    expect(bytes).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it('loads through the bench runner (--set c-holdoutN), every case a holdout case', () => {
    const loaded = loadVerificationSetC(`c-${part}`);
    expect(loaded.map((c) => c.id)).toEqual(cases.map((c) => c.id));
    expect(VERIFICATION_SET_C_PARTS).toContain(`c-${part}`);
    for (const c of loaded) {
      if (c.kind !== 'review') expect(c.businessHandle).toBeTruthy();
      expect(c.adversarial).toBe(c.group === 'adversarial');
    }
  });
});
