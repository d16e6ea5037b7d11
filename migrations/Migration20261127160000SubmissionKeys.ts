import { Migration } from '@mikro-orm/migrations';

/**
 * A submission's key (issue 26, ADR 081): the survey page makes one per visit and sends it with the
 * answers; a retry of a submission whose answer was lost (a dropped connection, an instance killed
 * after the commit) carries the same key and is answered with what was stored, not refused as a
 * second submission. Unique per survey.
 */
export class Migration20261127160000SubmissionKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_responses" add column "submission_key" varchar(64) null;`);
    this.addSql(`create unique index "survey_responses_submission_key_unique" on "survey_responses" ("survey_config_id", "submission_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "survey_responses_submission_key_unique";`);
    this.addSql(`alter table "survey_responses" drop column if exists "submission_key";`);
  }
}
