import { createHash } from 'node:crypto';
import {
  checkBlobSize,
  isBlobContentType,
  newBlobKey,
  parseBlobKey,
  type BlobContentType,
  type BlobStat,
  type BlobStore,
  type StoredBlob,
} from '../../modules/uploads/server.ts';

/**
 * Blobs in a Map, for tests that need a BlobStore but not a disk. Same key format, size cap and
 * refusals as the real adapters (the contract suite, tests/integration/blob-store.contract.test.ts,
 * runs against all of them), and it hands out copies so a caller cannot change what is stored.
 */
export class MemoryBlobStore implements BlobStore {
  readonly id = 'memory' as const;
  private readonly blobs = new Map<string, StoredBlob>();
  private readonly maxBytes: number | undefined;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = options.maxBytes;
  }

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
    checkBlobSize(data, this.maxBytes);
    const key = newBlobKey(contentType);
    this.blobs.set(key, { data: Buffer.from(data), contentType });
    return { key };
  }

  async get(key: string): Promise<StoredBlob | null> {
    parseBlobKey(key);
    const blob = this.blobs.get(key);
    return blob ? { data: Buffer.from(blob.data), contentType: blob.contentType } : null;
  }

  async delete(key: string): Promise<void> {
    parseBlobKey(key);
    this.blobs.delete(key);
  }

  async stat(key: string): Promise<BlobStat | null> {
    parseBlobKey(key);
    const blob = this.blobs.get(key);
    return blob ? { size: blob.data.byteLength, sha256: createHash('sha256').update(blob.data).digest('hex') } : null;
  }

  async *keys(): AsyncIterable<string> {
    yield* [...this.blobs.keys()];
  }

  async putAt(key: string, data: Buffer): Promise<void> {
    const { contentType } = parseBlobKey(key);
    checkBlobSize(data, this.maxBytes);
    this.blobs.set(key, { data: Buffer.from(data), contentType });
  }

  /** How many blobs are stored: lets a test prove that a refused upload stored nothing. */
  get size(): number {
    return this.blobs.size;
  }
}
