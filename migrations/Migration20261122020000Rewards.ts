import { Migration } from '@mikro-orm/migrations';

/**
 * Rewards (issue 5, ADR 018). `gift_card_issuances` already has its unique index on
 * `survey_response_id` (one card per response) from the initial migration; this adds:
 * - on `gift_card_issuances`: the reward email's state (sent marker, sender lease, attempts, last
 *   error, failed time) and Square's card state and balance from webhooks, with an index on
 *   `gift_card_id` for the webhook's lookups;
 * - `gift_card_requests`: the reward-issue job's progress per response (provider, location, the card
 *   once created, attempts, last error, failed time);
 * - `square_webhook_events`: the ids of handled Square webhook events (a redelivery is skipped).
 */
export class Migration20261122020000Rewards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "gift_card_issuances" add "emailed_at" timestamptz null, add "email_claimed_until" timestamptz null, add "email_attempts" int not null default 0, add "email_last_error" text null, add "email_failed_at" timestamptz null, add "card_state" varchar(20) null, add "card_balance_cents" int null, add "card_updated_at" timestamptz null;`);
    this.addSql(`create index "gift_card_issuances_gift_card_id_index" on "gift_card_issuances" ("gift_card_id");`);
    this.addSql(`create table "gift_card_requests" ("survey_response_id" uuid not null, "business_id" uuid not null, "provider" varchar(10) null, "location_id" varchar(255) null, "gift_card_id" varchar(255) null, "gan" varchar(64) null, "attempts" int not null default 0, "last_error" text null, "last_attempt_at" timestamptz null, "failed_at" timestamptz null, "created_at" timestamptz not null default now(), primary key ("survey_response_id"));`);
    this.addSql(`create index "gift_card_requests_business_id_failed_at_index" on "gift_card_requests" ("business_id", "failed_at");`);
    this.addSql(`alter table "gift_card_requests" add constraint "gift_card_requests_survey_response_id_foreign" foreign key ("survey_response_id") references "survey_responses" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "gift_card_requests" add constraint "gift_card_requests_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`create table "square_webhook_events" ("event_id" varchar(255) not null, "type" varchar(100) not null, "merchant_id" varchar(255) null, "received_at" timestamptz not null default now(), primary key ("event_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "square_webhook_events" cascade;`);
    this.addSql(`drop table if exists "gift_card_requests" cascade;`);
    this.addSql(`drop index if exists "gift_card_issuances_gift_card_id_index";`);
    this.addSql(`alter table "gift_card_issuances" drop column "emailed_at", drop column "email_claimed_until", drop column "email_attempts", drop column "email_last_error", drop column "email_failed_at", drop column "card_state", drop column "card_balance_cents", drop column "card_updated_at";`);
  }
}
