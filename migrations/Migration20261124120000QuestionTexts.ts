import { Migration } from '@mikro-orm/migrations';

/**
 * The owner's own questions (issue 16, ADR 035):
 * - `survey_responses.question_texts`: the text of each question as the customer was asked it, by
 *   answer key, so editing a live survey never relabels older answers ('{}' for earlier responses:
 *   they were asked the template's texts);
 * - the Question Analysis counts (ADR 027) also count owner questions: the trigger adds to its
 *   fixed list of template keys the `q_...` keys a response's question_texts names (every owner
 *   question type is an analysed type).
 */
const KEYS = ['overall_rating', 'recommend', 'visit_frequency', 'service_rating', 'favorite_item', 'atmosphere_rating', 'value_rating', 'improvement_suggestions', 'five_star_improvement'];
const keyArray = `array[${KEYS.map((k) => `'${k}'`).join(', ')}]::text[]`;
const ownerKeys = (row: 'old' | 'new') =>
  `array(select x from jsonb_object_keys(coalesce(${row}.question_texts, '{}'::jsonb)) as x where x ~ '^q_[a-z0-9]{4,24}$')`;

const applyFunction = (withOwnerKeys: boolean) => `create or replace function survey_answer_counts_apply() returns trigger language plpgsql as $fn$
declare
  k text;
  v text;
begin
  if tg_op in ('UPDATE', 'DELETE') and old.survey_config_id is not null then
    foreach k in array ${withOwnerKeys ? `${keyArray} || ${ownerKeys('old')}` : keyArray} loop
      v := btrim(left(old.responses ->> k, 200));
      if v is not null and v <> '' and jsonb_typeof(old.responses -> k) in ('string', 'number') then
        update survey_answer_counts set count = count - 1
         where survey_config_id = old.survey_config_id and day = (old.submitted_at at time zone 'UTC')::date and key = k and answer = lower(v);
      end if;
    end loop;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.survey_config_id is not null then
    foreach k in array ${withOwnerKeys ? `${keyArray} || ${ownerKeys('new')}` : keyArray} loop
      v := btrim(left(new.responses ->> k, 200));
      if v is not null and v <> '' and jsonb_typeof(new.responses -> k) in ('string', 'number') then
        insert into survey_answer_counts (survey_config_id, day, key, answer, business_id, display, rating, count)
        values (new.survey_config_id, (new.submitted_at at time zone 'UTC')::date, k, lower(v), new.business_id, v, case when v ~ '^[0-9]{1,4}$' then v::int end, 1)
        on conflict (survey_config_id, day, key, answer) do update set count = survey_answer_counts.count + 1;
      end if;
    end loop;
  end if;
  return null;
end
$fn$;`;

export class Migration20261124120000QuestionTexts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_responses" add column "question_texts" jsonb not null default '{}';`);
    this.addSql(applyFunction(true));
    this.addSql(`drop trigger if exists survey_answer_counts_trigger on survey_responses;`);
    this.addSql(`create trigger survey_answer_counts_trigger after insert or delete or update of responses, question_texts, submitted_at, survey_config_id, business_id on survey_responses for each row execute function survey_answer_counts_apply();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists survey_answer_counts_trigger on survey_responses;`);
    this.addSql(applyFunction(false));
    this.addSql(`create trigger survey_answer_counts_trigger after insert or delete or update of responses, submitted_at, survey_config_id, business_id on survey_responses for each row execute function survey_answer_counts_apply();`);
    this.addSql(`alter table "survey_responses" drop column if exists "question_texts";`);
  }
}
