import { Migration } from '@mikro-orm/migrations';

/**
 * Trust (issue 14, ADR 050): fraud fingerprints of submissions, rewards held for the owner's review,
 * and the append-only reward audit trail. `reward_audit` refuses UPDATE, DELETE and TRUNCATE by
 * trigger, whoever asks (the app's own database user included): an entry, once written, stays.
 * Also the survey setting asking customers to confirm their email before a card is sent, and the
 * screenshots' perceptual hash.
 */
export class Migration20261124123000Trust extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "response_fingerprints" ("id" uuid not null default gen_random_uuid(), "survey_response_id" uuid not null, "business_id" uuid not null, "customer_email" varchar(255) null, "kind" varchar(16) not null, "value" varchar(128) not null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "response_fingerprints_kind_value_created_at_index" on "response_fingerprints" ("kind", "value", "created_at");`);
    this.addSql(`create index "response_fingerprints_business_id_kind_created_at_index" on "response_fingerprints" ("business_id", "kind", "created_at");`);
    this.addSql(`create index "response_fingerprints_survey_response_id_index" on "response_fingerprints" ("survey_response_id");`);

    this.addSql(`create table "reward_audit" ("id" bigserial primary key, "survey_response_id" uuid not null, "business_id" uuid not null, "event" varchar(30) not null, "actor" varchar(255) not null, "details" jsonb not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "reward_audit_survey_response_id_created_at_index" on "reward_audit" ("survey_response_id", "created_at");`);
    this.addSql(`create index "reward_audit_business_id_created_at_index" on "reward_audit" ("business_id", "created_at");`);
    this.addSql(`create or replace function reward_audit_append_only() returns trigger language plpgsql as $fn$
begin
  raise exception 'reward_audit is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
end
$fn$;`);
    this.addSql(`create trigger reward_audit_no_update_delete before update or delete on "reward_audit" for each row execute function reward_audit_append_only();`);
    this.addSql(`create trigger reward_audit_no_truncate before truncate on "reward_audit" for each statement execute function reward_audit_append_only();`);

    this.addSql(`create table "reward_holds" ("survey_response_id" uuid not null, "business_id" uuid not null, "status" varchar(20) not null, "reasons" jsonb not null, "email_token_hash" varchar(64) null, "email_confirmed_at" timestamptz null, "decided_by" varchar(255) null, "decided_at" timestamptz null, "created_at" timestamptz not null default now(), primary key ("survey_response_id"));`);
    this.addSql(`alter table "reward_holds" add constraint "reward_holds_email_token_hash_unique" unique ("email_token_hash");`);
    this.addSql(`create index "reward_holds_business_id_status_created_at_index" on "reward_holds" ("business_id", "status", "created_at");`);

    this.addSql(`alter table "survey_configs" add "verify_customer_email" boolean not null default false;`);
    this.addSql(`alter table "screenshot_verifications" add "perceptual_hash" varchar(16) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "screenshot_verifications" drop column "perceptual_hash";`);
    this.addSql(`alter table "survey_configs" drop column "verify_customer_email";`);
    this.addSql(`drop table if exists "reward_holds" cascade;`);
    this.addSql(`drop table if exists "reward_audit" cascade;`);
    this.addSql(`drop function if exists reward_audit_append_only();`);
    this.addSql(`drop table if exists "response_fingerprints" cascade;`);
  }
}
