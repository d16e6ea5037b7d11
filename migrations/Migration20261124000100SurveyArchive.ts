import { Migration } from '@mikro-orm/migrations';

/** Archiving a survey (issue 15): when the owner archived it; null for every survey in use. */
export class Migration20261124000100SurveyArchive extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "archived_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop column if exists "archived_at";`);
  }
}
