import type { TierCheck, TierLine } from '../../../modules/surveys/index.ts';

/** How each tier state reads: a word and a colour (never the colour alone). */
export const TIER_STATE: Record<TierLine['state'], { label: string; className: string }> = {
  reachable: { label: 'Reachable', className: 'text-emerald-700' },
  needs_fix: { label: 'Needs a fix', className: 'text-amber-800' },
  out_of_reach: { label: 'Out of reach', className: 'text-red-700' },
};

/**
 * The tiers with their states and the problems that stop the save (issue 27, ADR 093): the one list
 * the side panel's Survey Stats, step 5 and the phone's summary bar show. It is fed by the save's own
 * check (`tierCheck`, modules/surveys/save-rules.ts), so a tier is never "Reachable" here while the
 * save refuses it. `primary`: the side panel's copy, which carries the test ids and announces changes
 * (the other copies stay quiet, so a screen reader hears a change once).
 */
export function TierStates({ check, primary = false }: { check: TierCheck; primary?: boolean }) {
  return (
    <div className="space-y-3">
      <ul className="space-y-1 text-sm" data-testid={primary ? 'reachable-tiers' : undefined}>
        {check.tiers.map((t) => (
          <li key={t.tier} className="flex justify-between gap-2">
            <span>
              {t.tier} <span className="text-slate-600">({t.minPoints}+ points)</span>
            </span>
            <span className={`font-semibold ${TIER_STATE[t.state].className}`}>{TIER_STATE[t.state].label}</span>
          </li>
        ))}
      </ul>
      <div aria-live={primary ? 'polite' : undefined}>
        {check.problems.length ? (
          <div className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" data-testid={primary ? 'tiers-need-fix' : undefined}>
            <p className="font-semibold">The survey cannot be saved until this is fixed:</p>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {check.problems.map((p) => (
                <li key={p.message}>{p.message}</li>
              ))}
            </ul>
          </div>
        ) : (
          <p className="text-sm text-emerald-800">The tiers are fair: nothing stops the save.</p>
        )}
      </div>
    </div>
  );
}
