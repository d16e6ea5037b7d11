import { Migration } from '@mikro-orm/migrations';

/**
 * Square connection (issue 5, ADR 017): when the stored access token expires, so the daily
 * pos-token-refresh job can renew tokens a week before Square's 30 days run out. The tokens
 * themselves already have columns (encrypted by modules/pos/token-crypto.ts).
 */
export class Migration20261122010000Pos extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "businesses" add column "square_token_expires_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "businesses" drop column if exists "square_token_expires_at";`);
  }
}
