import { Link } from '@remix-run/react';
import { AvailabilityBadge, CopyUrl, SurveyDetails, TierSummary } from './survey-ui.tsx';
import { buttonClass, Card, noticeClass } from './ui.tsx';
import type { Availability, UnavailableFix } from '../../modules/surveys/index.ts';

export type PublishedSurveyData = {
  id: string;
  title: string;
  isPublished: boolean;
  isActive: boolean;
  createdAt: string;
  publishedAt: string | null;
  surveyTemplateId: string;
  bronzeRewardValue: number;
  silverRewardValue: number;
  goldRewardValue: number;
  surveyFrequencyDays: number;
  redemptionWebsite: string | null;
  selectedReviewPlatforms: string[];
  selectedSocialPlatforms: string[];
  publicUrl: string;
  /** The owner's own preview (works before the survey is live). */
  previewUrl: string;
  availability: Availability;
  unavailableReasons: string[];
  unavailableFixes: UnavailableFix[];
  locationNotice: UnavailableFix | null;
  qrSvg: string;
  hasPlan: boolean;
  posConnected: boolean;
  trialDaysRemaining: number;
};

/** The published page of spec section 2: status, details, tiers, link, QR code, materials, next steps. */
export function PublishedSurvey({ s }: { s: PublishedSurveyData }) {
  // The link, QR code and flyer are offered only while customers can open them (issue 27 item 7):
  // otherwise they lead to 'Survey Not Found', and the page says what is missing instead.
  const live = s.availability === 'Available';
  const notLive =
    s.availability === 'Inactive'
      ? 'This survey is switched off. Turn it on in Manage Surveys to share it.'
      : s.availability === 'Draft'
        ? 'Publish this survey to share it.'
        : `Finish setting up first: ${s.unavailableReasons.join(' ')}`;
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold sm:text-3xl">{s.title}</h1>
        <AvailabilityBadge availability={s.availability} />
      </div>
      {s.availability === 'Draft' ? (
        <div role="status" className="rounded-card border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">Not published yet</p>
          <p className="text-sm">Customers who open the link see that it is not available. Publish it to start collecting feedback.</p>
          <Link to={`/subscription-check?surveyId=${s.id}`} className={`${buttonClass.primary} mt-3`}>
            Publish Survey
          </Link>
        </div>
      ) : null}

      {s.locationNotice && s.availability === 'Available' ? (
        <div role="status" className="rounded-card border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="text-sm">{s.locationNotice.reason}</p>
          <Link to={s.locationNotice.href} className={`${buttonClass.secondary} mt-3`}>
            {s.locationNotice.label}
          </Link>
        </div>
      ) : null}

      {s.unavailableReasons.length ? (
        <div role="alert" className={noticeClass.error}>
          <p className="font-semibold">Surveys Currently Unavailable</p>
          <p className="text-sm">Published, but not live yet: customers who open the link or scan a QR code see &ldquo;Survey Not Found&rdquo; until you fix this.</p>
          <ul className="mt-1 list-disc pl-5 text-sm">
            {s.unavailableReasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
          <div className="mt-3 flex flex-wrap gap-2">
            {s.unavailableFixes.map((f, i) => (
              <a key={f.href} href={f.href} className={i === 0 ? buttonClass.primary : buttonClass.secondary}>
                {f.label}
              </a>
            ))}
          </div>
        </div>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          <Card>
            <h2 className="mb-3 font-semibold">Share your survey</h2>
            {live ? (
              <>
                <CopyUrl url={s.publicUrl} failTitle="Failed to copy" failText="Please copy the URL manually" />
                <div className="mt-4 flex flex-wrap gap-2">
                  <a href={s.publicUrl} target="_blank" rel="noreferrer" className={buttonClass.primary}>
                    View Live Survey
                  </a>
                </div>
              </>
            ) : (
              <>
                <p className="text-sm text-slate-700" data-testid="not-live">
                  Your link, QR code and flyer appear here once customers can open the survey. {notLive}
                </p>
                <div className="mt-4 flex flex-wrap gap-2">
                  {s.unavailableFixes.map((f) => (
                    <a key={f.href} href={f.href} className={buttonClass.primary}>
                      {f.label}
                    </a>
                  ))}
                  <a href={s.previewUrl} target="_blank" rel="noreferrer" className={buttonClass.secondary}>
                    Preview
                  </a>
                </div>
              </>
            )}
          </Card>
          <Card>
            <h2 className="mb-3 font-semibold">Reward tiers</h2>
            <TierSummary survey={s} />
          </Card>
          <Card>
            <h2 className="mb-3 font-semibold">Details</h2>
            <SurveyDetails
              survey={s}
              lead={{ term: 'Published', value: s.publishedAt ? new Date(s.publishedAt).toLocaleDateString('en-US', { dateStyle: 'medium' }) : 'Not yet' }}
            />
          </Card>
          <Card>
            <h2 className="mb-3 font-semibold">Next steps</h2>
            <ol className="list-decimal space-y-1 pl-5 text-slate-700">
              <li>Print the flyer and put it by the till or on tables.</li>
              <li>Share the link on your social accounts and receipts.</li>
              <li>Watch responses and rewards arrive in analytics.</li>
            </ol>
            <div className="mt-4 flex flex-wrap gap-2">
              <Link to="/" className={buttonClass.secondary}>
                Dashboard
              </Link>
              <Link to="/survey-management" className={buttonClass.secondary}>
                Manage Surveys
              </Link>
              <Link to={`/survey-analytics/${s.id}`} className={buttonClass.secondary}>
                Analytics
              </Link>
            </div>
          </Card>
        </div>
        <aside id="materials" className="space-y-4">
          {live ? (
            <Card className="text-center">
              <h2 className="mb-3 font-semibold">QR code</h2>
              <div className="mx-auto w-full max-w-72 [&>svg]:h-auto [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: s.qrSvg }} />
              <div className="mt-4 flex flex-col gap-2">
                <a href={`/survey-materials/${s.id}/flyer`} download className={buttonClass.primary}>
                  Download Promotional Material
                </a>
                <a href={`/survey-materials/${s.id}/qr`} download className={buttonClass.secondary}>
                  Download QR Code (PNG)
                </a>
              </div>
              <p className="mt-2 text-xs text-slate-600">The flyer is a US Letter PNG at 300 dpi, ready to print.</p>
            </Card>
          ) : (
            <Card>
              <h2 className="font-semibold">QR code and flyer</h2>
              <p className="mt-1 text-sm text-slate-600">Ready to download once the survey is live, so nothing you print leads to &ldquo;Survey Not Found&rdquo;.</p>
            </Card>
          )}
          <Card>
            <h2 className="font-semibold">Your plan</h2>
            <p className="mt-1 text-sm text-slate-600">
              {s.hasPlan
                ? s.trialDaysRemaining > 0
                  ? `Free trial: ${s.trialDaysRemaining} day${s.trialDaysRemaining === 1 ? '' : 's'} left. Subscribe to keep your surveys live after it ends.`
                  : 'Your subscription is active: your surveys stay live.'
                : 'Start a free trial or subscribe to take responses.'}
            </p>
          </Card>
        </aside>
      </div>
    </main>
  );
}
