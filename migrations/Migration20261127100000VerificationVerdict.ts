import { Migration } from '@mikro-orm/migrations';

/**
 * The third verdict (issue 31, ADR 077): `screenshot_verifications.verdict` is accepted, rejected or
 * needs_review; rows stored before are accepted or rejected by `is_valid`. A needs_review row keeps
 * the unsure rule (`review_code`) and why, in the owner's words (`review_reason`).
 */
export class Migration20261127100000VerificationVerdict extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "screenshot_verifications" add column "verdict" varchar(20) not null default 'accepted', add column "review_code" varchar(40) null, add column "review_reason" text null;`);
    this.addSql(`update "screenshot_verifications" set "verdict" = 'rejected' where not "is_valid";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "screenshot_verifications" drop column if exists "review_reason", drop column if exists "review_code", drop column if exists "verdict";`);
  }
}
