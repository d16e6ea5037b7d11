/**
 * modules/uploads, the server face: all of index.ts, the BlobStore port's key and size rules
 * (`newBlobKey`, `checkBlobSize`, ...: the adapters' contract), the image checks and re-encoding (sharp,
 * file-type), `storeImageUpload` and `migrateBlobs` (`reward-cli blobs migrate`).
 */
export * from './limits.ts';
export * from './blob-store.ts';
export * from './images.ts';
export * from './store.ts';
export * from './migrate.ts';
