import { useState, type ReactNode } from 'react';
import { formatCents, tierRangeLabel, tierRanges, tierThresholds } from '../../modules/scoring/index.ts';
import { type Availability, getTemplate, DEFAULT_TEMPLATE_ID, PLATFORM_LABELS, type Platform, type TierName } from '../../modules/surveys/index.ts';
import { Toast, type ToastData } from './toast.tsx';
import { useHydrated } from './ui.tsx';

export const tierStyle: Record<TierName, string> = {
  Bronze: 'bg-bronze-soft text-bronze border-bronze/30',
  Silver: 'bg-silver-soft text-silver border-silver/30',
  Gold: 'bg-gold-soft text-gold border-gold/30',
};

type TierValues = { surveyTemplateId?: string; bronzeRewardValue: number; silverRewardValue: number; goldRewardValue: number; tierThresholds?: Record<string, number> | null };

/** The three tiers with their points ranges (derived from the template) and dollar values. */
export function TierSummary({ survey, compact = false }: { survey: TierValues; compact?: boolean }) {
  const template = getTemplate(survey.surveyTemplateId ?? DEFAULT_TEMPLATE_ID) ?? getTemplate(DEFAULT_TEMPLATE_ID)!;
  const ranges = tierRanges(tierThresholds(template, survey.tierThresholds));
  const value: Record<TierName, number> = { Bronze: survey.bronzeRewardValue, Silver: survey.silverRewardValue, Gold: survey.goldRewardValue };
  return (
    <ul className={`grid gap-2 ${compact ? 'grid-cols-3' : 'sm:grid-cols-3'}`}>
      {ranges.map((r) => (
        <li key={r.tier} className={`rounded-lg border px-3 py-2 ${tierStyle[r.tier]}`}>
          <p className="text-sm font-semibold">{r.tier}</p>
          <p className={`${compact ? 'text-lg' : 'text-2xl'} font-bold`}>{formatCents(value[r.tier])}</p>
          <p className="text-xs">{tierRangeLabel(r)} points</p>
        </li>
      ))}
    </ul>
  );
}

const availabilityStyle: Record<Availability, string> = {
  Draft: 'bg-amber-100 text-amber-900',
  Available: 'bg-emerald-100 text-emerald-800',
  Unavailable: 'bg-red-100 text-red-800',
  Inactive: 'bg-slate-200 text-slate-700',
};

/** A survey's status in the one vocabulary of every owner page: Draft, Available, Unavailable, Inactive. */
export function AvailabilityBadge({ availability }: { availability: Availability }) {
  return (
    <span data-testid="availability" className={`rounded-full px-2.5 py-1 text-xs font-semibold ${availabilityStyle[availability]}`}>
      {availability}
    </span>
  );
}

export function PlatformList({ platforms }: { platforms: readonly string[] }) {
  if (platforms.length === 0) return <span className="text-slate-500">None</span>;
  return <>{platforms.map((p) => PLATFORM_LABELS[p as Platform] ?? p).join(', ')}</>;
}

/**
 * A read-only URL with a copy button. Without JavaScript the field is still selectable;
 * with it, the button copies and answers with a toast.
 */
export function CopyUrl({ url, label = 'Public survey URL', failTitle = 'Copy Failed', failText = 'Unable to copy URL' }: { url: string; label?: string; failTitle?: string; failText?: string }) {
  const hydrated = useHydrated();
  const [toast, setToast] = useState<ToastData | null>(null);
  const [copied, setCopied] = useState(false);
  const id = `copy-${url.length}-${url.slice(-12).replace(/\W/g, '')}`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setToast({ title: 'URL Copied', description: 'Share it with your customers.', type: 'success' });
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setToast({ title: failTitle, description: failText, type: 'error' });
    }
  }
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {/* The whole link in sight on a phone too (issue 27): it wraps instead of scrolling inside a one-line
          field, and a tap selects all of it for the phone's own Copy, which is all there is without JavaScript. */}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        <textarea
          id={id}
          readOnly
          rows={2}
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          className="block min-h-11 w-full min-w-0 resize-none break-all rounded-lg border border-slate-300 bg-slate-50 px-3 py-2.5 font-mono text-sm [field-sizing:content]"
        />
        {hydrated ? (
          <button type="button" onClick={copy} className="inline-flex min-h-11 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white px-3 font-semibold hover:bg-slate-50">
            {copied ? 'Copied' : 'Copy URL'}
          </button>
        ) : null}
      </div>
      <Toast toast={toast} />
    </div>
  );
}

type DetailsSurvey = {
  surveyFrequencyDays: number;
  selectedReviewPlatforms: readonly string[];
  selectedSocialPlatforms: readonly string[];
  redemptionWebsite: string | null;
};

function Detail({ term, children, wide = false }: { term: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-sm text-slate-500">{term}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}

/** A survey's settings as a definition list; `lead` is the page's own first item. */
export function SurveyDetails({ survey, lead }: { survey: DetailsSurvey; lead: { term: string; value: ReactNode } }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <Detail term={lead.term}>{lead.value}</Detail>
      <Detail term="Repeat submissions">Once every {survey.surveyFrequencyDays} days per email</Detail>
      <Detail term="Review platforms">
        <PlatformList platforms={survey.selectedReviewPlatforms} />
      </Detail>
      <Detail term="Social platforms">
        <PlatformList platforms={survey.selectedSocialPlatforms} />
      </Detail>
      <Detail term="Redemption website" wide>
        {survey.redemptionWebsite}
      </Detail>
    </dl>
  );
}
