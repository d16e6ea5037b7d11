import type { FieldMetadata } from '@conform-to/react';
import { LOCALE_NAMES, LOCALES } from '../../../modules/i18n/index.ts';
import { Card, FieldError } from '../ui.tsx';

/**
 * The languages a survey offers (issue 30, ADR 086): one checkbox per language, each named in itself
 * ('Español'), and the default language as a radio group. Plain form controls: they post as they are
 * without JavaScript, and the server turns them into the stored list (the default first).
 */
export function LanguagesCard(props: { languages: FieldMetadata<unknown>; defaultLanguage: FieldMetadata<unknown>; initiallyOffered: string[]; initialDefault: string }) {
  const { languages, defaultLanguage } = props;
  const helpId = `${languages.id}-help`;
  return (
    <Card>
      <fieldset aria-describedby={`${helpId} ${languages.errorId}`}>
        <legend className="font-semibold">Languages customers can choose</legend>
        <p id={helpId} className="mb-3 text-sm text-slate-600">
          The survey, its Thank You page and the emails to customers are shown in these languages. Each language ticked gets a card under Questions where you may translate your own words; what you leave blank stays in your words.
        </p>
        <div className="flex flex-wrap gap-x-6">
          {LOCALES.map((code) => (
            <label key={code} className="flex min-h-11 items-center gap-2 font-medium">
              <input type="checkbox" name={languages.name} value={code} defaultChecked={props.initiallyOffered.includes(code)} className="size-5" />
              <span lang={code}>{LOCALE_NAMES[code]}</span>
            </label>
          ))}
        </div>
        <FieldError id={languages.errorId} errors={languages.errors} />
      </fieldset>
      <fieldset className="mt-2" aria-describedby={defaultLanguage.errorId}>
        <legend className="font-semibold">Default language</legend>
        <p className="mb-2 text-sm text-slate-600">Customers whose browser asks for none of the languages above see this one.</p>
        <div className="flex flex-wrap gap-x-6">
          {LOCALES.map((code) => (
            <label key={code} className="flex min-h-11 items-center gap-2">
              <input type="radio" name={defaultLanguage.name} value={code} defaultChecked={props.initialDefault === code} className="size-5" />
              <span lang={code}>{LOCALE_NAMES[code]}</span>
            </label>
          ))}
        </div>
        <FieldError id={defaultLanguage.errorId} errors={defaultLanguage.errors} />
      </fieldset>
    </Card>
  );
}
