import { Migration } from '@mikro-orm/migrations';

/** The stored records of spec section 3: businesses, sessions, survey_configs, customer_submissions, survey_responses, gift_card_issuances. */
export class Migration20261121000000Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "businesses" ("id" uuid not null default gen_random_uuid(), "email" varchar(255) not null, "hashed_password" varchar(255) null, "display_name" varchar(255) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "trial_status" varchar(20) not null default 'active', "plan" varchar(20) not null default 'starter', "trial_used_at" timestamptz null, "last_trial_ended_at" timestamptz null, "stripe_customer_id" varchar(255) null, "subscription_plan" varchar(50) null, "subscription_status" varchar(20) not null default 'none', "trial_ends_at" timestamptz null, "has_payment_method" boolean not null default false, "square_access_token" text null, "square_merchant_id" varchar(255) null, "square_refresh_token" text null, "square_location_id" varchar(255) null, "square_location_name" varchar(255) null, "google_id" varchar(255) null, "is_email_verified" boolean not null default false, "email_verification_token_hash" varchar(64) null, "email_verification_expires_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "businesses" add constraint "businesses_email_unique" unique ("email");`);
    this.addSql(`alter table "businesses" add constraint "businesses_google_id_unique" unique ("google_id");`);
    this.addSql(`create index "businesses_email_verification_token_hash_index" on "businesses" ("email_verification_token_hash");`);
    this.addSql(`create table "customer_submissions" ("id" uuid not null default gen_random_uuid(), "business_id" uuid not null, "customer_email" varchar(255) not null, "ip_address" varchar(45) null, "last_submission_at" timestamptz not null default now(), "submission_count" int not null default 1, primary key ("id"));`);
    this.addSql(`alter table "customer_submissions" add constraint "customer_submissions_business_id_customer_email_unique" unique ("business_id", "customer_email");`);
    this.addSql(`create table "sessions" ("sid" varchar(64) not null, "sess" jsonb not null, "expire" timestamptz not null, primary key ("sid"));`);
    this.addSql(`create index "sessions_expire_index" on "sessions" ("expire");`);
    this.addSql(`create table "survey_configs" ("id" uuid not null default gen_random_uuid(), "business_id" uuid not null, "survey_template_id" varchar(100) not null default 'restaurant_cafe_bakery', "title" varchar(255) not null default 'Survey', "is_active" boolean not null default true, "reward_mode" varchar(32) not null default 'preset_2', "bronze_reward_value" int not null, "silver_reward_value" int not null, "gold_reward_value" int not null, "custom_questions" jsonb not null default '[]', "review_urls" jsonb not null default '{}', "social_handles" jsonb not null default '{}', "selected_review_platforms" jsonb not null default '[]', "selected_social_platforms" jsonb not null default '[]', "survey_frequency_days" int not null default 90, "redemption_website" varchar(500) null, "tier_thresholds" jsonb null, "published_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "survey_configs_business_id_created_at_index" on "survey_configs" ("business_id", "created_at");`);
    this.addSql(`create table "survey_responses" ("id" uuid not null default gen_random_uuid(), "business_id" uuid not null, "survey_config_id" uuid null, "customer_email" varchar(255) null, "customer_name" varchar(255) null, "responses" jsonb not null, "total_points" int not null default 0, "reward_tier" varchar(20) null, "reward_value" int null, "review_platform" varchar(50) null, "review_star_rating" int null, "review_text" text null, "reviewer_name" varchar(255) null, "social_verification_data" jsonb null, "submitted_at" timestamptz not null default now(), "ip_address" varchar(45) null, "user_agent" text null, "gift_card_number" varchar(64) null, "gift_card_id" varchar(255) null, "is_square_gift_card" boolean not null default false, "verification_token" varchar(255) null, "email_verified" boolean not null default false, "verified_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "survey_responses_business_id_submitted_at_index" on "survey_responses" ("business_id", "submitted_at");`);
    this.addSql(`create index "survey_responses_survey_config_id_submitted_at_index" on "survey_responses" ("survey_config_id", "submitted_at");`);
    this.addSql(`create index "survey_responses_customer_email_index" on "survey_responses" ("customer_email");`);
    this.addSql(`create table "gift_card_issuances" ("id" uuid not null default gen_random_uuid(), "business_id" uuid not null, "survey_response_id" uuid not null, "customer_email" varchar(255) not null, "customer_name" varchar(255) null, "gift_card_number" varchar(64) not null, "gift_card_id" varchar(255) null, "reward_value" int not null, "reward_tier" varchar(20) not null, "is_square_gift_card" boolean not null default false, "issued_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`alter table "gift_card_issuances" add constraint "gift_card_issuances_survey_response_id_unique" unique ("survey_response_id");`);
    this.addSql(`create index "gift_card_issuances_business_id_issued_at_index" on "gift_card_issuances" ("business_id", "issued_at");`);
    this.addSql(`alter table "customer_submissions" add constraint "customer_submissions_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`alter table "survey_configs" add constraint "survey_configs_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`alter table "survey_responses" add constraint "survey_responses_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`alter table "survey_responses" add constraint "survey_responses_survey_config_id_foreign" foreign key ("survey_config_id") references "survey_configs" ("id") on delete set null;`);
    this.addSql(`alter table "gift_card_issuances" add constraint "gift_card_issuances_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`alter table "gift_card_issuances" add constraint "gift_card_issuances_survey_response_id_foreign" foreign key ("survey_response_id") references "survey_responses" ("id") on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "gift_card_issuances" cascade;`);
    this.addSql(`drop table if exists "survey_responses" cascade;`);
    this.addSql(`drop table if exists "customer_submissions" cascade;`);
    this.addSql(`drop table if exists "survey_configs" cascade;`);
    this.addSql(`drop table if exists "sessions" cascade;`);
    this.addSql(`drop table if exists "businesses" cascade;`);
  }
}
