import { Link } from '@remix-run/react';
import { dollars, type Usage } from '../../modules/billing/index.ts';

// One formatter, made once: toLocaleDateString builds a new one per call (seen in a CPU profile under load).
const shortDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const shortDate = (iso: string) => shortDateFormat.format(new Date(iso));

/** Rewards issued this billing month against the plan's limit, with the overage when there is one. */
export function UsageMeter({ usage, link = false }: { usage: Usage; link?: boolean }) {
  const width = Math.min(100, usage.percent);
  const tone = usage.percent >= 100 ? 'bg-red-600' : usage.percent >= 80 ? 'bg-amber-500' : 'bg-emerald-600';
  // The window ends just before windowEnd: show the last day it covers.
  const last = new Date(new Date(usage.windowEnd).getTime() - 1).toISOString();
  return (
    <div className="space-y-2" data-testid="usage">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          <span className="text-2xl">{usage.issued}</span> of {usage.limit} rewards used
        </p>
        <p className="text-sm text-slate-600">
          {shortDate(usage.windowStart)} – {shortDate(last)}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label="Rewards used this billing month"
        aria-valuemin={0}
        aria-valuemax={usage.limit}
        aria-valuenow={Math.min(usage.issued, usage.limit)}
        className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full ${tone}`} style={{ width: `${width}%` }} />
      </div>
      {usage.over > 0 ? (
        <p className="text-sm text-red-800" data-testid="overage">
          {usage.over} reward{usage.over === 1 ? '' : 's'} over your {usage.planName} plan&apos;s limit: {dollars(usage.overageCost)} at {dollars(usage.costPerEngagement)} each. Every reward was still sent.
        </p>
      ) : usage.percent >= 80 ? (
        <p className="text-sm text-amber-900">You have used {usage.percent}% of this month&apos;s rewards. Rewards over the limit are still sent, at {dollars(usage.costPerEngagement)} each.</p>
      ) : (
        <p className="text-sm text-slate-600">{usage.planName} plan · {dollars(usage.costPerEngagement)} per reward over the limit.</p>
      )}
      {link ? (
        <Link to="/subscription-details" className="inline-block text-sm font-medium text-brand-700 hover:underline">
          Subscription details
        </Link>
      ) : null}
    </div>
  );
}
