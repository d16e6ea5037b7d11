import { describe, expect, it } from 'vitest';
import { homeSurveyStatus, responsesText } from './index.ts';

const survey = { id: 'abc', isPublished: true, isActive: true, isArchived: false, responsesThisWeek: 0 };
const ready = { hasPlan: true, posConnected: true };

describe('homeSurveyStatus: the status in words and the one next step (ADR 083)', () => {
  it('follows the one availability rule', () => {
    expect(homeSurveyStatus({ ...survey, isPublished: false }, ready)).toMatchObject({ label: 'Draft', next: { href: '/survey-builder?surveyId=abc' } });
    expect(homeSurveyStatus({ ...survey, isActive: false }, ready)).toMatchObject({ label: 'Paused' });
    expect(homeSurveyStatus({ ...survey, isArchived: true }, ready)).toMatchObject({ label: 'Archived' });
    expect(homeSurveyStatus(survey, { hasPlan: true, posConnected: false })).toMatchObject({ label: 'Published, not live yet', next: { label: 'Connect Square' } });
    // No plan and no Square: the plan is the first fix.
    expect(homeSurveyStatus(survey, { hasPlan: false, posConnected: false })).toMatchObject({ label: 'Published, not live yet', next: { label: 'Start Free Trial' } });
  });

  it('a live survey: share it until responses come, then see them', () => {
    expect(homeSurveyStatus(survey, ready)).toEqual({ key: 'live', label: 'Live', detail: '0 responses this week', next: { label: 'Share the link', href: '/survey-published/abc' } });
    expect(homeSurveyStatus({ ...survey, responsesThisWeek: 1204 }, ready)).toMatchObject({ detail: '1,204 responses this week', next: { label: 'See responses' } });
    expect(responsesText(1)).toBe('1 response');
  });
});
