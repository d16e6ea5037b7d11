import type { Tab } from '../../modules/analytics/index.ts';
import { Link } from '@remix-run/react';
import type { AnalyticsPageData } from '../utils/analytics.server.ts';
import { pill } from './gift-card-ui.tsx';
import { buttonClass, Card, noticeClass } from './ui.tsx';
import { SurveyPicker, DateFilter, Tabs } from './analytics/filters.tsx';
import { ResponsesTab } from './analytics/responses-tab.tsx';
import { DistributionTab } from './analytics/distribution-tab.tsx';
import { QuestionsTab } from './analytics/questions-tab.tsx';
import { GiftCardsTab } from './analytics/giftcards-tab.tsx';
import { FunnelTab } from './analytics/funnel-tab.tsx';
import { formatCount, Stat } from './analytics/shared.tsx';

/** The survey analytics page (spec section 2), for /survey-analytics and /survey-analytics/{id}. Server-rendered; every control is a link or a GET form. */
export function AnalyticsView({ data }: { data: AnalyticsPageData }) {
  const title = data.survey ? data.survey.title : 'All Surveys';
  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600">Survey Analytics</p>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">{title}</h1>
          {data.survey ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <span className={`${pill} ${data.survey.isActive ? 'border-emerald-200 bg-emerald-50 text-emerald-800' : 'border-slate-300 bg-slate-100 text-slate-700'}`}>
                {data.survey.isActive ? 'Active' : 'Inactive'}
              </span>
            </div>
          ) : (
            <p className="text-slate-600">
              {data.surveyCount === 1 ? 'Your survey' : `All ${formatCount(data.surveyCount)} of your surveys`}, together.
            </p>
          )}
        </div>
        <Link to="/survey-management" className={buttonClass.secondary}>
          Back to Management
        </Link>
      </div>

      {data.surveyCount === 0 ? (
        <Card className="py-12 text-center">
          <h2 className="text-xl font-semibold">No surveys yet</h2>
          <p className="mx-auto mt-2 max-w-md text-slate-600">Responses, ratings and rewards appear here once you publish a survey and customers answer it.</p>
          <Link to="/survey-builder" className={`${buttonClass.primary} mt-6`}>
            Build New Survey
          </Link>
        </Card>
      ) : (
        <>
          <div className="flex flex-wrap items-end justify-between gap-4">
            <SurveyPicker data={data} />
            <DateFilter data={data} />
          </div>
          {data.error && data.error.field !== 'from' && data.error.field !== 'to' ? (
            <div role="alert" className={noticeClass.error}>
              <p className="font-semibold">These figures cannot be shown</p>
              <p>{data.error.message}</p>
            </div>
          ) : null}
          {data.stats ? (
            <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              <Stat label="Total Responses" value={formatCount(data.stats.totalResponses)} />
              <Stat label="Average Points" value={data.stats.averagePoints === null ? '—' : String(data.stats.averagePoints)} />
              <Stat label="Gold Tier" value={formatCount(data.stats.goldCount)} />
              <Stat label="This Month" value={formatCount(data.stats.thisMonth)} note="Submitted this calendar month (UTC)" />
            </dl>
          ) : null}
          {data.stats && data.stats.totalResponses === 0 && !data.query.from && !data.query.to ? (
            <Card className="text-center">
              <h2 className="text-lg font-semibold">No responses yet</h2>
              <p className="mx-auto mt-1 max-w-md text-slate-600">Share your survey's link or QR code: each customer's answers, points and reward appear here.</p>
              <Link to={data.survey ? `/survey-published/${data.survey.id}` : '/survey-management'} className={`${buttonClass.primary} mt-4`}>
                Share Your Survey
              </Link>
            </Card>
          ) : null}
          {data.error ? null : (
            <>
              <Tabs data={data} />
              {data.query.tab === 'responses' && data.responses ? <ResponsesTab data={data} /> : null}
              {data.query.tab === 'distribution' && data.distribution ? <DistributionTab data={data} /> : null}
              {data.query.tab === 'questions' ? <QuestionsTab data={data} /> : null}
              {data.query.tab === 'giftcards' && data.giftCards ? <GiftCardsTab data={data} /> : null}
              {data.query.tab === 'funnel' && data.funnel ? <FunnelTab data={data} /> : null}
            </>
          )}
        </>
      )}
    </main>
  );
}

export { formatDay, formatWhen, platformLabel } from './analytics/shared.tsx';
export type { Tab };
