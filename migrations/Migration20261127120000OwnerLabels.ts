import { Migration } from '@mikro-orm/migrations';

/**
 * Owners' decisions are labels (issue 31 item 2, ADR 080): beside the verifier's verdict, the
 * owner's (`owner_verdict`: accepted or rejected), when, by whom and how (`owner_label_source`: a
 * held reward's Release/Reject, or a correction on the response page). `businesses.share_labels`:
 * the owner's consent to export labelled screenshots for measuring the verifier (off by default).
 */
export class Migration20261127120000OwnerLabels extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "screenshot_verifications" add column "owner_verdict" varchar(20) null, add column "owner_decided_at" timestamptz null, add column "owner_decided_by" varchar(255) null, add column "owner_label_source" varchar(20) null;`,
    );
    this.addSql(`create index "screenshot_verifications_owner_decided_at_index" on "screenshot_verifications" ("owner_decided_at");`);
    this.addSql(`alter table "businesses" add column "share_labels" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "businesses" drop column if exists "share_labels";`);
    this.addSql(`drop index if exists "screenshot_verifications_owner_decided_at_index";`);
    this.addSql(
      `alter table "screenshot_verifications" drop column if exists "owner_label_source", drop column if exists "owner_decided_by", drop column if exists "owner_decided_at", drop column if exists "owner_verdict";`,
    );
  }
}
