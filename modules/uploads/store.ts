import type { BlobStore } from './blob-store.ts';
import { processImageUpload, type ImageContentType, type ImageUploadError, type ImageUploadOptions } from './images.ts';

/** What a response row keeps about an uploaded screenshot: a key into the BlobStore, never the bytes. */
export type StoredUpload = {
  key: string;
  contentType: ImageContentType;
  width: number;
  height: number;
  byteLength: number;
  sha256: string;
};

/**
 * Checks, re-encodes and stores one uploaded image. Bad input comes back as a refusal; a failing store throws.
 * `data` is the stored (re-encoded) image, for a caller that judges what it stored (the screenshot verifier).
 */
export async function storeImageUpload(
  store: BlobStore,
  bytes: Uint8Array,
  options?: ImageUploadOptions,
): Promise<{ ok: true; upload: StoredUpload; data: Buffer } | ImageUploadError> {
  const processed = await processImageUpload(bytes, options);
  if (!processed.ok) return processed;
  const { data, contentType, width, height, sha256 } = processed.image;
  const { key } = await store.put(data, contentType);
  return { ok: true, upload: { key, contentType, width, height, byteLength: data.byteLength, sha256 }, data };
}
