import { Migration } from '@mikro-orm/migrations';

/**
 * Review policy per survey (issue 14, ADR 040): `survey_configs.review_policy`, 'ask_every' or
 * 'rating_routed'. Surveys that exist when this runs keep the spec's behaviour (rating-routed: the
 * review step only for a rating of 4+) until their owner changes it; surveys created afterwards
 * default to 'ask_every'. The values are checked where they come in (the builder and API schemas);
 * a stored value other than 'ask_every' reads as rating-routed (`reviewPolicyOf`).
 */
export class Migration20261124121000ReviewPolicy extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "review_policy" varchar(20) not null default 'rating_routed';`);
    this.addSql(`alter table "survey_configs" alter column "review_policy" set default 'ask_every';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop column "review_policy";`);
  }
}
