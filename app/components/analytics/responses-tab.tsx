import { Form, Link } from '@remix-run/react';
import { REWARD_STATUS_LABELS, type RewardStatus } from '../../../modules/analytics/index.ts';
import { formatCents } from '../../../modules/scoring/index.ts';
import { isLocale, LOCALE_ENGLISH_NAMES, LOCALES } from '../../../modules/i18n/index.ts';
import type { AnalyticsPageData } from '../../utils/analytics.server.ts';
import { Cell, Customer, TierBadge } from '../gift-card-ui.tsx';
import { buttonClass, noticeClass } from '../ui.tsx';
import { ExportLink, formatWhen, Pagination, platformLabel, ResponsiveTable, rowClass, useHref } from './shared.tsx';

/** The analytics page's All Responses tab: the responses of the scope, 10 a page, searchable, with their review and reward status. (Split from analytics.tsx by tab, issue 28 item 4.) */

export function Stars({ rating }: { rating: number }) {
  return (
    <span aria-label={`${rating} of 5 stars`} className="text-gold">
      {'★'.repeat(Math.max(0, Math.min(5, rating)))}
      <span className="text-slate-300">{'★'.repeat(Math.max(0, 5 - rating))}</span>
    </span>
  );
}

export function ReviewData({ row }: { row: NonNullable<AnalyticsPageData['responses']>['rows'][number] }) {
  return (
    <div className="space-y-1 text-sm">
      {row.overallRating !== null ? (
        <p>
          Rated <Stars rating={row.overallRating} />
        </p>
      ) : null}
      {row.reviewPlatform ? (
        <p className="text-slate-700">
          {platformLabel(row.reviewPlatform)} review{row.reviewStarRating !== null ? ` (${row.reviewStarRating}★)` : ''}
          {row.reviewerName ? ` by ${row.reviewerName}` : ''}
        </p>
      ) : (
        <p className="text-slate-600">No review shared</p>
      )}
    </div>
  );
}

/** A response's reward with where it stands: a rejected one struck through and marked, a held one marked (issue 27 item 4). */
export function RewardCell({ value, status }: { value: number | null; status: RewardStatus }) {
  if (!value) return <span className="font-semibold">—</span>;
  const marked = status === 'rejected' || status === 'held';
  return (
    <span className="flex flex-col items-start gap-1">
      <span className={`font-semibold ${status === 'rejected' ? 'text-slate-500 line-through' : ''}`}>{formatCents(value)}</span>
      {marked ? (
        <span
          data-testid="reward-status"
          className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${status === 'rejected' ? 'border-red-300 bg-red-50 text-red-800' : 'border-amber-300 bg-amber-50 text-amber-900'}`}
        >
          {REWARD_STATUS_LABELS[status]}
        </span>
      ) : null}
    </span>
  );
}

/** The CSV of what the tab shows (survey, dates and, for responses, the search). A plain download link. */
export function ResponsesTab({ data }: { data: AnalyticsPageData }) {
  const responses = data.responses!;
  const href = useHref(data);
  return (
    <section aria-labelledby="tab-heading" className="space-y-4">
      <h2 id="tab-heading" className="sr-only">
        All Responses
      </h2>
      <Form method="get" action={data.basePath} role="search" className="flex flex-wrap items-end gap-2">
        {data.pickerValue ? <input type="hidden" name="survey" value={data.pickerValue} /> : null}
        {data.query.from ? <input type="hidden" name="from" value={data.query.from} /> : null}
        {data.query.to ? <input type="hidden" name="to" value={data.query.to} /> : null}
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <label htmlFor="search" className="mb-1 block text-sm font-medium text-slate-800">
            Search by email or name
          </label>
          <input
            id="search"
            name="q"
            type="search"
            maxLength={100}
            defaultValue={data.query.q}
            className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm"
          />
        </div>
        <div>
          <label htmlFor="language" className="mb-1 block text-sm font-medium text-slate-800">
            Language
          </label>
          <select id="language" name="language" defaultValue={data.query.language} className="block min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base shadow-sm">
            <option value="">All languages</option>
            {LOCALES.map((code) => (
              <option key={code} value={code}>
                {LOCALE_ENGLISH_NAMES[code]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass.secondary}>
          Search
        </button>
        {data.query.q || data.query.language ? (
          <Link to={href({ q: '', language: '', page: 1 })} className="inline-flex min-h-11 items-center px-2 font-medium text-brand-700 underline-offset-2 hover:underline">
            Clear search
          </Link>
        ) : null}
        {responses.total > 0 ? (
          <div className="sm:ml-auto">
            <ExportLink data={data} kind="responses" />
          </div>
        ) : null}
      </Form>
      {responses.total === 0 ? (
        <p className={noticeClass.empty}>
          {data.query.q ? `No response matches "${data.query.q}"${data.query.language ? ` in ${LOCALE_ENGLISH_NAMES[data.query.language]}` : ''}.` : data.query.language ? `No response in ${LOCALE_ENGLISH_NAMES[data.query.language]} in this period.` : 'No responses in this period.'}
        </p>
      ) : (
        <>
          <ResponsiveTable caption="Survey responses, newest first" headers={['Customer', 'Language', 'Review data', 'Points', 'Tier', 'Reward', 'Submitted', '']}>
            {responses.rows.map((r) => (
              <tr key={r.id} data-testid="response-row" className={rowClass}>
                <Cell label="Customer">
                  <Customer name={r.customerName} email={r.customerEmail} />
                </Cell>
                <Cell label="Language" className="text-sm">
                  <span data-testid="response-language">{isLocale(r.locale) ? LOCALE_ENGLISH_NAMES[r.locale] : r.locale}</span>
                </Cell>
                <Cell label="Review data">
                  <ReviewData row={r} />
                </Cell>
                <Cell label="Points" className="font-semibold">
                  {r.totalPoints}
                </Cell>
                <Cell label="Tier">
                  <TierBadge tier={r.rewardTier} />
                </Cell>
                <Cell label="Reward" className="whitespace-nowrap">
                  <RewardCell value={r.rewardValue} status={r.rewardStatus} />
                </Cell>
                <Cell label="Submitted" className="text-sm whitespace-nowrap text-slate-700">
                  <time dateTime={r.submittedAt}>{formatWhen(r.submittedAt)}</time>
                  {!data.survey && r.surveyTitle ? <p className="text-xs whitespace-normal text-slate-600">{r.surveyTitle}</p> : null}
                </Cell>
                <Cell label="">
                  <Link to={`/survey-analytics/responses/${r.id}`} className="inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-2 hover:underline">
                    View<span className="sr-only"> the response of {r.customerName ?? r.customerEmail ?? 'this customer'}</span>
                  </Link>
                </Cell>
              </tr>
            ))}
          </ResponsiveTable>
          <Pagination page={responses.page} pageCount={responses.pageCount} total={responses.total} pageSize={responses.pageSize} noun="responses" href={(page) => href({ page })} />
        </>
      )}
    </section>
  );
}
