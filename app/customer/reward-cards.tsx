// What the customer can earn: the sticky progress card, the reward tiers and the Thank You card, with
// the tier badges' colours and the whole-dollar amounts they show.
import type { CustomerSurveyView } from '../../modules/responses/index.ts';
import { INCENTIVE_DISCLOSURE, POLICY_DISCLOSURE, type TierName } from '../../modules/surveys/index.ts';
import { tierRangeLabel, type TierRange } from '../../modules/scoring/index.ts';
import type { Translator } from '../../modules/i18n/index.ts';
import { useI18n } from '../components/i18n.tsx';
import { BrandLogo } from './page-frame.tsx';
import type { SurveyDone } from './state.ts';

const tierBadge: Record<TierName | 'None', string> = {
  None: 'bg-slate-100 text-slate-700 border-slate-300',
  Bronze: 'bg-bronze-soft text-bronze border-bronze/40',
  Silver: 'bg-silver-soft text-silver border-silver/40',
  Gold: 'bg-gold-soft text-gold border-gold/40',
};

/** Whole dollars on the survey page (spec 9), in the customer's locale (Intl); None shows $0.00. */
export const dollars = (tr: Translator, cents: number, tier: string | null) => (tier ? tr.money(cents) : tr.money(0, false));

export function ProgressCard({ section, total, points, tier, ranges, view }: { section: number; total: number; points: number; tier: TierName | null; ranges: TierRange[]; view: CustomerSurveyView }) {
  const next = ranges.find((r) => r.min_points > points);
  const values: Record<TierName, number> = { Bronze: view.bronzeRewardValue, Silver: view.silverRewardValue, Gold: view.goldRewardValue };
  const top = ranges.at(-1)?.min_points ?? 1;
  const tr = useI18n();
  const { t } = tr;
  return (
    <section aria-label={t('Your progress')} className="sticky top-0 z-10 -mx-4 border-b border-slate-200 bg-white px-4 py-3 sm:mx-0 sm:rounded-card sm:border">
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-slate-700">{t('Section {{n}} of {{total}}', { n: section + 1, total })}</p>
        <p aria-live="polite" className="flex items-center gap-2">
          <span className="text-lg font-bold" data-testid="points">
            {t('{{count}} points', { count: points })}
          </span>
          <span data-testid="tier" className={`rounded-full border px-2.5 py-0.5 text-sm font-bold transition-colors ${tierBadge[tier ?? 'None']}`}>
            {t(tier ?? 'None')}
          </span>
        </p>
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${Math.min(100, Math.round((points / top) * 100))}%` }} />
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {next
          ? t('{{count}} more points for {{tier}} ({{value}})', { count: next.min_points - points, tier: t(next.tier), value: dollars(tr, values[next.tier], next.tier) })
          : t('You reached the top reward!')}
      </p>
    </section>
  );
}

export function RewardTiers({ ranges, view, tier }: { ranges: TierRange[]; view: CustomerSurveyView; tier: TierName | null }) {
  const values: Record<TierName, number> = { Bronze: view.bronzeRewardValue, Silver: view.silverRewardValue, Gold: view.goldRewardValue };
  const tr = useI18n();
  const { t } = tr;
  return (
    <section aria-labelledby="rewards-title" className="mt-4 rounded-card border border-slate-200 bg-white p-4">
      <h2 id="rewards-title" className="text-sm font-semibold text-slate-700">
        {t('Gift card rewards')}
      </h2>
      <ul className="mt-2 grid grid-cols-3 gap-2">
        {ranges.map((r) => (
          <li key={r.tier} className={`rounded-lg border px-2 py-2 text-center ${tierBadge[r.tier]} ${tier === r.tier ? 'ring-2 ring-brand-600' : ''}`}>
            <p className="text-xs font-semibold">{t(r.tier)}</p>
            <p className="text-xl font-bold">{dollars(tr, values[r.tier], r.tier)}</p>
            <p className="text-xs">{t('{{range}} pts', { range: tierRangeLabel(r) })}</p>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-xs text-slate-600" data-testid="incentive-disclosure">
        {`${t(INCENTIVE_DISCLOSURE)} ${t(POLICY_DISCLOSURE[view.reviewPolicy])}`}
      </p>
    </section>
  );
}

export function ThankYou({ view, done }: { view: CustomerSurveyView; done: SurveyDone }) {
  const tier = done.tier as TierName | null;
  const tr = useI18n();
  const { t } = tr;
  const value = dollars(tr, done.rewardValue, tier);
  return (
    <div className="mt-8 rounded-card border border-slate-200 bg-white p-6 text-center shadow-sm">
      <BrandLogo view={view} className="mx-auto mb-4" />
      <svg aria-hidden viewBox="0 0 24 24" className="mx-auto size-14 text-emerald-600" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <circle cx="12" cy="12" r="10" />
        <path d="m7.5 12.5 3 3 6-6.5" />
      </svg>
      <h1 className="mt-2 text-3xl font-bold" tabIndex={-1} id="thank-you">
        {t('Thank You!')}
      </h1>
      <p className="mt-2 text-slate-700">{t('Your feedback helps {{business}}.', { business: view.businessName })}</p>
      <p className="mt-4 flex items-center justify-center gap-2">
        <span className={`rounded-full border px-3 py-1 font-bold ${tierBadge[tier ?? 'None']}`}>{t(tier ?? 'No reward tier')}</span>
        <span className="font-semibold">{t('{{count}} points', { count: done.points })}</span>
      </p>
      {tier && done.checking ? (
        <p className="mt-4 text-slate-700" data-testid="reward-checking">
          {done.confirmEmail
            ? t("We've sent a link to {{email}}: confirm your address and your {{value}} gift card follows by email.", { email: done.email ?? t('your email'), value })
            : done.email
              ? t('Your {{value}} gift card is being checked and will arrive by email at {{email}}.', { value, email: done.email })
              : t('Your {{value}} gift card is being checked and will arrive by email.', { value })}
        </p>
      ) : tier ? (
        <p className="mt-4 text-slate-700">
          {done.demoGiftCard
            ? done.email
              ? t('Your {{value}} gift card would be sent to {{email}}.', { value, email: done.email })
              : t('Your {{value}} gift card would be sent.', { value })
            : done.email
              ? t('Your {{value}} gift card is on its way to {{email}}. It usually arrives within a few minutes.', { value, email: done.email })
              : t('Your {{value}} gift card is on its way. It usually arrives within a few minutes.', { value })}
        </p>
      ) : (
        <p className="mt-4 text-slate-700">{t("This visit didn't reach a reward tier, but we read every answer.")}</p>
      )}
      {done.demoGiftCard ? (
        <p className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {t(view.mode === 'demo' ? 'Demo: nothing was saved. Pretend gift card' : 'Preview: nothing was saved. Pretend gift card')} <span className="font-mono font-semibold">{done.demoGiftCard}</span>
        </p>
      ) : null}
    </div>
  );
}
