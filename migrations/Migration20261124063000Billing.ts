import { Migration } from '@mikro-orm/migrations';

/**
 * Billing (issue 17, ADR 022):
 * - on `businesses`: the provider's subscription id, the billing interval and the current period
 *   (its end is the next billing date), the last usage email (level and billing month), the owner's monthly reward budget; indexes on
 *   the customer and subscription ids for webhooks;
 * - `billing_checkouts`: a checkout in progress, keyed by its SetupIntent, with the plan, interval
 *   and trial days the server chose, and the survey to publish afterwards;
 * - `billing_webhook_events`: the ids of handled billing webhook events.
 */
export class Migration20261124063000Billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "businesses" add "stripe_subscription_id" varchar(255) null, add "billing_interval" varchar(10) null, add "current_period_start" timestamptz null, add "current_period_end" timestamptz null, add "usage_alert_level" int not null default 0, add "usage_alert_window_start" timestamptz null, add "monthly_reward_budget_cents" int null;`);
    this.addSql(`create index "businesses_stripe_customer_id_index" on "businesses" ("stripe_customer_id");`);
    this.addSql(`create index "businesses_stripe_subscription_id_index" on "businesses" ("stripe_subscription_id");`);
    this.addSql(`create table "billing_checkouts" ("setup_intent_id" varchar(255) not null, "business_id" uuid not null, "customer_id" varchar(255) not null, "plan_id" varchar(20) not null, "interval" varchar(10) not null, "trial_days" int not null default 0, "survey_id" uuid null, "created_at" timestamptz not null default now(), "completed_at" timestamptz null, "subscription_id" varchar(255) null, primary key ("setup_intent_id"));`);
    this.addSql(`create index "billing_checkouts_business_id_created_at_index" on "billing_checkouts" ("business_id", "created_at");`);
    this.addSql(`alter table "billing_checkouts" add constraint "billing_checkouts_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`create table "billing_webhook_events" ("event_id" varchar(255) not null, "type" varchar(100) not null, "received_at" timestamptz not null default now(), primary key ("event_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing_webhook_events" cascade;`);
    this.addSql(`drop table if exists "billing_checkouts" cascade;`);
    this.addSql(`drop index if exists "businesses_stripe_subscription_id_index";`);
    this.addSql(`drop index if exists "businesses_stripe_customer_id_index";`);
    this.addSql(`alter table "businesses" drop column "stripe_subscription_id", drop column "billing_interval", drop column "current_period_start", drop column "current_period_end", drop column "usage_alert_level", drop column "usage_alert_window_start", drop column "monthly_reward_budget_cents";`);
  }
}
