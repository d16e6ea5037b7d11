import { Migration } from '@mikro-orm/migrations';

/**
 * The sign-in throttle's failures in the database (issue 26: every instance counts together), beside
 * the edge's counters in the `edge` schema (no entity describes it). Times are epoch milliseconds, as
 * the throttle computes them.
 */
export class Migration20261127113000SignInFailures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table if not exists "edge"."sign_in_failures" (
  "key" varchar(320) primary key,
  "count" integer not null,
  "last_at" bigint not null,
  "until" bigint not null default 0
);`);
    this.addSql(`create index if not exists "sign_in_failures_last_at_index" on "edge"."sign_in_failures" ("last_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "edge"."sign_in_failures";`);
  }
}
