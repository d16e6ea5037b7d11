import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store.ts';

export type BlobMigrationOutcome =
  | { key: string; outcome: 'copied'; size: number }
  | { key: string; outcome: 'skipped'; size: number }
  | { key: string; outcome: 'vanished' }
  | { key: string; outcome: 'failed'; error: string };

export type BlobMigrationSummary = { seen: number; copied: number; skipped: number; vanished: number; failed: number; bytesCopied: number };

/**
 * Copies every blob of `from` into `to` under the same key (rows keep their keys), the use case of
 * `reward-cli blobs migrate` (ADR 075). Idempotent: a key whose copy already has the same size and
 * SHA-256 is skipped without reading its bytes; anything else is (re)written with `putAt` and
 * checked by `stat` afterwards. Nothing is deleted from `from`. A failure of one blob is reported
 * and the others go on.
 */
export async function migrateBlobs(
  from: BlobStore,
  to: BlobStore,
  onBlob: (result: BlobMigrationOutcome, index: number) => void = () => undefined,
): Promise<BlobMigrationSummary> {
  const summary: BlobMigrationSummary = { seen: 0, copied: 0, skipped: 0, vanished: 0, failed: 0, bytesCopied: 0 };
  for await (const key of from.keys()) {
    summary.seen += 1;
    let result: BlobMigrationOutcome;
    try {
      result = await migrateOne(from, to, key);
    } catch (error) {
      result = { key, outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    summary[result.outcome] += 1;
    if (result.outcome === 'copied') summary.bytesCopied += result.size;
    onBlob(result, summary.seen);
  }
  return summary;
}

async function migrateOne(from: BlobStore, to: BlobStore, key: string): Promise<BlobMigrationOutcome> {
  const there = await to.stat(key);
  if (there) {
    const here = await from.stat(key);
    if (!here) return { key, outcome: 'vanished' };
    if (here.size === there.size && here.sha256 === there.sha256) return { key, outcome: 'skipped', size: here.size };
  }
  const blob = await from.get(key);
  if (!blob) return { key, outcome: 'vanished' };
  const sha256 = createHash('sha256').update(blob.data).digest('hex');
  await to.putAt(key, blob.data);
  const written = await to.stat(key);
  if (!written || written.size !== blob.data.byteLength || written.sha256 !== sha256) {
    throw new Error(`the copy of ${key} does not match (size or SHA-256)`);
  }
  return { key, outcome: 'copied', size: blob.data.byteLength };
}
