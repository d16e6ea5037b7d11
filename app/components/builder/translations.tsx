import type { SubmissionResult } from "@conform-to/react";
import {
  LOCALE_ENGLISH_NAMES,
  LOCALE_NAMES,
  LOCALES,
  type Locale,
} from "../../../modules/i18n/index.ts";
import type { toFormValues } from "../../../modules/surveys/forms.ts";
import {
  TRANSLATED_TIERS,
  TRANSLATION_LIMITS,
  type CustomQuestion,
  type SurveyTranslations,
} from "../../../modules/surveys/index.ts";
import { Card } from "../ui.tsx";

/**
 * The owner's translations of their own words (issue 30, ADR 090): one card per offered language
 * other than the default, with the survey title, each question's text and options, and the reward
 * tiers' names. Plain text fields named as the schema reads them (`translations.es.questions.q_ab12.text`,
 * `...options[0]`): the same post with or without JavaScript. A blank field is "not translated":
 * customers read the catalog's words for a template text, else the owner's own.
 *
 * Every language has its card in the page; a stylesheet rule (`app/tailwind.css`) shows only those
 * of the languages ticked in the Languages card, other than the default, so ticking a language shows
 * its card at once, with or without JavaScript. A hidden card's fields still post: the save keeps
 * the translations of the languages it offers and drops the others (`builderFormSchema`).
 */

type Values = ReturnType<typeof toFormValues>;
type Posted = Record<string, unknown> | undefined;

const inputClass =
  "block min-h-11 w-full rounded-lg border border-slate-300 px-3";
const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map((x) => (typeof x === "string" ? x : ""))
    : typeof v === "string"
    ? [v]
    : [];
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
const text = (v: unknown) => (typeof v === "string" ? v : "");
/** A field name as an element id: dots and brackets become dashes. */
const idOf = (name: string) => `tr-${name.replace(/[^A-Za-z0-9_-]+/g, "-")}`;

function Field(props: {
  name: string;
  label: string;
  hint?: string;
  value: string;
  max: number;
  lang: Locale;
  errors: Record<string, string[] | undefined>;
}) {
  const id = idOf(props.name);
  const errors = props.errors[props.name];
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {props.label}
      </label>
      {props.hint ? (
        <p className="text-xs text-slate-600">{props.hint}</p>
      ) : null}
      <input
        id={id}
        name={props.name}
        type="text"
        lang={props.lang}
        defaultValue={props.value}
        maxLength={props.max}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={`${id}-error`}
        className={inputClass}
      />
      <div
        id={`${id}-error`}
        className="min-h-5 text-sm text-red-700"
        aria-live="polite"
      >
        {errors?.[0] ?? null}
      </div>
    </div>
  );
}

export function TranslationsCard(props: {
  defaults: Values;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** The builder's question list (live with JavaScript): removed template questions are skipped. */
  questions: readonly CustomQuestion[];
  errors: Record<string, string[] | undefined>;
}) {
  const posted = props.lastResult?.initialValue as Posted;
  const saved: SurveyTranslations = props.defaults.translations ?? {};
  const postedTranslations = posted ? record(posted.translations) : null;
  const questions = props.questions.filter((q) => !q.removed);
  // Problems no field below shows: a language not offered, a question no longer in the survey.
  const shown = new Set<string>();
  const cards = LOCALES.map((code) => {
    const from = postedTranslations
      ? record(postedTranslations[code])
      : saved[code] ?? {};
    const own = from as Record<string, unknown>;
    const ownQuestions = record(own.questions);
    const ownRewards = record(own.rewards);
    const base = `translations.${code}`;
    const field = (name: string) => {
      shown.add(name);
      return name;
    };
    return (
      <div key={code} data-translation-lang={code}>
        <Card>
          <fieldset>
            <legend className="font-semibold">
              <span lang={code}>{LOCALE_NAMES[code]}</span>
              {` (${LOCALE_ENGLISH_NAMES[code]}): your words translated`}
            </legend>
            <p className="mb-3 text-sm text-slate-600">
              Leave a field blank to show your own words (the built-in questions
              are already translated). Answers and points stay the same in every
              language.
            </p>
            {props.errors[field(base)]?.map((m) => (
              <p key={m} role="alert" className="mb-2 text-sm text-red-700">
                {m}
              </p>
            ))}
            <Field
              name={field(`${base}.title`)}
              label={`Title: ${props.defaults.title || "your title"}`}
              value={text(own.title)}
              max={TRANSLATION_LIMITS.title}
              lang={code}
              errors={props.errors}
            />
            <fieldset className="mt-2">
              <legend className="text-sm font-semibold text-slate-700">
                Reward names
              </legend>
              <div className="grid gap-x-4 sm:grid-cols-3">
                {TRANSLATED_TIERS.map((tier) => (
                  <Field
                    key={tier}
                    name={field(`${base}.rewards.${tier}`)}
                    label={tier}
                    value={text(ownRewards[tier])}
                    max={TRANSLATION_LIMITS.reward}
                    lang={code}
                    errors={props.errors}
                  />
                ))}
              </div>
            </fieldset>
            <fieldset className="mt-2">
              <legend className="text-sm font-semibold text-slate-700">
                Questions
              </legend>
              {questions.map((q, n) => {
                const entry = record(ownQuestions[q.id]);
                const options = strings(entry.options);
                const at = `${base}.questions.${q.id}`;
                field(at);
                return (
                  <div
                    key={q.id}
                    className="mt-2 border-t border-slate-100 pt-2"
                  >
                    <Field
                      name={field(`${at}.text`)}
                      label={`${n + 1}. ${q.text}`}
                      value={text(entry.text)}
                      max={TRANSLATION_LIMITS.text}
                      lang={code}
                      errors={props.errors}
                    />
                    {props.errors[at]?.map((m) => (
                      <p key={m} role="alert" className="text-sm text-red-700">
                        {m}
                      </p>
                    ))}
                    {q.type === "multiple_choice" && q.options?.length ? (
                      <div className="grid gap-x-4 pl-4 sm:grid-cols-2">
                        {q.options.map((option, i) => (
                          <Field
                            key={`${q.id}-${i}`}
                            name={field(`${at}.options[${i}]`)}
                            label={`Option: ${option}`}
                            value={options[i] ?? ""}
                            max={TRANSLATION_LIMITS.option}
                            lang={code}
                            errors={props.errors}
                          />
                        ))}
                        {props.errors[field(`${at}.options`)]?.map((m) => (
                          <p
                            key={m}
                            role="alert"
                            className="text-sm text-red-700"
                          >
                            {m}
                          </p>
                        ))}
                      </div>
                    ) : null}
                  </div>
                );
              })}
            </fieldset>
          </fieldset>
        </Card>
      </div>
    );
  });
  const other = Object.entries(props.errors)
    .filter(
      ([key, messages]) =>
        (key === "translations" || key.startsWith("translations.")) &&
        !shown.has(key) &&
        messages?.length
    )
    .flatMap(([, messages]) => messages ?? []);
  return (
    <div className="flex flex-col gap-4" data-testid="translations">
      {other.length ? (
        <div
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <p className="font-semibold">Translations</p>
          <ul className="list-disc pl-5">
            {[...new Set(other)].map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {cards}
    </div>
  );
}
