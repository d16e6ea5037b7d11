/**
 * `reward-cli blobs migrate` (ADR 075) through createCli with injected IO: uploads kept on disk
 * (DATA_DIR/uploads, where every upload lived before BLOB_STORE) copied into PostgreSQL and into
 * S3 (s3rver) under the same keys, run again with nothing to do, a damaged copy repaired, and the
 * refusals.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../adapters/blobstore/DiskBlobStore.ts';
import { S3BlobStore } from '../../adapters/blobstore/S3BlobStore.ts';
import { EXIT } from '../../cli/program.ts';
import { cliEnv, runCli } from '../setup/cli.ts';
import { startTestS3, type TestS3 } from '../setup/s3.ts';
import { createTestApp, type TestApp } from '../setup/test-root.ts';

let app: TestApp;
let s3: TestS3;
let blobs: Array<{ key: string; data: Buffer }>;

beforeAll(async () => {
  app = await createTestApp();
  s3 = await startTestS3('rewardloop-cli');
  // What an instance of the previous release left in its data folder, and a file that is not an upload.
  const disk = new DiskBlobStore({ root: path.join(app.dataDir, 'uploads') });
  blobs = [];
  for (const [data, type] of [[randomBytes(600 * 1024), 'image/webp'], [randomBytes(2000), 'image/png'], [randomBytes(10), 'image/jpeg']] as const) {
    blobs.push({ key: (await disk.put(data, type)).key, data });
  }
  await writeFile(path.join(app.dataDir, 'uploads', 'notes.txt'), 'not an upload');
});
afterAll(async () => {
  await app?.close();
  await s3?.close();
});

describe('reward-cli blobs migrate', () => {
  it('--to postgres copies every upload from DATA_DIR/uploads under its key, with progress and a summary', async () => {
    expect(app.root.blobStore.id).toBe('postgres');
    const res = await runCli(cliEnv(app), ['blobs', 'migrate', '--to', 'postgres']);
    expect(res).toMatchObject({ code: EXIT.ok, err: '' });
    expect(res.out).toContain('Copying uploads from disk to postgres...');
    for (const { key, data } of blobs) expect(res.out).toContain(`copied   ${key} (${data.byteLength} bytes)`);
    expect(res.out).toContain(`Done: 3 blob(s) seen, 3 copied (${600 * 1024 + 2010} bytes), 0 already there, 0 vanished, 0 failed. Nothing was deleted from disk.`);
    expect(res.out).not.toContain('notes.txt');
    for (const { key, data } of blobs) expect((await app.root.blobStore.get(key))?.data.equals(data)).toBe(true);
  });

  it('run again: skips what is there (same size and SHA-256) and repairs a copy that differs', async () => {
    const again = await runCli(cliEnv(app), ['blobs', 'migrate', '--to', 'postgres']);
    expect(again.code).toBe(EXIT.ok);
    expect(again.out).toContain('Done: 3 blob(s) seen, 0 copied (0 bytes), 3 already there, 0 vanished, 0 failed.');

    const damaged = blobs[1]!;
    await app.root.blobStore.putAt(damaged.key, Buffer.from('not the same bytes'));
    const repair = await runCli(cliEnv(app), ['blobs', 'migrate', '--to', 'postgres']);
    expect(repair.code).toBe(EXIT.ok);
    expect(repair.out).toContain(`copied   ${damaged.key} (2000 bytes)`);
    expect(repair.out).toContain('Done: 3 blob(s) seen, 1 copied (2000 bytes), 2 already there');
    expect((await app.root.blobStore.get(damaged.key))?.data.equals(damaged.data)).toBe(true);
  });

  it('--to s3 fills the bucket from disk, and from postgres finds nothing left to copy', async () => {
    const env = cliEnv(app, s3.env);
    const res = await runCli(env, ['blobs', 'migrate', '--to', 's3']);
    expect(res).toMatchObject({ code: EXIT.ok, err: '' });
    expect(res.out).toContain('3 copied');
    const bucket = new S3BlobStore({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true });
    try {
      for (const { key, data } of blobs) expect((await bucket.get(key))?.data.equals(data)).toBe(true);
    } finally {
      bucket.close();
    }
    const fromPostgres = await runCli(env, ['blobs', 'migrate', '--from', 'postgres', '--to', 's3']);
    expect(fromPostgres.code).toBe(EXIT.ok);
    expect(fromPostgres.out).toContain('Copying uploads from postgres to s3...');
    expect(fromPostgres.out).toContain('0 copied (0 bytes), 3 already there');
  });

  it('tells BLOB_STORE to follow when it names another store', async () => {
    const res = await runCli(cliEnv(app, { BLOB_STORE: 'disk' }), ['blobs', 'migrate', '--to', 'postgres']);
    expect(res.code).toBe(EXIT.ok);
    expect(res.out).toContain('Set BLOB_STORE=postgres to serve uploads from postgres.');
  });

  it.each([
    [['blobs', 'migrate', '--to', 's3'], 'S3_BUCKET: is required with BLOB_STORE=s3'],
    [['blobs', 'migrate', '--to', 'postgres', '--from', 'postgres'], '--from and --to are both postgres'],
    [['blobs', 'migrate', '--to', 'nfs'], "argument 'nfs' is invalid"],
    [['blobs', 'migrate'], "required option '--to <store>' not specified"],
  ])('%j -> usage error: %s', async (args, message) => {
    const res = await runCli(cliEnv(app), args);
    expect(res.code).toBe(EXIT.usage);
    expect(res.err).toContain(message);
  });
});
