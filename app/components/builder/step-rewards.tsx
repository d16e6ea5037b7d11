import { getInputProps } from '@conform-to/react';
import { formatCents } from '../../../modules/scoring/index.ts';
import { presetRewards, type RewardMode } from '../../../modules/surveys/forms.ts';
import { DEFAULT_TEMPLATE_ID, getTemplate, PRESET_IDS, type SurveyTemplate } from '../../../modules/surveys/index.ts';
import { Card, FieldError } from '../ui.tsx';
import type { BuilderFields } from './fields.ts';
import { TierPointsCard } from './parts.tsx';

const modeLabel = (mode: RewardMode) => (mode === 'custom' ? 'Custom' : getTemplate(DEFAULT_TEMPLATE_ID)!.preset_rewards[mode].label);

/** Step 2 of the builder, the rewards: a preset package or custom amounts, and the tiers' points with their fairness problems. */
export function RewardsStep({
  fields,
  template,
  rewardMode,
  initialMode,
  hydrated,
  tierProblems,
}: {
  fields: BuilderFields;
  template: SurveyTemplate;
  rewardMode: RewardMode;
  initialMode: RewardMode;
  hydrated: boolean;
  tierProblems: string[];
}) {
  return (
    <>
    <Card>
      <fieldset>
        <legend className="font-semibold">Reward package</legend>
        <p className="mb-3 text-sm text-slate-600">Gift card value for each tier. Customers earn a tier by the points they collect.</p>
        <div className="grid gap-3 sm:grid-cols-2">
          {[...PRESET_IDS, 'custom' as const].map((mode) => {
            const values = mode === 'custom' ? null : presetRewards(template.id, mode);
            const checked = rewardMode === mode;
            return (
              <label
                key={mode}
                className={`flex min-h-11 cursor-pointer gap-3 rounded-lg border p-3 ${checked ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600' : 'border-slate-300 bg-white'}`}
              >
                <input type="radio" name={fields.rewardMode.name} value={mode} defaultChecked={initialMode === mode} className="mt-1 size-5" />
                <span>
                  <span className="font-semibold">
                    {modeLabel(mode)}
                    {mode !== 'custom' && template.preset_rewards[mode].badge ? (
                      <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">{template.preset_rewards[mode].badge}</span>
                    ) : null}
                  </span>
                  <span className="block text-sm text-slate-600">
                    {values ? `Bronze ${formatCents(values.bronze)} · Silver ${formatCents(values.silver)} · Gold ${formatCents(values.gold)}` : 'Set your own whole-dollar amounts'}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
        <FieldError id={fields.rewardMode.errorId} errors={fields.rewardMode.errors} />
        {rewardMode === 'custom' || !hydrated ? (
          <div className="mt-3 grid gap-3 sm:grid-cols-3">
            {!hydrated ? <p className="text-sm text-slate-600 sm:col-span-3">Custom amounts (used when Custom is chosen):</p> : null}
            {(
              [
                [fields.customBronze, 'Bronze', 1],
                [fields.customSilver, 'Silver', 2],
                [fields.customGold, 'Gold', 3],
              ] as const
            ).map(([field, tier, min]) => (
              <div key={tier}>
                <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
                  {tier} ($, minimum {min})
                </label>
                <div className="relative">
                  <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-slate-500">$</span>
                  <input
                    {...getInputProps(field, { type: 'number' })}
                    min={min}
                    step={1}
                    inputMode="numeric"
                    className="block min-h-11 w-full rounded-lg border border-slate-300 pl-7 pr-3"
                  />
                </div>
                <FieldError id={field.errorId} errors={field.errors} />
              </div>
            ))}
          </div>
        ) : null}
      </fieldset>
    </Card>
    <TierPointsCard fields={[fields.tierBronze, fields.tierSilver, fields.tierGold]} problems={tierProblems} />
    </>
  );
}
