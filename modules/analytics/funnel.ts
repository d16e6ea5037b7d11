/**
 * The survey funnel's steps (ADR 026). Pure: the customer page's script, its form posts and the
 * beacon endpoint share it.
 *
 * page views -> started -> section 2 reached -> … -> submitted -> rewarded -> redeemed. The first
 * three kinds are counted first-party and anonymously (`survey_funnel_counts`); the last three are
 * the responses, the gift cards and the Square redemptions already stored.
 */

export type FunnelEvent = { step: 'start' } | { step: 'section'; section: number };

/** The stored step name: `view`, `start`, `section:{n}` (n is 1-based: the customer reached section n). */
export const stepName = (event: FunnelEvent | { step: 'view' }): string => (event.step === 'section' ? `section:${event.section}` : event.step);

/** The most sections a survey can have (the template has 3): anything above is refused. */
export const MAX_SECTIONS = 20;

/** The beacon's URL for a survey (POST, JSON `{step: 'start'}` or `{step: 'section', section: n}`). */
export const progressUrl = (businessId: string, surveyId: string) => `/api/survey/progress/${businessId}/${surveyId}`;

/** Reads a beacon body; null when it is not one of the two shapes (the endpoint answers 400). */
export function parseFunnelEvent(body: Record<string, unknown>, sections: number): FunnelEvent | null {
  if (body.step === 'start') return { step: 'start' };
  if (body.step === 'section' && typeof body.section === 'number' && Number.isInteger(body.section) && body.section >= 2 && body.section <= Math.min(sections, MAX_SECTIONS)) {
    return { step: 'section', section: body.section };
  }
  return null;
}

/**
 * The form posts of the survey without JavaScript carry `_progress`: the furthest section (1-based)
 * this visit reached, 0 before the first post. From it and the section the post leads to, the events
 * to count: `start` on the first post, `section:{n}` when a section is reached for the first time.
 * Returns the events and the new `_progress`.
 */
export function formPostEvents(previous: number, reachedSection: number): { events: FunnelEvent[]; progress: number } {
  const events: FunnelEvent[] = [];
  if (previous < 1) events.push({ step: 'start' });
  const before = Math.max(previous, 1);
  for (let n = before + 1; n <= Math.min(reachedSection, MAX_SECTIONS); n++) events.push({ step: 'section', section: n });
  return { events, progress: Math.max(before, Math.min(reachedSection, MAX_SECTIONS)) };
}
