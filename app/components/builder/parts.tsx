import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { useMemo, type ReactNode } from 'react';
import { maxPoints, questionCounts } from '../../../modules/scoring/index.ts';
import { effectiveTemplate, type CustomQuestion, type TierCheck, PLATFORM_LABELS, sectionBranches, type Platform, type ReviewPolicy } from '../../../modules/surveys/index.ts';
import { FairnessProblems } from '../review-policy.tsx';
import { Card, FieldError, useHydrated } from '../ui.tsx';
import { TierStates } from './tier-states.tsx';

/** The builder's smaller parts: the platform rows, the tier points card, the question panel (split from the route, issue 28 item 4). */

export type Field = FieldMetadata<string | undefined>;

/** One checkbox per platform with its link or handle beside it (disabled while unticked, with JavaScript). */
export function PlatformRows(props: {
  legend: string;
  help: string;
  platforms: readonly Platform[];
  selection: FieldMetadata<unknown>;
  selected: string[];
  initiallySelected: string[];
  links: Partial<Record<string, Field>>;
  linkLabel: string;
  placeholder: (platformLabel: string) => string;
  inputMode: 'url' | 'text';
  notice?: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">{props.legend}</legend>
        <p className="mb-3 text-sm text-slate-600">{props.help}</p>
        <FieldError id={props.selection.errorId} errors={props.selection.errors} />
        <div className="space-y-3">
          {props.platforms.map((p) => {
            const link = props.links[p]!;
            return (
              <div key={p} className="grid gap-2 sm:grid-cols-[10rem_1fr] sm:items-start">
                <label className="flex min-h-11 items-center gap-2 font-medium">
                  <input type="checkbox" name={props.selection.name} value={p} defaultChecked={props.initiallySelected.includes(p)} className="size-5" />
                  {PLATFORM_LABELS[p]}
                </label>
                <div>
                  <label htmlFor={link.id} className="sr-only">
                    {PLATFORM_LABELS[p]} {props.linkLabel}
                  </label>
                  <input
                    {...getInputProps(link, { type: 'text' })}
                    inputMode={props.inputMode}
                    placeholder={props.placeholder(PLATFORM_LABELS[p])}
                    disabled={hydrated && !props.selected.includes(p)}
                    className="block min-h-11 w-full rounded-lg border border-slate-300 px-3 disabled:bg-slate-100"
                  />
                  <FieldError id={link.errorId} errors={link.errors} />
                </div>
              </div>
            );
          })}
        </div>
        {props.notice}
      </fieldset>
    </Card>
  );
}

/**
 * The points a customer needs for each tier (ADR 041): the template's unless the owner changes them.
 * Gold should need a review, follow or post; the save check and the side panel say when it does not.
 */
export function TierPointsCard({
  fields,
  problems,
}: {
  fields: readonly [FieldMetadata<string | undefined>, FieldMetadata<string | undefined>, FieldMetadata<string | undefined>];
  /** The live fairness check's problems with the tier points (the same messages the save gives). */
  problems: readonly string[];
}) {
  return (
    <Card>
      <fieldset>
        <legend className="font-semibold">Points for each tier</legend>
        <p className="mb-3 text-sm text-slate-600">
          Customers earn a tier by the points they collect. Gold should need a review, a follow or a post: if you add questions, you may need to raise it.
        </p>
        <div className="grid gap-3 sm:grid-cols-3">
          {fields.map((field, i) => (
            <div key={field.name}>
              <label htmlFor={field.id} className="mb-1 block text-sm font-medium">
                {['Bronze', 'Silver', 'Gold'][i]} (points)
              </label>
              <input {...getInputProps(field, { type: 'number' })} min={0} max={1000} step={1} inputMode="numeric" className="block min-h-11 w-full rounded-lg border border-slate-300 px-3" />
              <FieldError id={field.errorId} errors={field.errors} />
            </div>
          ))}
        </div>
        <FairnessProblems problems={problems} />
      </fieldset>
    </Card>
  );
}

