import { Migration } from '@mikro-orm/migrations';

/**
 * Forgot password (issue 15): the hash of the latest reset token mailed to the owner and when it
 * expires (1 hour). A new request replaces the previous token; a reset clears both.
 */
export class Migration20261124000000PasswordReset extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "businesses" add column "password_reset_token_hash" varchar(64) null, add column "password_reset_expires_at" timestamptz null;`);
    this.addSql(`create index "businesses_password_reset_token_hash_index" on "businesses" ("password_reset_token_hash");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "businesses_password_reset_token_hash_index";`);
    this.addSql(`alter table "businesses" drop column if exists "password_reset_token_hash", drop column if exists "password_reset_expires_at";`);
  }
}
