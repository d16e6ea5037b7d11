import { Form, Link, useSubmit } from '@remix-run/react';
import { analyticsSearch, TAB_LABELS, TABS } from '../../../modules/analytics/index.ts';
import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { buttonClass, useHydrated } from '../ui.tsx';
import { useHref } from './shared.tsx';

/** The analytics page's survey picker, date range and tabs: GET forms and links, so every view is a URL. (Split from analytics.tsx by tab, issue 28 item 4.) */

export function SurveyPicker({ data }: { data: AnalyticsPageData }) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  if (!data.picker) return null;
  return (
    <Form method="get" action="/survey-analytics" className="flex flex-wrap items-end gap-2" onChange={(e) => submit(e.currentTarget)}>
      <div>
        <label htmlFor="survey-picker" className="mb-1 block text-sm font-medium text-slate-800">
          Survey
        </label>
        <select
          id="survey-picker"
          name="survey"
          defaultValue={data.pickerValue ?? 'all'}
          className="block min-h-11 w-full max-w-xs rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm sm:w-72"
        >
          <option value="all">All Surveys</option>
          {data.picker.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      {data.query.tab !== 'responses' ? <input type="hidden" name="tab" value={data.query.tab} /> : null}
      {data.query.from ? <input type="hidden" name="from" value={data.query.from} /> : null}
      {data.query.to ? <input type="hidden" name="to" value={data.query.to} /> : null}
      {hydrated ? null : (
        <button type="submit" className={buttonClass.secondary}>
          Show
        </button>
      )}
    </Form>
  );
}

export function DateFilter({ data }: { data: AnalyticsPageData }) {
  const error = data.error && (data.error.field === 'from' || data.error.field === 'to') ? data.error : null;
  const clear = data.basePath + analyticsSearch({ survey: data.pickerValue, tab: data.query.tab });
  return (
    <Form method="get" action={data.basePath} className="flex flex-wrap items-end gap-2" aria-describedby={error ? 'date-error' : undefined}>
      {data.pickerValue ? <input type="hidden" name="survey" value={data.pickerValue} /> : null}
      {data.query.tab !== 'responses' ? <input type="hidden" name="tab" value={data.query.tab} /> : null}
      {data.query.q ? <input type="hidden" name="q" value={data.query.q} /> : null}
      {data.query.language ? <input type="hidden" name="language" value={data.query.language} /> : null}
      <div>
        <label htmlFor="from" className="mb-1 block text-sm font-medium text-slate-800">
          From
        </label>
        <input
          id="from"
          name="from"
          type="date"
          defaultValue={data.query.from}
          aria-invalid={error?.field === 'from' || undefined}
          aria-describedby={error?.field === 'from' ? 'date-error' : undefined}
          className="block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
        />
      </div>
      <div>
        <label htmlFor="to" className="mb-1 block text-sm font-medium text-slate-800">
          To
        </label>
        <input
          id="to"
          name="to"
          type="date"
          defaultValue={data.query.to}
          aria-invalid={error?.field === 'to' || undefined}
          aria-describedby={error?.field === 'to' ? 'date-error' : undefined}
          className="block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm aria-[invalid=true]:border-red-600"
        />
      </div>
      <button type="submit" className={buttonClass.secondary}>
        Apply dates
      </button>
      {data.query.from || data.query.to ? (
        <Link to={clear} className="inline-flex min-h-11 items-center px-2 font-medium text-brand-700 underline-offset-2 hover:underline">
          All dates
        </Link>
      ) : null}
      {error ? (
        <p id="date-error" role="alert" className="basis-full text-sm font-medium text-red-700">
          {error.message}
        </p>
      ) : null}
    </Form>
  );
}

export function Tabs({ data }: { data: AnalyticsPageData }) {
  const href = useHref(data);
  return (
    <nav aria-label="Analytics sections">
      <ul className="flex flex-wrap gap-x-1 border-b border-slate-200">
        {TABS.map((tab) => {
          const active = data.query.tab === tab;
          return (
            <li key={tab}>
              <Link
                to={href({ tab, page: 1, q: '' })}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center border-b-2 px-3 font-medium whitespace-nowrap ${
                  active ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900'
                }`}
              >
                {TAB_LABELS[tab]}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
