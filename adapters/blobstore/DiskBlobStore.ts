import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  checkBlobSize,
  InvalidBlobKeyError,
  isBlobContentType,
  isBlobKey,
  newBlobKey,
  parseBlobKey,
  type BlobContentType,
  type BlobStat,
  type BlobStore,
  type StoredBlob,
} from '../../modules/uploads/server.ts';
import { defineProvider } from '../../modules/shared/index.ts';

/**
 * Blobs as files under one root folder (`<DATA_DIR>/uploads`), which nothing serves statically:
 * images reach a browser only through a route that checks who may see them.
 *
 * - Keys are ours (`yyyy/mm/<uuid>.webp`); anything else is refused before it touches a path.
 * - Writes are atomic: a temporary file in the same folder, flushed, then renamed into place,
 *   so a reader never sees half an image and a crash leaves at worst a `.tmp` file behind.
 * - Files are 0600 and folders 0700: only the server's user reads them.
 */
export class DiskBlobStore implements BlobStore {
  readonly id = 'disk' as const;
  readonly root: string;
  private readonly maxBytes: number | undefined;

  constructor(options: { root: string; maxBytes?: number }) {
    if (!options.root) throw new Error('DiskBlobStore needs a root folder.');
    this.root = path.resolve(options.root);
    this.maxBytes = options.maxBytes;
  }

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
    checkBlobSize(data, this.maxBytes);
    const key = newBlobKey(contentType);
    await this.write(key, data);
    return { key };
  }

  async putAt(key: string, data: Buffer): Promise<void> {
    parseBlobKey(key);
    checkBlobSize(data, this.maxBytes);
    await this.write(key, data);
  }

  /** Temp file in the target's folder, fsync, rename: a reader sees the old file or the new one. */
  private async write(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    await mkdir(folder, { recursive: true, mode: 0o700 });

    const temp = path.join(folder, `.${randomUUID()}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<StoredBlob | null> {
    const { contentType } = parseBlobKey(key);
    try {
      return { data: await readFile(this.pathOf(key)), contentType };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    parseBlobKey(key);
    await rm(this.pathOf(key), { force: true });
  }

  async stat(key: string): Promise<BlobStat | null> {
    const blob = await this.get(key);
    return blob ? { size: blob.data.byteLength, sha256: createHash('sha256').update(blob.data).digest('hex') } : null;
  }

  /** Every file whose path under the root is a key of ours (temporary `.tmp` files are not). */
  async *keys(): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (isBlobKey(key)) yield key;
    }
  }

  /** The file for a key. The key format already rules out traversal; the containment check is a second lock. */
  private pathOf(key: string): string {
    parseBlobKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new InvalidBlobKeyError(key);
    return file;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** BLOB_STORE=disk: files under DATA_DIR/uploads (the embedded default; one machine only). */
export const provider = defineProvider({
  id: 'disk',
  options: z.object({ DATA_DIR: z.string().min(1) }).transform((c) => ({ root: path.join(c.DATA_DIR, 'uploads') })),
  create: (options: { root: string }): BlobStore => new DiskBlobStore(options),
});
