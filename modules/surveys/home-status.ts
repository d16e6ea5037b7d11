/**
 * A survey as the owner's home shows it (issue 27, "a home, not a brochure"; ADR 083): its status
 * in words and the one thing to do next. Built on the one availability rule (`surveyAvailability`,
 * `unavailableFixes`), so the home never says Live where management says Unavailable. Pure: runs
 * wherever it is called.
 */
import { surveyAvailability, unavailableFixes } from './availability.ts';

export type HomeStatusKey = 'draft' | 'not_live' | 'live' | 'paused' | 'archived';

export type HomeSurveyStatus = {
  key: HomeStatusKey;
  /** The status in words: "Draft", "Published, not live yet", "Live", "Paused", "Archived". */
  label: string;
  /** One short line after the label: what is missing, or this week's responses. */
  detail: string;
  /** The one thing to do next, or null when nothing needs doing. */
  next: { label: string; href: string } | null;
};

export type HomeSurveyFacts = { id: string; isPublished: boolean; isActive: boolean; isArchived: boolean; responsesThisWeek: number };

const count = new Intl.NumberFormat('en-US');

/** "1 response", "1,204 responses". */
export function responsesText(n: number): string {
  return `${count.format(n)} response${n === 1 ? '' : 's'}`;
}

export function homeSurveyStatus(survey: HomeSurveyFacts, readiness: { hasPlan: boolean; posConnected: boolean }): HomeSurveyStatus {
  if (survey.isArchived) {
    return { key: 'archived', label: 'Archived', detail: 'Customers cannot open it; its responses are kept.', next: { label: 'Restore in Surveys', href: '/survey-management' } };
  }
  const availability = surveyAvailability({ ...readiness, isActive: survey.isActive, isPublished: survey.isPublished });
  switch (availability) {
    case 'Draft':
      return { key: 'draft', label: 'Draft', detail: 'Finish the questions, then publish it.', next: { label: 'Finish the questions', href: `/survey-builder?surveyId=${survey.id}` } };
    case 'Inactive':
      return { key: 'paused', label: 'Paused', detail: 'Switched off: customers cannot open it.', next: { label: 'Switch on in Surveys', href: '/survey-management' } };
    case 'Unavailable': {
      const fix = unavailableFixes({ ...readiness, isActive: survey.isActive, isPublished: survey.isPublished })[0]!;
      return { key: 'not_live', label: 'Published, not live yet', detail: fix.reason, next: { label: fix.label, href: fix.href } };
    }
    case 'Available': {
      const n = survey.responsesThisWeek;
      return {
        key: 'live',
        label: 'Live',
        detail: `${responsesText(n)} this week`,
        next: n === 0 ? { label: 'Share the link', href: `/survey-published/${survey.id}` } : { label: 'See responses', href: `/survey-analytics/${survey.id}` },
      };
    }
  }
}
