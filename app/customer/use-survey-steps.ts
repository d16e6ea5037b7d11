/**
 * The steps of the survey page in the browser: the state the server rendered (`SurveyStep`: section,
 * answers, verification states, errors, toast, result) kept in React state, the sections the
 * overall rating shows, and moving between them: Continue and Back without a request, the section
 * heading focused, the funnel beacon for a section reached for the first time and for the first
 * answer (ADR 026, live surveys only), and a refused submit taken to the problem's section.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { progressUrl, formPostEvents, type FunnelEvent } from '../../modules/analytics/index.ts';
import { sectionOfProblem, type CustomerSurveyView, type Problem } from '../../modules/responses/index.ts';
import { answerKey, overallRatingOf, PART3_ID, visibleSections, type Question, type SurveyTemplate } from '../../modules/surveys/index.ts';
import type { ToastData } from '../components/toast.tsx';
import { withAnswer, type SurveyStep } from './state.ts';

/** The answers not shown as controls on this section travel as hidden fields, so a post without JavaScript keeps them. */
export function hiddenAnswers(answers: SurveyStep['answers'], questions: readonly Question[], isPart3: boolean): Array<[string, string | number]> {
  const shown = new Set<string>();
  for (const q of questions) {
    shown.add(q.id);
    for (const f of q.fields ?? []) shown.add(answerKey(q.id, f.id));
  }
  if (isPart3) ['customerEmail', 'customerName', 'customer_email', 'customer_name'].forEach((k) => shown.add(k));
  return Object.entries(answers).filter(([k]) => !shown.has(k));
}

type Focusable = { focus(options?: { preventScroll?: boolean }): void; scrollIntoView(options?: { block?: 'center' | 'start'; behavior?: 'smooth' | 'auto' }): void; checked?: boolean };

/**
 * Takes the customer to a refused field: its input (an id equal to the answer key), or the checked
 * (else the first) control of its radio group (the rating buttons), scrolled to the middle of the
 * screen, clear of a toast, and focused. False when the page has no such field.
 */
export function focusProblemField(doc: { getElementById(id: string): unknown; querySelectorAll(selector: string): ArrayLike<unknown> }, field: string): boolean {
  if (!/^[A-Za-z0-9_:.-]{1,120}$/.test(field)) return false;
  const byId = doc.getElementById(field) as Focusable | null;
  const group = Array.from(doc.querySelectorAll(`[name="${field}"]`) as ArrayLike<Focusable>);
  const el = byId ?? group.find((x) => x.checked) ?? group[0];
  if (!el) return false;
  el.scrollIntoView({ block: 'center', behavior: 'smooth' });
  el.focus({ preventScroll: true });
  return true;
}

export function useSurveySteps(view: CustomerSurveyView, template: SurveyTemplate, initial: SurveyStep) {
  const [step, setStep] = useState<SurveyStep>(initial);
  // The latest state, for timers and the verification queue (they outlive the render that started them).
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  }, [step]);
  const headingRef: RefObject<HTMLHeadingElement> = useRef<HTMLHeadingElement>(null);

  const rating = overallRatingOf(template, step.answers);
  const sections = visibleSections(template, view, rating);
  const total = sections.length;
  const index = Math.min(step.section, total - 1);
  const current = sections[index]!;

  // The funnel (ADR 026): a first-party beacon to our own server, anonymous counts only, live surveys only.
  const funnel = useRef({ started: (step.progress ?? 0) > 0, reached: Math.max(1, step.progress ?? 1) });
  const beacon = (event: FunnelEvent) => {
    if (view.mode !== 'live') return;
    fetch(progressUrl(view.businessId, view.surveyId), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(event), keepalive: true }).catch(() => {});
  };

  const toast = (t: ToastData | null) => setStep((s) => ({ ...s, toast: t }));

  const goTo = (section: number) => {
    const reached = formPostEvents(funnel.current.reached, section + 1);
    reached.events.forEach(beacon);
    funnel.current.reached = reached.progress;
    setStep((s) => ({ ...s, section, errors: {} }));
    window.scrollTo({ top: 0 });
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  /**
   * A check said no: its toast, its inline error, and the section it belongs to; then the field
   * itself is scrolled to the middle of the screen and focused (issue 27 item 8: a skipped required
   * rating used to leave focus and scroll where they were), else the section heading.
   */
  const refuse = (problem: Problem) => {
    const target = Math.min(total - 1, sectionOfProblem(template, problem, index));
    setStep((s) => ({ ...s, section: target, toast: { title: problem.title, description: problem.message, type: 'error' }, errors: problem.field ? { [problem.field]: problem.message } : {} }));
    // Two frames: the section the problem belongs to is rendered first.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (problem.field && focusProblemField(document, problem.field)) return;
        if (target !== index) window.scrollTo({ top: 0 });
        headingRef.current?.focus();
      }),
    );
  };

  /** The customer changed an answer ('' clears it); the first change of the visit counts as started. */
  const answer = (key: string, value: string | number) => {
    if (!funnel.current.started) {
      funnel.current.started = true;
      beacon({ step: 'start' });
    }
    setStep((s) => withAnswer(s, key, value));
  };

  return {
    step,
    setStep,
    stepRef,
    headingRef,
    rating,
    total,
    index,
    current,
    isLast: index === total - 1,
    isPart3: current.id === PART3_ID,
    toast,
    goTo,
    refuse,
    answer,
  };
}
