import { Migration } from '@mikro-orm/migrations';

/**
 * The owner's question list a response was answered and scored with (issue 16):
 * `survey_responses.survey_questions`, a copy of the survey's `custom_questions` at submission
 * (`[]`: the template's questions). `reward-cli verifications replay` re-scores a response with it,
 * so an owner's later edit (a question removed, its points changed) never changes an old score.
 * Null for responses stored before this column: replay then uses the survey's current questions.
 */
export class Migration20261124130000ResponseQuestions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_responses" add column "survey_questions" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_responses" drop column "survey_questions";`);
  }
}
