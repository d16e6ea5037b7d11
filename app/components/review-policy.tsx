import type { FieldMetadata } from '@conform-to/react';
import {
  INCENTIVE_BANNED_PLATFORMS,
  incentiveBannedPlatforms,
  PLATFORM_LABELS,
  REVIEW_POLICIES,
  REVIEW_POLICY_EXPLANATIONS,
  REVIEW_POLICY_LABELS,
  REVIEW_POLICY_RULES_SUMMARY,
  type ReviewPolicy,
} from '../../modules/surveys/index.ts';
import { Card, FieldError } from './ui.tsx';

/**
 * The builder's review policy choice (issue 14, ADR 040): two radios, each with its rules in plain
 * words; works without JavaScript (a plain radio group posted with the form). `problems` are the
 * tier-fairness problems of the current choices, computed in the browser with the same pure check
 * the server runs on save (ADR 041), so the owner sees them before saving.
 */
export function ReviewPolicyCard({
  field,
  initial,
  problems,
}: {
  field: FieldMetadata<string | undefined>;
  initial: ReviewPolicy;
  problems: readonly string[];
}) {
  return (
    <Card>
      <fieldset aria-describedby={`${field.id}-rules`}>
        <legend className="font-semibold">Who is asked to review and follow you</legend>
        <p id={`${field.id}-rules`} className="mb-3 text-sm text-slate-600">
          {REVIEW_POLICY_RULES_SUMMARY}
        </p>
        <div className="space-y-3">
          {REVIEW_POLICIES.map((policy) => (
            <label key={policy} className="flex min-h-11 cursor-pointer gap-3 rounded-lg border border-slate-300 bg-white p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
              <input type="radio" name={field.name} value={policy} defaultChecked={initial === policy} className="mt-1 size-5 shrink-0" />
              <span>
                <span className="font-semibold">
                  {REVIEW_POLICY_LABELS[policy]}
                  {policy === 'ask_every' ? <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">Recommended</span> : null}
                </span>
                <span className="block text-sm text-slate-600">{REVIEW_POLICY_EXPLANATIONS[policy]}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id={field.errorId} errors={field.errors} />
        <FairnessProblems problems={problems} />
      </fieldset>
    </Card>
  );
}

/** The live tier-fairness problems (ADR 041) under the choice they belong to: the policy, or the tier points. */
export function FairnessProblems({ problems }: { problems: readonly string[] }) {
  if (!problems.length) return null;
  return (
    <ul className="mt-2 space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="fairness-problems">
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

/** Beside the review platforms: the chosen ones whose own policy bans rewards for reviews (Google, Yelp). */
export function IncentivePlatformWarning({ selected }: { selected: readonly string[] }) {
  const banned = incentiveBannedPlatforms(selected);
  if (!banned.length) return null;
  return (
    <div role="note" className="mt-3 space-y-1 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="platform-policy-warning">
      <p className="font-semibold">Check the platform's rules before rewarding reviews</p>
      {banned.map((p) => (
        <p key={p}>
          <strong>{PLATFORM_LABELS[p]}:</strong> {INCENTIVE_BANNED_PLATFORMS[p]}
        </p>
      ))}
    </div>
  );
}
