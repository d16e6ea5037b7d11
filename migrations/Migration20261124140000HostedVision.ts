import { Migration } from '@mikro-orm/migrations';

/**
 * The owner's opt-in to the hosted vision verifier (issue 13, ADR 066): `survey_configs.hosted_vision`.
 * Off for every survey; only an owner's explicit choice turns it on, and only then are that
 * survey's screenshots sent to the hosted model (the survey page says so).
 */
export class Migration20261124140000HostedVision extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "hosted_vision" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop column "hosted_vision";`);
  }
}
