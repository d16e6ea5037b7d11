/**
 * The email eligibility check of the survey page (spec 4): a live survey asks the server whether
 * this email may get a reward now (the repeat window) when the email field loses focus with an '@'
 * in it, and again on submit unless that email is already known to be eligible. Previews and the
 * demo answer "eligible" without asking. Editing the email forgets the answer.
 */
import { useState } from 'react';
import type { CustomerSurveyView } from '../../modules/responses/index.ts';

/** `daysRemaining`: the repeat window's days left, when the server refused the email for it (the page words it in the customer's language). */
export type Eligibility = { checking: boolean; eligible: boolean | null; message: string | null; email: string | null; daysRemaining?: number };

export const UNCHECKED: Eligibility = { checking: false, eligible: null, message: null, email: null };

/** What the page says when the check itself failed (network, 5xx). */
export const ELIGIBILITY_ERROR = 'Error checking email eligibility. Please try again.';

/** The check already known for this email, when it said eligible; null means ask again. */
export const knownEligible = (state: Eligibility, email: string): Eligibility | null => (state.email === email && state.eligible === true ? state : null);

/** The state after the server's answer (`{eligible, message}`), or after a failed request (`null`). */
export function eligibilityFrom(body: { eligible: boolean; message?: string | null; daysRemaining?: number } | null, email: string): Eligibility {
  if (!body) return { checking: false, eligible: false, message: ELIGIBILITY_ERROR, email };
  const days = !body.eligible && typeof body.daysRemaining === 'number' && body.daysRemaining > 0 ? { daysRemaining: body.daysRemaining } : {};
  return { checking: false, eligible: body.eligible, message: body.message ?? null, email, ...days };
}

export function useEligibility(view: CustomerSurveyView) {
  const [state, setState] = useState<Eligibility>(UNCHECKED);

  async function check(email: string): Promise<Eligibility> {
    if (view.mode !== 'live') {
      const ok = { checking: false, eligible: true, message: null, email };
      setState(ok);
      return ok;
    }
    setState({ checking: true, eligible: null, message: null, email });
    let result: Eligibility;
    try {
      const res = await fetch(`/api/survey/check-email-eligibility/${view.businessId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, surveyId: view.surveyId, bypassSquare: view.bypassSquare }),
      });
      if (!res.ok) throw new Error(String(res.status));
      result = eligibilityFrom((await res.json()) as { eligible: boolean; message?: string | null; daysRemaining?: number }, email);
    } catch {
      result = eligibilityFrom(null, email);
    }
    setState(result);
    return result;
  }

  return {
    state,
    check,
    /** On submit: the answer already known for this email, or a fresh check. */
    ensure: (email: string): Promise<Eligibility> => Promise.resolve(knownEligible(state, email) ?? check(email)),
    reset: () => setState(UNCHECKED),
  };
}
