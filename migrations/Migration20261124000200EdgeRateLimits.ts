import { Migration } from '@mikro-orm/migrations';

/**
 * The edge rate limiter's counters (issue 14; server/edge-limits.ts, rate-limiter-flexible's
 * RateLimiterPostgres): one row per key and window, shared by every app instance on this database.
 * In a schema of their own: they are the HTTP pipeline's, not the domain's, and no entity maps them.
 */
export class Migration20261124000200EdgeRateLimits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create schema if not exists "edge";`);
    this.addSql(`create table if not exists "edge"."rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
    this.addSql(`create index if not exists "rate_limits_expire_index" on "edge"."rate_limits" ("expire");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop schema if exists "edge" cascade;`);
  }
}
