import { Migration } from '@mikro-orm/migrations';

/**
 * The demo and fake adapters' objects in the database (issue 26): `demo.objects` holds the fake
 * billing's customers, SetupIntents, subscriptions, portal sessions and idempotency keys, and the
 * demo point of sale's one-time codes, so every instance on one database sees them (they lived in
 * `DATA_DIR/fake-billing.json` and in one process's memory).
 */
export class Migration20261127081000DemoObjects extends Migration {
  override async up(): Promise<void> {
    // A schema of its own: no entity describes it (the schema diff ignores it, as the edge's).
    this.addSql(`create schema if not exists "demo";`);
    this.addSql(`create table "demo"."objects" (
  "kind" varchar(40) not null,
  "id" varchar(255) not null,
  "data" jsonb not null,
  "expires_at" timestamptz null,
  "created_at" timestamptz not null default clock_timestamp(),
  primary key ("kind", "id")
);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop schema if exists "demo" cascade;`);
  }
}
