import { Migration } from '@mikro-orm/migrations';

/**
 * screenshot_verifications (ADR 015): one row per screenshot verification attempt, with the
 * BlobStore key of the image, the verdict and, once a submission uses it, the response. Two partial
 * unique indexes refuse a second use of the same image or review text for one business.
 */
export class Migration20261122000000ScreenshotVerifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "screenshot_verifications" ("id" uuid not null default gen_random_uuid(), "business_id" uuid not null, "survey_config_id" uuid not null, "kind" varchar(10) not null, "platform" varchar(20) not null, "upload_key" varchar(64) not null, "image_hash" varchar(80) not null, "normalised_review_text" text null, "review_text" text null, "star_rating" int null, "reviewer_name" varchar(255) null, "review_link" text null, "user_handle" varchar(255) null, "is_valid" boolean not null, "rejection_code" varchar(40) null, "rejection_reason" text null, "survey_response_id" uuid null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "screenshot_verifications_business_id_created_at_index" on "screenshot_verifications" ("business_id", "created_at");`);
    this.addSql(`create index "screenshot_verifications_survey_config_id_index" on "screenshot_verifications" ("survey_config_id");`);
    this.addSql(`create index "screenshot_verifications_survey_response_id_index" on "screenshot_verifications" ("survey_response_id");`);
    this.addSql(`create unique index "screenshot_verifications_used_image_unique" on "screenshot_verifications" ("business_id", "image_hash") where survey_response_id is not null;`);
    this.addSql(`create unique index "screenshot_verifications_used_review_text_unique" on "screenshot_verifications" ("business_id", "normalised_review_text") where survey_response_id is not null and normalised_review_text is not null;`);
    this.addSql(`alter table "screenshot_verifications" add constraint "screenshot_verifications_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`alter table "screenshot_verifications" add constraint "screenshot_verifications_survey_config_id_foreign" foreign key ("survey_config_id") references "survey_configs" ("id") on delete cascade;`);
    this.addSql(`alter table "screenshot_verifications" add constraint "screenshot_verifications_survey_response_id_foreign" foreign key ("survey_response_id") references "survey_responses" ("id") on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "screenshot_verifications" cascade;`);
  }
}
