import { Migration } from '@mikro-orm/migrations';

/**
 * The languages a survey offers (issue 30, ADR 086): `survey_configs.languages`, a JSON list of
 * 'en', 'es', 'fr', 'de', 'pt' whose first entry is the survey's default language. Every existing
 * survey offers English only, as it did before the choice existed (the column default).
 */
export class Migration20261127180000SurveyLanguages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "languages" jsonb not null default '["en"]';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop column if exists "languages";`);
  }
}
