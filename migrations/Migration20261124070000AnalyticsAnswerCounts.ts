import { Migration } from '@mikro-orm/migrations';

/**
 * Analytics (issue 12, ADR 027): `survey_answer_counts`, the answers of the analysed questions counted
 * per survey, UTC day, question and answer, kept by a trigger on `survey_responses` (insert, update,
 * delete) and filled from the responses already stored. Question Analysis sums these rows instead of
 * expanding every response's answers (4 s -> milliseconds on 110,000 responses, bench/README.md).
 *
 * The question keys are those of `analysedQuestions()` (modules/analytics/labels.ts): the template's
 * scale, yes/no, multiple-choice and short-text questions. tests/integration/analytics.test.ts checks
 * that the trigger counts exactly those; a template question added later needs a migration that
 * replaces the function with the new list.
 */
const KEYS = ['overall_rating', 'recommend', 'visit_frequency', 'service_rating', 'favorite_item', 'atmosphere_rating', 'value_rating', 'improvement_suggestions', 'five_star_improvement'];
const keyArray = `array[${KEYS.map((k) => `'${k}'`).join(', ')}]::text[]`;

export class Migration20261124070000AnalyticsAnswerCounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "survey_answer_counts" ("survey_config_id" uuid not null, "day" date not null, "key" varchar(64) not null, "answer" varchar(200) not null, "business_id" uuid not null, "display" varchar(200) not null, "rating" int null, "count" int not null default 0, primary key ("survey_config_id", "day", "key", "answer"));`);
    this.addSql(`create index "survey_answer_counts_business_id_key_day_index" on "survey_answer_counts" ("business_id", "key", "day") include ("count", "rating", "answer", "display");`);
    this.addSql(`alter table "survey_answer_counts" add constraint "survey_answer_counts_survey_config_id_foreign" foreign key ("survey_config_id") references "survey_configs" ("id") on delete cascade;`);
    this.addSql(`alter table "survey_answer_counts" add constraint "survey_answer_counts_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on delete cascade;`);
    this.addSql(`create or replace function survey_answer_counts_apply() returns trigger language plpgsql as $fn$
declare
  k text;
  v text;
begin
  if tg_op in ('UPDATE', 'DELETE') and old.survey_config_id is not null then
    foreach k in array ${keyArray} loop
      v := btrim(left(old.responses ->> k, 200));
      if v is not null and v <> '' and jsonb_typeof(old.responses -> k) in ('string', 'number') then
        update survey_answer_counts set count = count - 1
         where survey_config_id = old.survey_config_id and day = (old.submitted_at at time zone 'UTC')::date and key = k and answer = lower(v);
      end if;
    end loop;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.survey_config_id is not null then
    foreach k in array ${keyArray} loop
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
$fn$;`);
    this.addSql(`create trigger survey_answer_counts_trigger after insert or delete or update of responses, submitted_at, survey_config_id, business_id on survey_responses for each row execute function survey_answer_counts_apply();`);
    this.addSql(`insert into survey_answer_counts (survey_config_id, day, key, answer, business_id, display, rating, count)
      select r.survey_config_id, (r.submitted_at at time zone 'UTC')::date, k.key, lower(btrim(left(r.responses ->> k.key, 200))), min(r.business_id::text)::uuid,
             min(btrim(left(r.responses ->> k.key, 200))),
             max(case when btrim(left(r.responses ->> k.key, 200)) ~ '^[0-9]{1,4}$' then btrim(left(r.responses ->> k.key, 200))::int end), count(*)
        from survey_responses r cross join unnest(${keyArray}) as k(key)
       where r.survey_config_id is not null and btrim(left(r.responses ->> k.key, 200)) <> '' and jsonb_typeof(r.responses -> k.key) in ('string', 'number')
       group by 1, 2, 3, 4;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists survey_answer_counts_trigger on survey_responses;`);
    this.addSql(`drop function if exists survey_answer_counts_apply();`);
    this.addSql(`drop table if exists "survey_answer_counts" cascade;`);
  }
}
