import { Migration } from '@mikro-orm/migrations';

/**
 * Analytics (issue 12, ADR 026): `survey_funnel_counts`, the survey funnel's anonymous first-party
 * counts per survey, UTC day and step (page views, starts, sections reached). Counts only: no
 * cookie, address, device or response is stored with them.
 */
export class Migration20261124060000AnalyticsFunnel extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "survey_funnel_counts" ("survey_config_id" uuid not null, "day" date not null, "step" varchar(20) not null, "business_id" uuid not null, "count" int not null default 0, primary key ("survey_config_id", "day", "step"));`);
    this.addSql(`create index "survey_funnel_counts_business_id_day_index" on "survey_funnel_counts" ("business_id", "day");`);
    this.addSql(`alter table "survey_funnel_counts" add constraint "survey_funnel_counts_survey_config_id_foreign" foreign key ("survey_config_id") references "survey_configs" ("id") on delete cascade;`);
    this.addSql(`alter table "survey_funnel_counts" add constraint "survey_funnel_counts_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "survey_funnel_counts" cascade;`);
  }
}