export function toArray(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' && v ? [v] : [];
}

/** A required field's mark beside its label (issue 27 item 6): a word, not a colour or an asterisk alone. */
export function RequiredMark() {
  return <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-semibold text-slate-700">Required</span>;
}

/** Side panel: the questions the survey will ask, by section, its stats (spec: Survey Stats) and the tiers it can reach. */
export function QuestionPanel({
  templateId,
  questions,
  review,
  social,
  policy,
  report,
}: {
  templateId: string;
  questions: CustomQuestion[];
  review: string[];
  social: string[];
  policy: ReviewPolicy;
  /** The save's own tier check (`tierCheck`): the tiers' states here and the warnings beside the fields never disagree. */
  report: TierCheck;
}) {
  const selection = useMemo(() => ({ selectedReviewPlatforms: review, selectedSocialPlatforms: social, reviewPolicy: policy }), [review, social, policy]);
  const template = effectiveTemplate({ surveyTemplateId: templateId, customQuestions: questions });
  const counts = questionCounts(template, selection);
  const max = maxPoints(template, selection);
  const removed = questions.filter((q) => q.removed).length;
  return (
    // Sticky on a desktop (issue 27): the stats and tiers stay in sight; the question list scrolls inside the aside.
    // tabIndex: a region that scrolls is reachable with the keyboard (axe: scrollable-region-focusable).
    <aside tabIndex={0} className="min-w-0 space-y-4 lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto" aria-label="Survey summary">
      <Card>
        <h2 className="font-semibold">Survey Stats</h2>
        <p className="mt-1 text-sm text-slate-600">Points and tiers as the save will check them.</p>
        <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Total Questions</dt>
            <dd className="text-2xl font-bold" data-testid="total-questions">{counts.total}</dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Max Points</dt>
            <dd className="text-2xl font-bold" data-testid="max-points">{max}</dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-2">
            <dt className="text-xs text-slate-600">Removed Questions</dt>
            <dd className="text-2xl font-bold" data-testid="removed-questions">{removed}</dd>
          </div>
        </dl>
        <h3 className="mt-4 text-sm font-semibold text-slate-700">Reachable tiers</h3>
        {/* The save's own check (one list with step 5 and the phone's bar): never "Reachable" beside a warning. */}
        <div className="mt-1">
          <TierStates check={report} primary />
        </div>
      </Card>
      <Card>
        <h2 className="font-semibold">Questions</h2>
        <div className="mt-3 space-y-4">
          {template.sections.map((section) => {
            const branches = sectionBranches(section, selection);
            return (
              <section key={section.id}>
                <h3 className="text-sm font-semibold text-slate-700">{section.title}</h3>
                {branches.map((qs, i) => (
                  <div key={i}>
                    {section.conditional ? (
                      <p className="mt-1 text-xs font-medium text-slate-500">
                        {branches.length === 1 ? 'Every customer, whatever the rating' : i === 0 ? 'Rated 4 or 5 stars' : 'Rated 3 stars or less'}
                      </p>
                    ) : null}
                    <ul className="mt-1 space-y-1">
                      {qs.map((q) => (
                        <li key={q.id} className="flex items-center justify-between gap-2 text-sm">
                          <span className="min-w-0 flex-1 truncate" title={q.text}>
                            {q.text}
                          </span>
                          <span className="shrink-0 rounded bg-brand-50 px-1.5 text-xs font-semibold text-brand-700">+{q.points}</span>
                        </li>
                      ))}
                      {qs.length === 0 ? <li className="text-xs text-slate-500">{section.conditional ? 'Select platforms to add these questions.' : 'No questions in this section.'}</li> : null}
                    </ul>
                  </div>
                ))}
              </section>
            );
          })}
        </div>
      </Card>
    </aside>
  );
}
