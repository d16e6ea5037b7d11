import { Migration } from '@mikro-orm/migrations';

/**
 * The owner's translations of their own words (issue 30, ADR 090): `survey_configs.translations`, a
 * JSON object keyed by language code ({ es: { title, questions: { id: { text, options } }, rewards } }).
 * Every existing survey has none: its customers read the owner's words, as before.
 */
export class Migration20261127213000SurveyTranslations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "translations" jsonb not null default '{}';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop column if exists "translations";`);
  }
}
