import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  InvalidBlobKeyError,
  isBlobContentType,
  newBlobKey,
  parseBlobKey,
  type BlobContentType,
  type BlobStore,
  type StoredBlob,
} from '../../modules/uploads/index.ts';

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

  constructor(options: { root: string }) {
    if (!options.root) throw new Error('DiskBlobStore needs a root folder.');
    this.root = path.resolve(options.root);
  }

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
    const key = newBlobKey(contentType);
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
    return { key };
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
