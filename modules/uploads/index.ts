/**
 * modules/uploads, the browser-safe face (the customer page's checks use it): the upload limits and
 * their words, and the types of the BlobStore port and of a stored upload. No sharp, no node: import.
 * The image checks and re-encoding, the blob keys and size rules, `storeImageUpload` and `migrateBlobs`
 * are in `./server.ts`.
 */
export * from './limits.ts';
export type { BlobContentType, BlobStat, BlobStore, BlobStoreId, StoredBlob } from './blob-store.ts';
export type { StoredUpload } from './store.ts';
