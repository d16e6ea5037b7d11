/**
 * The BlobStore contract (ADR 075), run against every adapter: DiskBlobStore, MemoryBlobStore,
 * PostgresBlobStore (on the test run's PostgreSQL) and S3BlobStore (against s3rver, a real
 * S3-compatible server started here). Then what only the shared stores promise: two instances on
 * one database (or one bucket) read each other's blobs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../adapters/blobstore/DiskBlobStore.ts';
import { MemoryBlobStore } from '../../adapters/blobstore/MemoryBlobStore.ts';
import { BLOB_CHUNK_BYTES, PostgresBlobStore } from '../../adapters/blobstore/PostgresBlobStore.ts';
import { S3BlobStore } from '../../adapters/blobstore/S3BlobStore.ts';
import { createLogger } from '../../modules/shared/logger.ts';
import { BlobTooLargeError, InvalidBlobKeyError, MAX_UPLOAD_BYTES, newBlobKey, type BlobStore } from '../../modules/uploads/server.ts';
import { createRoot, type Root } from '../../server/composition.ts';
import { startTestS3, type TestS3 } from '../setup/s3.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let scratch: string;
let app: TestApp;
let s3: TestS3;
const opened: BlobStore[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'rewardloop-blobs-'));
  app = await createTestApp({ BLOB_STORE: 'postgres' });
  s3 = await startTestS3();
});
afterAll(async () => {
  for (const store of opened) await store.close?.();
  await app?.close();
  await s3?.close();
  await rm(scratch, { recursive: true, force: true });
});

type Make = (options?: { maxBytes?: number }) => BlobStore;
let diskCount = 0;
const adapters: Array<{ name: string; make: Make }> = [
  { name: 'DiskBlobStore', make: (o) => new DiskBlobStore({ root: path.join(scratch, `disk-${(diskCount += 1)}`), ...o }) },
  { name: 'MemoryBlobStore', make: (o) => new MemoryBlobStore(o) },
  { name: 'PostgresBlobStore', make: (o) => new PostgresBlobStore({ em: app.root.db.orm.em, ...o }) },
  {
    name: 'S3BlobStore',
    make: (o) => {
      const store = new S3BlobStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, ...o });
      opened.push(store);
      return store;
    },
  },
];

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function allKeys(store: BlobStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.keys()) keys.push(key);
  return keys;
}

const invalidKeys = [
  '../escaped.webp',
  '../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '2026\\01\\00000000-0000-4000-8000-000000000000.webp',
  '2026/01/00000000-0000-4000-8000-000000000000.webp\0.png',
  '2026/01/../../../00000000-0000-4000-8000-000000000000.webp',
  '2026/01/00000000-0000-4000-8000-000000000000.html',
  '2026/13/00000000-0000-4000-8000-000000000000.webp',
  '2026/01/00000000-0000-4000-8000-000000000000.WEBP',
  '',
];

describe.each(adapters)('BlobStore contract: $name', ({ make }) => {
  it('round-trips a multi-chunk blob byte for byte, with its content type, under a generated key', async () => {
    const store = make();
    // Three and a bit of PostgresBlobStore's 256 KiB chunks, random so no chunk equals another.
    const data = randomBytes(3 * BLOB_CHUNK_BYTES + 12_345);
    const { key } = await store.put(data, 'image/webp');
    expect(key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}\.webp$/);
    const read = await store.get(key);
    expect(read?.contentType).toBe('image/webp');
    expect(read?.data.byteLength).toBe(data.byteLength);
    expect(read?.data.equals(data)).toBe(true);
    expect(await store.stat(key)).toEqual({ size: data.byteLength, sha256: sha256(data) });

    for (const [type, extension] of [['image/jpeg', 'jpg'], ['image/png', 'png']] as const) {
      const other = await store.put(Buffer.from(`${type} bytes`), type);
      expect(other.key.endsWith(`.${extension}`)).toBe(true);
      expect(await store.get(other.key)).toEqual({ data: Buffer.from(`${type} bytes`), contentType: type });
    }
  });

  it('an empty blob and one of exactly a chunk round-trip too', async () => {
    const store = make();
    for (const data of [Buffer.alloc(0), randomBytes(BLOB_CHUNK_BYTES)]) {
      const { key } = await store.put(data, 'image/png');
      expect((await store.get(key))?.data.equals(data)).toBe(true);
    }
  });

  it("stores a copy: changing the caller's buffer afterwards changes nothing", async () => {
    const store = make();
    const data = Buffer.from('original');
    const { key } = await store.put(data, 'image/webp');
    data.fill(0);
    expect((await store.get(key))?.data.toString()).toBe('original');
  });

  it('a well-formed key that was never stored: get and stat answer null, delete is idempotent', async () => {
    const store = make();
    const missing = newBlobKey('image/webp');
    expect(await store.get(missing)).toBeNull();
    expect(await store.stat(missing)).toBeNull();
    await expect(store.delete(missing)).resolves.toBeUndefined();
    const { key } = await store.put(Buffer.from('x'), 'image/webp');
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    expect(await allKeys(store)).not.toContain(key);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('put never overwrites: the same bytes twice are two blobs; putAt replaces under the given key', async () => {
    const store = make();
    const first = await store.put(Buffer.from('same'), 'image/webp');
    const second = await store.put(Buffer.from('same'), 'image/webp');
    expect(second.key).not.toBe(first.key);
    await store.putAt(first.key, Buffer.from('replaced, and longer than before'));
    expect((await store.get(first.key))?.data.toString()).toBe('replaced, and longer than before');
    expect((await store.get(second.key))?.data.toString()).toBe('same');
    const copied = newBlobKey('image/jpeg');
    await store.putAt(copied, Buffer.from('copied in'));
    expect(await store.get(copied)).toEqual({ data: Buffer.from('copied in'), contentType: 'image/jpeg' });
    expect(await allKeys(store)).toEqual(expect.arrayContaining([first.key, second.key, copied]));
  });

  it('concurrent puts get distinct keys and keep their own bytes', async () => {
    const store = make();
    const payloads = Array.from({ length: 20 }, (_, i) => Buffer.from(`blob number ${i}`));
    const keys = (await Promise.all(payloads.map((data) => store.put(data, 'image/webp')))).map((r) => r.key);
    expect(new Set(keys).size).toBe(payloads.length);
    const read = await Promise.all(keys.map((key) => store.get(key)));
    expect(read.map((blob) => blob?.data.toString())).toEqual(payloads.map((p) => p.toString()));
  });

  it.each(invalidKeys)('refuses key %j on get, stat, delete and putAt', async (key) => {
    const store = make();
    await expect(store.get(key)).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.stat(key)).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.delete(key)).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.putAt(key, Buffer.from('x'))).rejects.toThrow(InvalidBlobKeyError);
  });

  it('refuses content types it does not hold', async () => {
    const store = make();
    await expect(store.put(Buffer.from('<svg/>'), 'image/svg+xml' as never)).rejects.toThrow(TypeError);
  });

  it('refuses a blob over its size cap, writing nothing; the default cap is the upload limit', async () => {
    const small = make({ maxBytes: 1000 });
    const before = (await allKeys(small)).length;
    const { key } = await small.put(randomBytes(1000), 'image/webp');
    await expect(small.put(randomBytes(1001), 'image/webp')).rejects.toThrow(BlobTooLargeError);
    await expect(small.putAt(newBlobKey('image/webp'), randomBytes(1001))).rejects.toThrow(BlobTooLargeError);
    expect(await allKeys(small)).toHaveLength(before + 1);
    expect((await small.stat(key))?.size).toBe(1000);

    const standard = make();
    await expect(standard.put(Buffer.alloc(MAX_UPLOAD_BYTES + 1), 'image/webp')).rejects.toThrow(BlobTooLargeError);
  });
});

describe('PostgresBlobStore in the database', () => {
  it('keeps a blob as one blobs row and its bytes in 256 KiB blob_chunks rows, read back in order', async () => {
    const store = new PostgresBlobStore({ em: app.root.db.orm.em });
    const data = randomBytes(2 * BLOB_CHUNK_BYTES + 1);
    const { key } = await store.put(data, 'image/webp');
    const execute = async <T>(sql: string, params: unknown[]) => (await app.root.db.orm.em.getConnection().execute(sql, params)) as T;
    const [row] = await execute<Array<{ content_type: string; size: number; sha256: string; chunk_count: number; fresh: boolean }>>(
      `select content_type, size, sha256, chunk_count, created_at > now() - interval '1 minute' as fresh from blobs where key = ?`,
      [key],
    );
    expect(row).toEqual({ content_type: 'image/webp', size: data.byteLength, sha256: sha256(data), chunk_count: 3, fresh: true });
    const chunks = await execute<Array<{ seq: number; n: number }>>('select seq, length(data) as n from blob_chunks where key = ? order by seq', [key]);
    expect(chunks).toEqual([
      { seq: 0, n: BLOB_CHUNK_BYTES },
      { seq: 1, n: BLOB_CHUNK_BYTES },
      { seq: 2, n: 1 },
    ]);
    await store.delete(key);
    expect(await execute('select 1 from blob_chunks where key = ?', [key])).toEqual([]);
  });

  it('refuses to hand out bytes that do not match the stored hash', async () => {
    const store = new PostgresBlobStore({ em: app.root.db.orm.em });
    const { key } = await store.put(Buffer.from('genuine'), 'image/webp');
    await app.root.db.orm.em.getConnection().execute(`update blob_chunks set data = '\\x00'::bytea where key = ?`, [key]);
    await expect(store.get(key)).rejects.toThrow(/does not match|read 1 bytes/);
  });

  it('a write that fails half-way leaves nothing behind (one transaction)', async () => {
    const store = new PostgresBlobStore({ em: app.root.db.orm.em, chunkBytes: 4 });
    const key = newBlobKey('image/webp');
    // Three chunks; cutting the second one throws after the blobs row and the first chunk were inserted.
    const data = randomBytes(10);
    let cuts = 0;
    data.subarray = (...args: Parameters<Buffer['subarray']>) => {
      cuts += 1;
      if (cuts === 2) throw new Error('the disk is full');
      return Buffer.prototype.subarray.apply(data, args);
    };
    await expect(store.putAt(key, data)).rejects.toThrow('the disk is full');
    expect(cuts).toBe(2);
    expect(await store.stat(key)).toBeNull();
    expect(await app.root.db.orm.em.getConnection().execute('select 1 from blob_chunks where key = ?', [key])).toEqual([]);
  });
});

describe('two instances share their uploads', () => {
  let second: Root;
  beforeAll(async () => {
    // A second composition root on the same DATABASE_URL: what a second server process builds.
    second = await createRoot(app.root.config, { logger: createLogger({ level: 'silent' }), migrate: false });
  });
  afterAll(async () => {
    await second?.close();
  });

  it('BLOB_STORE=postgres: a blob stored by one instance is read, listed and deleted by the other', async () => {
    expect(app.root.blobStore.id).toBe('postgres');
    expect(second.blobStore.id).toBe('postgres');
    const data = randomBytes(BLOB_CHUNK_BYTES + 7);
    const { key } = await app.root.blobStore.put(data, 'image/webp');
    expect((await second.blobStore.get(key))?.data.equals(data)).toBe(true);
    expect(await allKeys(second.blobStore)).toContain(key);
    const { key: back } = await second.blobStore.put(Buffer.from('from the second'), 'image/png');
    expect((await app.root.blobStore.get(back))?.data.toString()).toBe('from the second');
    await second.blobStore.delete(key);
    expect(await app.root.blobStore.get(key)).toBeNull();
  });

  it('BLOB_STORE=s3: two stores on one bucket see each other\'s blobs', async () => {
    const one = adapters[3]!.make();
    const two = adapters[3]!.make();
    const { key } = await one.put(Buffer.from('shared through the bucket'), 'image/webp');
    expect((await two.get(key))?.data.toString()).toBe('shared through the bucket');
  });

  it('BLOB_STORE=disk does not: two data folders, two sets of uploads (why it is only the embedded default)', async () => {
    const one = adapters[0]!.make();
    const two = adapters[0]!.make();
    const { key } = await one.put(Buffer.from('only here'), 'image/webp');
    expect(await two.get(key)).toBeNull();
  });
});
