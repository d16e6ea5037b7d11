import { Migration } from '@mikro-orm/migrations';

/** The owner's own brand (issue 15): a colour and a logo (a BlobStore key) used on the survey, the email and the flyer. */
export class Migration20261124000300Brand extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "businesses" add column "brand_color" varchar(7) null, add column "brand_logo_key" varchar(255) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "businesses" drop column if exists "brand_color", drop column if exists "brand_logo_key";`);
  }
}
