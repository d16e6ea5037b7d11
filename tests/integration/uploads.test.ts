import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../adapters/blobstore/DiskBlobStore.ts';
import { InvalidBlobKeyError } from '../../modules/uploads/blob-store.ts';
import { storeImageUpload } from '../../modules/uploads/server.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'rewardloop-uploads-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

let rootCount = 0;
async function freshDiskStore(): Promise<DiskBlobStore> {
  rootCount += 1;
  return new DiskBlobStore({ root: path.join(scratch, `store-${rootCount}`, 'uploads') });
}

/** Every file under a folder, relative, including hidden temporary files. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

// The contract every BlobStore keeps (disk, memory, postgres, s3) is tests/integration/blob-store.contract.test.ts.

describe('DiskBlobStore on disk', () => {
  it('writes files 0600 in folders 0700, under root/yyyy/mm, with no temporary file left', async () => {
    const store = await freshDiskStore();
    const { key } = await store.put(Buffer.from('bytes'), 'image/webp');
    const file = path.join(store.root, ...key.split('/'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await stat(path.dirname(path.dirname(file)))).mode & 0o777).toBe(0o700);
    expect(await filesUnder(store.root)).toEqual([key.split('/').join(path.sep)]);
  });

  it('never reads outside its root, even for a file planted next to it', async () => {
    const store = await freshDiskStore();
    await store.put(Buffer.from('x'), 'image/webp'); // creates the root
    await writeFile(path.join(store.root, '..', 'escaped.webp'), 'outside');
    await expect(store.get('../escaped.webp')).rejects.toThrow(InvalidBlobKeyError);
    await expect(store.delete('../escaped.webp')).rejects.toThrow(InvalidBlobKeyError);
    expect((await stat(path.join(store.root, '..', 'escaped.webp'))).isFile()).toBe(true);
  });

  it('a second store on the same root reads what the first wrote (restart)', async () => {
    const first = await freshDiskStore();
    const { key } = await first.put(Buffer.from('survives a restart'), 'image/jpeg');
    const second = new DiskBlobStore({ root: first.root });
    expect((await second.get(key))?.data.toString()).toBe('survives a restart');
  });

  it('leaves no temporary file behind when a write fails', async () => {
    const store = await freshDiskStore();
    const { key } = await store.put(Buffer.from('kept'), 'image/webp');
    // Not bytes: the temporary file is opened, then writing into it throws.
    await expect(store.put({ not: 'bytes' } as unknown as Buffer, 'image/webp')).rejects.toThrow();
    expect(await filesUnder(store.root)).toEqual([key.split('/').join(path.sep)]);
  });

  it('fails loudly when its root cannot be created', async () => {
    await writeFile(path.join(scratch, 'blocked'), 'a file where the folder should be');
    const store = new DiskBlobStore({ root: path.join(scratch, 'blocked', 'uploads') });
    await expect(store.put(Buffer.from('x'), 'image/webp')).rejects.toThrow();
  });

  it('needs a root', () => {
    expect(() => new DiskBlobStore({ root: '' })).toThrow(/root/);
  });
});

describe('storeImageUpload through DiskBlobStore', () => {
  it('stores the re-encoded WebP, not the upload, and returns what a response row keeps', async () => {
    const store = await freshDiskStore();
    const upload = await sharp({ create: { width: 3200, height: 1800, channels: 3, background: '#123456' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'RewardLoopCam' } })
      .toBuffer();

    const result = await storeImageUpload(store, upload);
    if (!result.ok) throw new Error(result.message);
    expect(result.upload).toMatchObject({ contentType: 'image/webp', width: 1600, height: 900 });
    expect(result.upload.sha256).toMatch(/^[0-9a-f]{64}$/);

    const stored = await store.get(result.upload.key);
    expect(stored?.contentType).toBe('image/webp');
    expect(stored?.data.byteLength).toBe(result.upload.byteLength);
    expect(stored?.data.includes('RewardLoopCam')).toBe(false);
    expect((await sharp(stored!.data).metadata()).format).toBe('webp');
  });

  it.each([
    { name: 'a 20 MB file', bytes: () => Buffer.alloc(20 * 1024 * 1024, 0x89), status: 413 },
    { name: 'a PDF renamed .png', bytes: () => Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n'), status: 415 },
    { name: 'an SVG', bytes: () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), status: 415 },
  ])('$name -> $status and nothing stored', async ({ bytes, status }) => {
    const store = await freshDiskStore();
    expect(await storeImageUpload(store, bytes())).toMatchObject({ ok: false, status });
    expect(await filesUnder(store.root)).toEqual([]);
  });
});
