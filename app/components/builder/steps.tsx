import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';
import { formatCents } from '../../../modules/scoring/index.ts';
import type { SaveField, TierCheck } from '../../../modules/surveys/index.ts';
import { buttonClass, Card } from '../ui.tsx';
import { TierStates } from './tier-states.tsx';

/**
 * The builder as five steps (issue 27, ADR 089, ADR 093): one form, every step a section of it in
 * order, so nothing typed is lost between steps. Without JavaScript every step is shown, one long
 * page, and the step navigation is anchor links. With JavaScript one step is shown at a time (the
 * others are `hidden`, their fields mounted and posted with the form); the same links switch steps.
 * Each step says whether it is done or has a problem, from the same errors and the same tier check
 * the save refuses on.
 */

export const BUILDER_STEPS = [
  { id: 'step-basics', label: 'Basics' },
  { id: 'step-rewards', label: 'Rewards' },
  { id: 'step-questions', label: 'Questions' },
  { id: 'step-platforms', label: 'Where to review and follow' },
  { id: 'step-review', label: 'Review and publish' },
] as const;
export type StepId = (typeof BUILDER_STEPS)[number]['id'];
export type StepState = 'done' | 'problem' | 'todo';
/**
 * A step's state: an error from the form's check or a refused save is a problem; else a step whose
 * requirement is not met yet is still to do (a new survey's live tier problems do not mark it);
 * else any live tier problem marks it; else it is done.
 */
export function stepState(p: StepProblems, requirementMet: boolean): StepState {
  if (p.fromErrors) return 'problem';
  if (!requirementMet) return 'todo';
  return p.all.length ? 'problem' : 'done';
}

export const STEP_STATE_LABEL: Record<StepState, string> = { done: 'Done', problem: 'Needs a fix', todo: 'To do' };

/** Which step a form field (a conform name, `reviewUrls.google` included) or a fairness problem belongs to. */
export function stepOfField(name: string): StepId {
  const root = name.split('.')[0]!.split('[')[0]!;
  if (['rewardMode', 'customBronze', 'customSilver', 'customGold', 'tierBronze', 'tierSilver', 'tierGold'].includes(root)) return 'step-rewards';
  // The translations of the survey's words (ADR 090) sit under the questions they translate.
  if (root === 'customQuestions' || root === 'translations') return 'step-questions';
  if (['selectedReviewPlatforms', 'reviewUrls', 'selectedSocialPlatforms', 'socialHandles', 'reviewPolicy'].includes(root)) return 'step-platforms';
  return 'step-basics';
}

const FAIRNESS_STEP: Record<SaveField, StepId> = {
  hostedVision: 'step-basics',
  translations: 'step-questions',
  bronzeRewardValue: 'step-rewards',
  silverRewardValue: 'step-rewards',
  goldRewardValue: 'step-rewards',
  tierThresholds: 'step-rewards',
  customQuestions: 'step-questions',
  reviewPolicy: 'step-platforms',
};

/** A step's problems: every message (its state), and those shown nowhere else on the page (its box lists them). */
export type StepProblems = { all: string[]; unshown: string[]; fromErrors: number };

/**
 * Each step's problems from the form's errors (the browser's check, or the server's reply to a
 * refused post: shown under their fields) and the live tier report (the tier points' and the
 * policy's problems are shown under those fields; the others only in the step's box and the
 * summary). Gold out of reach belongs to Questions, or to Where to review and follow while no
 * review platform is chosen (choosing one is what a new survey lacks).
 */
export function stepProblems(errors: Record<string, string[] | undefined> | undefined, report: TierCheck, reviewChosen: boolean): Record<StepId, StepProblems> {
  const out = Object.fromEntries(BUILDER_STEPS.map((s) => [s.id, { all: [] as string[], unshown: [] as string[], fromErrors: 0 }])) as Record<StepId, StepProblems>;
  const add = (step: StepId, message: string, shown: boolean) => {
    const p = out[step];
    if (!p.all.includes(message)) p.all.push(message);
    if (!shown && !p.unshown.includes(message)) p.unshown.push(message);
  };
  const atFields = new Set<string>();
  for (const [name, messages] of Object.entries(errors ?? {})) {
    // The form's own errors (name '') belong to no one step: they are shown above the steps.
    if (!name || !messages?.length) continue;
    for (const m of messages) {
      atFields.add(m);
      add(stepOfField(name), m, true);
      out[stepOfField(name)].fromErrors += 1;
    }
  }
  for (const p of report.problems) {
    const step = p.field === 'customQuestions' && !reviewChosen ? 'step-platforms' : FAIRNESS_STEP[p.field];
    add(step, p.message, atFields.has(p.message) || p.field === 'tierThresholds' || p.field === 'reviewPolicy');
  }
  return out;
}

/**
 * Which step is open, and how to open one. `active` null: every step is shown (without JavaScript,
 * and before the page is hydrated). `go(id, focus)`: shows the step, names it in the address and
 * moves focus to its heading, or to its first field marked invalid (`focus: 'field'`).
 */
