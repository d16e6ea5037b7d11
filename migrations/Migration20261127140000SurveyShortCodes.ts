import { Migration } from '@mikro-orm/migrations';

/**
 * Short links (issue 27, "short links in sight and in print"; ADR 082): `survey_configs.short_code`,
 * the `{code}` of `/s/{code}`, unique.
 *
 * `survey_short_code()` makes a code the way `modules/surveys/short-codes.ts` does (nine characters
 * of `23456789abcdefghjkmnpqrstuvwxyz`, drawn without bias from PostgreSQL's CSPRNG: the 14 random
 * bytes of each `gen_random_uuid()`, the version and variant bytes skipped, bytes above 247 drawn
 * again) and draws again while the code is taken. It backfills the existing surveys, one statement
 * per row so each sees the codes given before it, and stays the column's default: an insert that
 * brings no code (an instance still running the previous release during a deploy, a script) gets one.
 */
export class Migration20261127140000SurveyShortCodes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "survey_configs" add column "short_code" varchar(16) null;`);
    this.addSql(`create or replace function survey_short_code() returns varchar(16) language plpgsql volatile as $$
declare
  alphabet constant text := '23456789abcdefghjkmnpqrstuvwxyz';
  code text;
  bytes bytea;
  b int;
begin
  loop
    code := '';
    while length(code) < 9 loop
      bytes := decode(replace(gen_random_uuid()::text, '-', ''), 'hex');
      for i in 0..15 loop
        continue when i = 6 or i = 8;
        b := get_byte(bytes, i);
        continue when b >= 248;
        code := code || substr(alphabet, b % 31 + 1, 1);
        exit when length(code) = 9;
      end loop;
    end loop;
    exit when not exists (select 1 from survey_configs where short_code = code);
  end loop;
  return code;
end
$$;`);
    this.addSql(`do $$
declare
  survey record;
begin
  for survey in select id from survey_configs where short_code is null order by created_at, id loop
    update survey_configs set short_code = survey_short_code() where id = survey.id;
  end loop;
end
$$;`);
    this.addSql(`alter table "survey_configs" alter column "short_code" set default survey_short_code(), alter column "short_code" set not null;`);
    this.addSql(`alter table "survey_configs" add constraint "survey_configs_short_code_unique" unique ("short_code");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "survey_configs" drop constraint if exists "survey_configs_short_code_unique";`);
    this.addSql(`alter table "survey_configs" drop column if exists "short_code";`);
    this.addSql(`drop function if exists survey_short_code();`);
  }
}
