// Where the customer claims the reward on the last part: the email (with the eligibility check's
// answer under it) and the optional name. EligibilityNote also sits under an email question.
import { WINDOW_MESSAGE_KEY } from '../../modules/responses/index.ts';
import type { Score, TierRange } from '../../modules/scoring/index.ts';
import type { Translator } from '../../modules/i18n/index.ts';
import { useI18n } from '../components/i18n.tsx';
import { InlineError, inputClass, type FieldApi } from './questions.tsx';
import { dollars } from './reward-cards.tsx';
import type { SurveyStep } from './state.ts';
import type { Eligibility } from './use-eligibility.ts';

/** The claim box; a repeat email (`emailRefused`) is said instead of what the score earned. */
export function ClaimBox({
  step,
  api,
  eligibility,
  emailRefused,
  score,
  ranges,
}: {
  step: SurveyStep;
  api: FieldApi;
  eligibility: Eligibility;
  emailRefused: boolean;
  score: Score;
  ranges: TierRange[];
}) {
  const tr = useI18n();
  const { t } = tr;
  const claimEmail = String(step.answers.customerEmail ?? step.answers.customer_email ?? '');
  return (
    <section aria-labelledby="claim-title" className="mt-6 rounded-card border-2 border-brand-600 bg-brand-50 p-4">
      <h3 id="claim-title" className="text-lg font-bold">
        {t('Claim Your Reward')}
      </h3>
      <p className="mt-1 text-sm text-slate-700" data-testid="claim-text">
        {emailRefused
          ? t('This email cannot get a reward right now: see the message under the email field.')
          : score.tier
            ? t("You've earned {{tier}}: a {{value}} gift card, sent by email.", { tier: t(score.tier), value: dollars(tr, score.rewardValueCents, score.tier) })
            : t('Reach {{points}} points for a gift card, sent by email.', { points: ranges[0]?.min_points ?? 0 })}
      </p>
      <div className="mt-3 space-y-3">
        <div>
          <label htmlFor="customerEmail" className="mb-1 block text-sm font-medium text-slate-800">
            {t('Email address')}
          </label>
          <input
            id="customerEmail"
            name="customerEmail"
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={255}
            value={claimEmail}
            aria-invalid={step.errors.customerEmail ? true : undefined}
            aria-describedby={step.errors.customerEmail ? 'customerEmail-error' : 'customerEmail-note'}
            onChange={(e) => api.change('customerEmail', e.target.value)}
            onBlur={() => api.blur?.('customerEmail')}
            className={inputClass}
          />
          <InlineError id="customerEmail" message={step.errors.customerEmail} />
          <div id="customerEmail-note">
            <EligibilityNote state={eligibility} shownError={step.errors.customerEmail} />
          </div>
        </div>
        <div>
          <label htmlFor="customerName" className="mb-1 block text-sm font-medium text-slate-800">
            {t('Your name')} <span className="font-normal text-slate-600">{t('(optional)')}</span>
          </label>
          <input
            id="customerName"
            name="customerName"
            type="text"
            autoComplete="name"
            maxLength={255}
            value={String(step.answers.customerName ?? step.answers.customer_name ?? '')}
            onChange={(e) => api.change('customerName', e.target.value)}
            className={inputClass}
          />
        </div>
      </div>
    </section>
  );
}

/** The check's message in the customer's language: the repeat window's by its days left, any other looked up in the catalog. */
export function eligibilityMessage(state: Eligibility, t: Translator['t']): string | null {
  if (state.daysRemaining) return t(WINDOW_MESSAGE_KEY, { count: state.daysRemaining });
  return state.message ? t(state.message) : null;
}

/** The eligibility check's answer under an email field; an ineligible message already shown as the field's error is not said twice. */
export function EligibilityNote({ state, shownError }: { state: Eligibility; shownError?: string }) {
  const { t } = useI18n();
  const message = eligibilityMessage(state, t);
  return (
    <p aria-live="polite" className="mt-1 min-h-5 text-sm">
      {state.checking ? (
        <span className="text-slate-600">{t('Checking your email…')}</span>
      ) : state.eligible === true ? (
        <span className="text-emerald-700">{message ?? t('This email can receive a reward.')}</span>
      ) : state.eligible === false && message !== shownError && message !== (shownError ? t(shownError) : undefined) ? (
        <span className="font-medium text-red-700">{message}</span>
      ) : null}
    </p>
  );
}
