import { getInputProps, getSelectProps } from '@conform-to/react';
import type { SurveyTemplate } from '../../../modules/surveys/index.ts';
import type { toFormValues } from '../../../modules/surveys/forms.ts';
import { Card, FieldError } from '../ui.tsx';
import type { BuilderFields } from './fields.ts';
import { LanguagesCard } from './languages.tsx';
import { RequiredMark, toArray } from './parts.tsx';

/** Step 1 of the builder, the basics: title, redemption website, how often, email confirmation, hosted vision, languages. */
export function BasicsStep({
  fields,
  template,
  defaults,
  submitted,
  visionAvailable,
}: {
  fields: BuilderFields;
  template: SurveyTemplate;
  defaults: ReturnType<typeof toFormValues>;
  /** The page shows a refused post: the choices come from the submission. */
  submitted: boolean;
  visionAvailable: boolean;
}) {
  return (
    <>
    <Card>
      <label htmlFor={fields.title.id} className="block font-semibold">
        Survey Title <RequiredMark />
      </label>
      <p className="mb-2 text-sm text-slate-600">Customers see this at the top of the survey.</p>
      <input
        {...getInputProps(fields.title, { type: 'text' })}
        aria-required="true"
        placeholder="e.g. Tell us about your visit"
        className="block min-h-11 w-full rounded-lg border border-slate-300 px-3"
      />
      <FieldError id={fields.title.errorId} errors={fields.title.errors} />
    </Card>
    <Card>
      <label htmlFor={fields.redemptionWebsite.id} className="block font-semibold">
        Redemption website <RequiredMark />
      </label>
      <p className="mb-2 text-sm text-slate-600">Where customers can spend their gift card, e.g. your online ordering page. The reward email links to it.</p>
      <input
        {...getInputProps(fields.redemptionWebsite, { type: 'text' })}
        aria-required="true"
        inputMode="url"
        placeholder="https://yourcafe.com"
        className="block min-h-11 w-full rounded-lg border border-slate-300 px-3"
      />
      <FieldError id={fields.redemptionWebsite.errorId} errors={fields.redemptionWebsite.errors} />
    </Card>
    <Card>
      <label htmlFor={fields.surveyFrequencyDays.id} className="block font-semibold">
        How often can a customer submit?
      </label>
      <p className="mb-2 text-sm text-slate-600">The same email can earn a reward once in this many days.</p>
      <select {...getSelectProps(fields.surveyFrequencyDays)} className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 sm:w-96">
        {template.frequency_options.map((d) => (
          <option key={d} value={String(d)}>
            Once every {d} days
            {d === template.frequency_options[0] ? ' (recommended)' : ''}
          </option>
        ))}
      </select>
      <FieldError id={fields.surveyFrequencyDays.errorId} errors={fields.surveyFrequencyDays.errors} />
      <div className="mt-4 flex items-start gap-3">
        <input
          {...getInputProps(fields.verifyCustomerEmail, {
            type: 'checkbox',
          })}
          aria-describedby={`${fields.verifyCustomerEmail.id}-help`}
          className="mt-1 size-5 shrink-0 rounded border-slate-300"
        />
        <div>
          <label htmlFor={fields.verifyCustomerEmail.id} className="font-semibold">
            Ask customers to confirm their email before the gift card is sent
          </label>
          <p id={`${fields.verifyCustomerEmail.id}-help`} className="text-sm text-slate-600">
            We email them a link; the card follows when they click it. Stops rewards going to made-up addresses.
          </p>
        </div>
      </div>
      {visionAvailable ? (
        <div className="mt-4 flex items-start gap-3">
          <input
            {...getInputProps(fields.hostedVision, {
              type: 'checkbox',
            })}
            aria-describedby={`${fields.hostedVision.id}-help`}
            className="mt-1 size-5 shrink-0 rounded border-slate-300"
          />
          <div>
            <label htmlFor={fields.hostedVision.id} className="font-semibold">
              Check screenshots with a hosted AI service (OpenAI)
            </label>
            <p id={`${fields.hostedVision.id}-help`} className="text-sm text-slate-600">
              Reads unusual layouts better than the built-in reader. Every screenshot customers upload to this survey is sent to OpenAI, and the survey tells them so before they choose a
              file.
            </p>
            <FieldError id={fields.hostedVision.errorId} errors={fields.hostedVision.errors} />
          </div>
        </div>
      ) : defaults.hostedVision ? (
        // Not offered on this server now: the survey keeps its choice (its screenshots are read here meanwhile).
        <input type="hidden" name={fields.hostedVision.name} value="on" />
      ) : null}
    </Card>
    <LanguagesCard
      languages={fields.languages}
      defaultLanguage={fields.defaultLanguage}
      initiallyOffered={submitted ? toArray(fields.languages.initialValue) : defaults.languages}
      initialDefault={String((submitted ? fields.defaultLanguage.initialValue : undefined) ?? defaults.defaultLanguage)}
    />
    </>
  );
}
