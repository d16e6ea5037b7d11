import { Migration } from '@mikro-orm/migrations';

/**
 * The customer's language with each response (issue 30, ADR 084): the survey page sends the
 * language it was read in ('en', 'es', 'fr', 'de', 'pt'); emails to that customer follow it. Null
 * for responses stored before, read as English.
 */
export class Migration20261127170000ResponseLocale extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_responses" add column "locale" varchar(8) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_responses" drop column if exists "locale";`);
  }
}
