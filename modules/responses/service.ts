import type { EntityManager } from '@mikro-orm/core';
import { checkEligibility } from './eligibility.ts';
import { findPublicSurvey } from './public-survey.ts';

/** What customers reach: public surveys and the repeat-submission window. One instance per request. */
export function createResponses(deps: { em: EntityManager; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    findPublicSurvey: (input: { businessId: string; surveyId: string; bypassSquare?: boolean }) => findPublicSurvey(deps.em, { ...input, now: now() }),
    checkEligibility: (input: { businessId: string; email: string; frequencyDays: number }) => checkEligibility(deps.em, { ...input, now: now() }),
  };
}

export type Responses = ReturnType<typeof createResponses>;