export type StepControl = { active: StepId | null; go: ((id: StepId, focus?: 'heading' | 'field') => void) | null };
export const StepContext = createContext<StepControl>({ active: null, go: null });

/** The step holding an element (an anchor like `#q-…` after a question step, or a step's own id). */
export function stepOfElement(el: Element | null): StepId | null {
  const section = el?.closest('section[data-step]');
  return (section?.id as StepId | undefined) ?? null;
}

/** A link to a step: a plain anchor without JavaScript; with it, it opens the step (no navigation, nothing posted). */
export function StepLink({
  to,
  focus = 'heading',
  className,
  children,
  ...rest
}: {
  to: StepId;
  focus?: 'heading' | 'field';
  className?: string;
  children: ReactNode;
  'aria-current'?: 'step';
  'data-state'?: string;
}) {
  const { go } = useContext(StepContext);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!go || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    go(to, focus);
  };
  return (
    <a href={`#${to}`} onClick={onClick} className={className} {...rest}>
      {children}
    </a>
  );
}

/** The step navigation: an ordered list of anchor links with each step's state in words. */
export function StepNav({ states }: { states: Record<StepId, StepState> }) {
  const { active: current } = useContext(StepContext);
  return (
    <nav aria-label="Builder steps" className="rounded-card border border-slate-200 bg-white p-2 shadow-sm">
      <ol className="flex flex-wrap gap-1">
        {BUILDER_STEPS.map((step, i) => {
          const state = step.id === 'step-review' ? null : states[step.id];
          const here = current === step.id;
          return (
            <li key={step.id} className="min-w-0">
              <StepLink
                to={step.id}
                aria-current={here ? 'step' : undefined}
                data-state={state ?? 'last'}
                className={`flex min-h-11 items-center gap-2 rounded-lg px-3 py-1 text-sm ${here ? 'bg-brand-50 font-semibold text-brand-800' : 'text-slate-800 hover:bg-slate-50'}`}
              >
                <span
                  aria-hidden="true"
                  className={`inline-flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${
                    state === 'problem' ? 'bg-amber-100 text-amber-900' : state === 'done' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700'
                  }`}
                >
                  {state === 'problem' ? '!' : state === 'done' ? '✓' : i + 1}
                </span>
                <span>
                  <span className="sr-only">Step {i + 1}: </span>
                  {step.label}
                  {state ? <span className={`ml-1 text-xs ${state === 'problem' ? 'font-semibold text-amber-900' : 'text-slate-600'}`}>({STEP_STATE_LABEL[state]})</span> : null}
                </span>
              </StepLink>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * One step: its heading, what is wrong in it (in words), its fields, and Back/Next to the steps
 * around it. With JavaScript only the open step is shown (`hidden`, not unmounted: its fields still
 * post). `landHere`: a refused save answered without JavaScript opens here, the heading autofocused
 * (the browser scrolls to it and puts focus on it as the page loads, ADR 093).
 */
export function BuilderStep({ index, problems, landHere, children }: { index: number; problems: StepProblems; landHere: boolean; children: ReactNode }) {
  const { active } = useContext(StepContext);
  const step = BUILDER_STEPS[index]!;
  const prev = BUILDER_STEPS[index - 1];
  const next = BUILDER_STEPS[index + 1];
  return (
    <section id={step.id} data-step aria-labelledby={`${step.id}-title`} hidden={active !== null && active !== step.id} className="scroll-mt-4 space-y-4" data-testid={step.id}>
      <div className="flex items-baseline justify-between gap-3 border-b border-slate-200 pb-2">
        {/* On a phone the "Save Failed" toast sits at the top of the screen: the heading lands below it. */}
        <h2 id={`${step.id}-title`} tabIndex={-1} autoFocus={landHere} className="scroll-mt-44 scroll-mb-[calc(100vh-13rem)] text-lg font-semibold lg:scroll-mt-4 lg:scroll-mb-[calc(100vh-3rem)]">
          <span className="mr-2 text-slate-600">
            {index + 1}/{BUILDER_STEPS.length}
          </span>
          {step.label}
        </h2>
      </div>
      {problems.all.length ? (
        <div className="rounded-card border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="step-problems">
          <p className="font-semibold">
            {problems.unshown.length ? 'This step needs a fix before the survey can be saved:' : 'This step needs a fix before the survey can be saved: see the messages below.'}
          </p>
          {problems.unshown.length ? (
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {problems.unshown.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {children}
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4">
        {prev ? (
          <StepLink to={prev.id} className={buttonClass.secondary}>
            <span aria-hidden="true">←</span> Back: {prev.label}
          </StepLink>
        ) : (
          <span />
        )}
        {next ? (
          <StepLink to={next.id} className={`ml-auto ${active ? buttonClass.primary : buttonClass.secondary}`}>
            Next: {next.label} <span aria-hidden="true">→</span>
          </StepLink>
        ) : null}
      </div>
    </section>
  );
}

/** The points and tiers at a glance (issue 27): the most points, each tier's threshold and state, the problems in words. */
export function PointsSummary({ report, compact = false }: { report: TierCheck; compact?: boolean }) {
  const most = report.tiers[0]?.maxPoints ?? 0;
  return (
    <div className={compact ? 'space-y-2' : 'space-y-3'}>
      <p className="text-sm">
        <span className="font-semibold">{most} points</span> available to a customer who answers everything and shares.
      </p>
      <TierStates check={report} />
    </div>
  );
}

/** On a phone: the summary as a bar fixed at the bottom of the screen that opens (a plain <details>, no JavaScript needed). */
export function SummaryBar({ report }: { report: TierCheck }) {
  const most = report.tiers[0]?.maxPoints ?? 0;
  const fix = report.tiers.filter((t) => t.state !== 'reachable').length;
  return (
    <div className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white shadow-[0_-2px_8px_rgba(15,23,42,0.08)] lg:hidden" data-testid="summary-bar">
      <details className="group mx-auto max-w-6xl px-4">
        <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 py-2 text-sm [&::-webkit-details-marker]:hidden">
          <span>
            <span className="font-semibold">{most} points</span>
            {' · '}
            {report.tiers.map((t, i) => (
              <span key={t.tier}>
                {i ? ', ' : ''}
                {t.tier} {t.minPoints}+
              </span>
            ))}
          </span>
          <span className={`shrink-0 font-semibold ${report.problems.length ? 'text-amber-900' : 'text-emerald-800'}`}>
            {report.problems.length ? `${fix || report.problems.length} to fix` : 'All fair'}{' '}
            <span aria-hidden="true" className="inline-block transition group-open:rotate-180">
              ▴
            </span>
          </span>
        </summary>
        <div className="max-h-[50vh] overflow-y-auto pb-3">
          <PointsSummary report={report} compact />
        </div>
      </details>
    </div>
  );
}

/** Step 5's account of the survey in words: what customers will see and what it gives. */
export function SurveyInWords(props: {
  title: string;
  rewards: { bronze: number; silver: number; gold: number } | null;
  questions: number;
  review: string[];
  social: string[];
  languages: string[];
  frequencyDays: string;
}) {
  const list = (xs: string[], none: string) => (xs.length ? xs.join(', ') : none);
  return (
    <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]" data-testid="survey-in-words">
      <dt className="font-semibold text-slate-700">Title</dt>
      <dd>{props.title.trim() || <span className="text-amber-900">No title yet (Basics)</span>}</dd>
      <dt className="font-semibold text-slate-700">Rewards</dt>
      <dd>
        {props.rewards ? (
          `Bronze ${formatCents(props.rewards.bronze)} · Silver ${formatCents(props.rewards.silver)} · Gold ${formatCents(props.rewards.gold)}`
        ) : (
          <span className="text-amber-900">Custom amounts not complete (Rewards)</span>
        )}
      </dd>
      <dt className="font-semibold text-slate-700">Questions</dt>
      <dd>{props.questions} questions a customer can be asked</dd>
      <dt className="font-semibold text-slate-700">Review platforms</dt>
      <dd>{list(props.review, 'None yet (Where to review and follow)')}</dd>
      <dt className="font-semibold text-slate-700">Social platforms</dt>
      <dd>{list(props.social, 'None')}</dd>
      <dt className="font-semibold text-slate-700">Languages</dt>
      <dd>{list(props.languages, 'English')}</dd>
      <dt className="font-semibold text-slate-700">How often</dt>
      <dd>Once every {props.frequencyDays} days per email address</dd>
    </dl>
  );
}

/** A refused save's box above the steps: the steps that need a fix, each a link with its number of problems (the messages are beside their fields). */
export function NotSaved({ steps }: { steps: Array<{ id: StepId; label: string; count: number }> }) {
  return (
    <div role="alert" className="rounded-card border border-red-300 bg-red-50 p-4 text-red-900" data-testid="not-saved">
      <p className="font-semibold">The survey was not saved. Fix the steps marked “Needs a fix”; each says what is wrong:</p>
      <ul className="mt-1 list-disc pl-5">
        {steps.map((s) => (
          <li key={s.id}>
            <StepLink to={s.id} focus="field" className="font-semibold underline">
              {s.label}
            </StepLink>{' '}
            ({s.count === 1 ? '1 problem' : `${s.count} problems`})
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Step 5's cards: the survey in words, then its points and tiers. `asLoaded`: without JavaScript the words are the page's as served. */
export function ReviewCards({ words, report, asLoaded }: { words: Parameters<typeof SurveyInWords>[0]; report: TierCheck; asLoaded: boolean }) {
  return (
    <>
      <Card>
        <h3 className="mb-3 font-semibold">Your survey in words</h3>
        {asLoaded ? <p className="mb-3 text-sm text-slate-600">As the page was last loaded: saving checks what you have typed since.</p> : null}
        <SurveyInWords {...words} />
      </Card>
      <Card>
        <h3 className="font-semibold">Points and tiers</h3>
        <div className="mt-2">
          <PointsSummary report={report} />
        </div>
      </Card>
    </>
  );
}
