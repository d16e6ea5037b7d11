import { createHash } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { z } from 'zod';
import {
  checkBlobSize,
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

export type S3BlobStoreOptions = {
  bucket: string;
  /** An S3-compatible server (MinIO, R2, ...); unset: AWS itself. */
  endpoint?: string;
  /** Unset: the SDK's chain (AWS_REGION, the shared config file). */
  region?: string;
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted servers need it). */
  forcePathStyle?: boolean;
  maxBytes?: number;
  /** Tests only: fixed credentials. Otherwise the SDK's standard chain (environment, profile, instance role). */
  credentials?: S3ClientConfig['credentials'];
};

/**
 * Blobs as objects in one S3 bucket (ADR 075), keyed by the blob key itself (`yyyy/mm/<uuid>.webp`).
 * The object carries its content type and the SHA-256 of its bytes (`x-amz-meta-sha256`), which
 * `stat` answers from a HEAD without reading the body. Credentials come from the SDK's standard
 * chain; RewardLoop reads no key of its own.
 *
 * - Same key format, refusals and size cap as DiskBlobStore. `put` never overwrites because the key
 *   is a fresh UUID v4 (no conditional write is sent: not every S3-compatible server honours one).
 * - `get` refuses an object over the size cap by its Content-Length before reading the body.
 */
export class S3BlobStore implements BlobStore {
  readonly id = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly maxBytes: number | undefined;

  constructor(options: S3BlobStoreOptions) {
    if (!options.bucket) throw new Error('S3BlobStore needs a bucket.');
    this.bucket = options.bucket;
    this.maxBytes = options.maxBytes;
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.region ? { region: options.region } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      // Checksums only where S3 requires them: every S3-compatible server understands that.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
    checkBlobSize(data, this.maxBytes);
    const key = newBlobKey(contentType);
    await this.write(key, contentType, data);
    return { key };
  }

  async putAt(key: string, data: Buffer): Promise<void> {
    const { contentType } = parseBlobKey(key);
    checkBlobSize(data, this.maxBytes);
    await this.write(key, contentType, data);
  }

  async get(key: string): Promise<StoredBlob | null> {
    const { contentType } = parseBlobKey(key);
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) return null;
      if (object.ContentLength !== undefined) {
        try {
          checkBlobSize({ byteLength: object.ContentLength }, this.maxBytes);
        } catch (error) {
          await object.Body.transformToWebStream().cancel().catch(() => undefined);
          throw error;
        }
      }
      const data = Buffer.from(await object.Body.transformToByteArray());
      return { data, contentType };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    parseBlobKey(key);
    // S3 answers 204 for a key it does not have: deleting twice is not an error.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async stat(key: string): Promise<BlobStat | null> {
    parseBlobKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      const sha256 = head.Metadata?.sha256;
      if (sha256 && /^[0-9a-f]{64}$/.test(sha256) && head.ContentLength !== undefined) return { size: head.ContentLength, sha256 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    // An object written by something else (no sha256 metadata): hash its bytes.
    const blob = await this.get(key);
    return blob ? { size: blob.data.byteLength, sha256: hash(blob.data) } : null;
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (isBlobKey(object.Key)) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the SDK's sockets. */
  close(): void {
    this.client.destroy();
  }

  private async write(key: string, contentType: BlobContentType, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        // A copy: the caller may change its buffer once put() has returned.
        Body: Buffer.from(data),
        ContentType: contentType,
        ContentLength: data.byteLength,
        Metadata: { sha256: hash(data) },
      }),
    );
  }
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  return false;
}

function hash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** BLOB_STORE=s3: one bucket of an S3-compatible store; credentials from the SDK's standard chain. */
export const provider = defineProvider({
  id: 's3',
  options: z
    .object({
      S3_BUCKET: z
        .string({ error: 'is required with BLOB_STORE=s3 (the bucket that holds the uploads)' })
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots and hyphens)'),
      S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL (https://s3.example.com)' }).optional(),
      S3_REGION: z.string().min(1).optional(),
      S3_FORCE_PATH_STYLE: z.union([z.boolean(), bool]).default(false),
    })
    .transform(
      (c): S3BlobStoreOptions => ({
        bucket: c.S3_BUCKET,
        ...(c.S3_ENDPOINT ? { endpoint: c.S3_ENDPOINT } : {}),
        ...(c.S3_REGION ? { region: c.S3_REGION } : {}),
        forcePathStyle: c.S3_FORCE_PATH_STYLE,
      }),
    ),
  create: (options: S3BlobStoreOptions): BlobStore => new S3BlobStore(options),
});
