import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads in the database (issue 26, ADR 075): BLOB_STORE=postgres keeps each blob as one `blobs`
 * row (content type, size, SHA-256, chunk count) and its bytes in 256 KiB bytea rows of
 * `blob_chunks`, so every instance on one DATABASE_URL reads the same screenshots and logos.
 * The chunks are stored EXTERNAL: WebP, PNG and JPEG are compressed already, so PostgreSQL does not
 * try to compress them again.
 */
export class Migration20261127090000BlobStore extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blobs" (
  "key" varchar(64) not null primary key,
  "content_type" varchar(32) not null,
  "size" integer not null check ("size" >= 0),
  "sha256" char(64) not null,
  "chunk_count" integer not null check ("chunk_count" >= 0),
  "created_at" timestamptz not null default now()
);`);
    this.addSql(`create table "blob_chunks" (
  "key" varchar(64) not null references "blobs" ("key") on delete cascade,
  "seq" integer not null check ("seq" >= 0),
  "data" bytea not null,
  primary key ("key", "seq")
);`);
    this.addSql(`alter table "blob_chunks" alter column "data" set storage external;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blob_chunks";`);
    this.addSql(`drop table if exists "blobs";`);
  }
}
