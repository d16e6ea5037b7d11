import {
  isBlobContentType,
  newBlobKey,
  parseBlobKey,
  type BlobContentType,
  type BlobStore,
  type StoredBlob,
} from '../../modules/uploads/index.ts';

/**
 * Blobs in a Map, for tests that need a BlobStore but not a disk. Same key format and the
 * same refusals as DiskBlobStore (the contract suite in tests/integration/uploads.test.ts
 * runs against both), and it hands out copies so a caller cannot change what is stored.
 */
export class MemoryBlobStore implements BlobStore {
  readonly id = 'memory' as const;
  private readonly blobs = new Map<string, StoredBlob>();

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
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

  /** How many blobs are stored: lets a test prove that a refused upload stored nothing. */
  get size(): number {
    return this.blobs.size;
  }
}
