import { createHash } from 'node:crypto';
import { IsolationLevel, type EntityManager } from '@mikro-orm/core';
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

/** 256 KiB: a 10 MiB blob is 40 rows, each one bind parameter and one TOAST value of its own. */
export const BLOB_CHUNK_BYTES = 256 * 1024;

type BlobRow = { content_type: string; size: number; sha256: string; chunk_count: number };

/**
 * Blobs in the application's PostgreSQL database (ADR 075): one `blobs` row per key (content type,
 * size, SHA-256, chunk count, created_at) and its bytes in `blob_chunks` as bytea rows of
 * BLOB_CHUNK_BYTES keyed by (key, seq). Every instance on the same DATABASE_URL sees the same blobs.
 *
 * - A blob is written in one transaction: a reader sees all of it or nothing.
 * - It is read chunk by chunk, in order, one query per chunk inside one REPEATABLE READ read-only
 *   transaction, so no query holds more than a chunk and an overwrite (`putAt`) never mixes versions.
 *   The port hands back one Buffer, so the chunks are joined at the end.
 * - Same key format, refusals and size cap as DiskBlobStore; the stored size and hash are checked
 *   against the bytes read.
 *
 * The tables are the adapter's own storage, not domain data, so they have no entities: the adapter
 * speaks SQL through the ORM's connection and transactions (the EntityManager of the composition root).
 */
export class PostgresBlobStore implements BlobStore {
  readonly id = 'postgres' as const;
  private readonly em: EntityManager;
  private readonly maxBytes: number | undefined;
  private readonly chunkBytes: number;

  constructor(options: { em: EntityManager; maxBytes?: number; chunkBytes?: number }) {
    this.em = options.em;
    this.maxBytes = options.maxBytes;
    this.chunkBytes = options.chunkBytes ?? BLOB_CHUNK_BYTES;
    if (!Number.isInteger(this.chunkBytes) || this.chunkBytes < 1) throw new Error('PostgresBlobStore: chunkBytes must be a positive integer.');
  }

  async put(data: Buffer, contentType: BlobContentType): Promise<{ key: string }> {
    if (!isBlobContentType(contentType)) throw new TypeError(`Unsupported blob content type: ${String(contentType)}`);
    checkBlobSize(data, this.maxBytes);
    const key = newBlobKey(contentType);
    await this.write(key, contentType, data, false);
    return { key };
  }

  async putAt(key: string, data: Buffer): Promise<void> {
    const { contentType } = parseBlobKey(key);
    checkBlobSize(data, this.maxBytes);
    await this.write(key, contentType, data, true);
  }

  async get(key: string): Promise<StoredBlob | null> {
    const { contentType } = parseBlobKey(key);
    return this.em.fork().transactional(
      async (tx) => {
        const [row] = await run<BlobRow[]>(tx, 'select content_type, size, sha256, chunk_count from blobs where key = ?', [key]);
        if (!row) return null;
        const chunks: Buffer[] = [];
        for (let seq = 0; seq < row.chunk_count; seq += 1) {
          const [chunk] = await run<Array<{ data: Buffer }>>(tx, 'select data from blob_chunks where key = ? and seq = ?', [key, seq]);
          if (!chunk) throw new Error(`Blob ${key}: chunk ${seq} of ${row.chunk_count} is missing.`);
          chunks.push(chunk.data);
        }
        const data = Buffer.concat(chunks);
        if (data.byteLength !== row.size) throw new Error(`Blob ${key}: read ${data.byteLength} bytes, stored size is ${row.size}.`);
        if (sha256(data) !== row.sha256) throw new Error(`Blob ${key}: the bytes read do not match the stored SHA-256.`);
        return { data, contentType: isBlobContentType(row.content_type) ? row.content_type : contentType };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }

  async delete(key: string): Promise<void> {
    parseBlobKey(key);
    // The chunks go with the row (on delete cascade).
    await run(this.em.fork(), 'delete from blobs where key = ?', [key], 'run');
  }

  async stat(key: string): Promise<BlobStat | null> {
    parseBlobKey(key);
    const [row] = await run<Array<Pick<BlobRow, 'size' | 'sha256'>>>(this.em.fork(), 'select size, sha256 from blobs where key = ?', [key]);
    return row ? { size: row.size, sha256: row.sha256 } : null;
  }

  /** Keys in key order, a page of 500 at a time. */
  async *keys(): AsyncIterable<string> {
    let after = '';
    for (;;) {
      const rows = await run<Array<{ key: string }>>(this.em.fork(), 'select key from blobs where key > ? order by key limit 500', [after]);
      for (const row of rows) if (isBlobKey(row.key)) yield row.key;
      if (rows.length < 500) return;
      after = rows[rows.length - 1]!.key;
    }
  }

  private async write(key: string, contentType: BlobContentType, data: Buffer, replace: boolean): Promise<void> {
    const chunkCount = Math.ceil(data.byteLength / this.chunkBytes);
    await this.em.fork().transactional(async (tx) => {
      if (replace) await run(tx, 'delete from blobs where key = ?', [key], 'run');
      await run(tx, 'insert into blobs (key, content_type, size, sha256, chunk_count) values (?, ?, ?, ?, ?)', [key, contentType, data.byteLength, sha256(data), chunkCount], 'run');
      for (let seq = 0; seq < chunkCount; seq += 1) {
        // A copy of the slice: the caller may change its buffer once put() has returned.
        const chunk = Buffer.from(data.subarray(seq * this.chunkBytes, (seq + 1) * this.chunkBytes));
        await run(tx, 'insert into blob_chunks (key, seq, data) values (?, ?, ?)', [key, seq, chunk], 'run');
      }
    });
  }
}

/** One statement on the ORM's connection, inside `em`'s transaction when it has one. */
function run<T = unknown>(em: EntityManager, sql: string, params: unknown[], method: 'all' | 'run' = 'all'): Promise<T> {
  return em.getConnection().execute(sql, params, method, em.getTransactionContext()) as Promise<T>;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** BLOB_STORE=postgres: chunked bytea in the application's database (the default with DATABASE_URL). */
export const provider = defineProvider({
  id: 'postgres',
  options: z.object({}).transform(() => ({})),
  create: (_options: object, deps: { em: EntityManager }): BlobStore => new PostgresBlobStore({ em: deps.em }),
});
