import { parseWithZod } from '@conform-to/zod/v4';
import type { SubmissionResult } from '@conform-to/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { builderFormSchema } from '../../../modules/surveys/forms.ts';
import { BUILDER_STEPS, stepOfElement, stepOfField, type StepControl, type StepId } from './steps.tsx';

/**
 * The builder's steps one at a time with JavaScript (ADR 093): the open step, a request to show one
 * and move focus into it, the step the address names, and the first step with a problem after a
 * refused save (the server's or the browser's own check).
 */
export function useStepFocus({ hydrated, lastResult, firstProblem }: { hydrated: boolean; lastResult: SubmissionResult<string[]> | null | undefined; firstProblem: StepId | null }) {
  const [active, setActive] = useState<StepId>(BUILDER_STEPS[0].id);
  const [focusRequest, setFocusRequest] = useState<{ id: StepId; focus: 'heading' | 'field' | 'hash'; n: number } | null>(null);
  const go = useCallback((id: StepId, focus: 'heading' | 'field' | 'hash' = 'heading') => {
    setActive(id);
    setFocusRequest((r) => ({ id, focus, n: (r?.n ?? 0) + 1 }));
  }, []);
  useEffect(() => {
    if (!focusRequest) return;
    const section = document.getElementById(focusRequest.id);
    if (!section) return;
    if (focusRequest.focus === 'hash') {
      // Opened at an anchor inside a step (a question's row after a post without JavaScript): that anchor in view.
      document.getElementById(window.location.hash.slice(1))?.scrollIntoView({ block: 'start' });
      return;
    }
    // The address names the step (replaced, not pushed: Back leaves the builder as before). Left to the
    // router, a hash change is taken for a navigation and the scroll goes back to the top.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}#${focusRequest.id}`);
    const heading = section.querySelector<HTMLElement>('h2[tabindex]');
    const toHeading = () => {
      // The step from its top (the navigation above it in sight when the page allows), its heading focused.
      const top = heading?.getBoundingClientRect().top ?? 0;
      if (top < 0 || top > window.innerHeight - 80) (navRef.current ?? section).scrollIntoView({ block: 'start' });
      heading?.focus({ preventScroll: true });
    };
    if (focusRequest.focus !== 'field') return toHeading();
    // Its first field marked invalid: a server's answer marks the fields a frame after it arrives.
    const invalid = () => section.querySelector<HTMLElement>('[aria-invalid="true"]:not([disabled])');
    const now = invalid();
    if (now) return now.focus();
    const frame = requestAnimationFrame(() => {
      const later = invalid();
      if (later) later.focus();
      else toHeading();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusRequest]);
  const navRef = useRef<HTMLDivElement>(null);
  // Hydrated: open the step the address names (a step, or an anchor inside one), else the first.
  useEffect(() => {
    if (!hydrated) return;
    const open = () => {
      const hash = decodeURIComponent(window.location.hash.slice(1));
      const id = hash ? stepOfElement(document.getElementById(hash)) : null;
      if (id) go(id, hash === id ? 'heading' : 'hash');
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [hydrated, go]);
  // A refused save answered by the server (with JavaScript): the first step with a problem, focus on
  // its first marked field (state adjusted while rendering the new answer, not in an effect).
  const [seenResult, setSeenResult] = useState(lastResult);
  if (lastResult !== seenResult) {
    setSeenResult(lastResult);
    if (hydrated && lastResult?.status === 'error' && firstProblem) go(firstProblem, 'field');
  }
  // A save the browser's own check stops (conform's, before any post): the first step with such an error.
  const openFirstError = (formElement: HTMLFormElement) => {
    const check = parseWithZod(new FormData(formElement), { schema: builderFormSchema });
    if (check.status !== 'error') return;
    const names = Object.entries(check.error ?? {})
      .filter(([name, messages]) => name && messages?.length)
      .map(([name]) => name);
    const step = BUILDER_STEPS.find((s) => names.some((n) => stepOfField(n) === s.id));
    if (step) go(step.id, 'field');
  };
  const control = useMemo<StepControl>(() => ({ active: hydrated ? active : null, go: hydrated ? go : null }), [hydrated, active, go]);
  return { active, go, navRef, openFirstError, control };
}
