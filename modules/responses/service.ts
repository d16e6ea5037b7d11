import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/index.ts';
import { checkEligibility } from './eligibility.ts';
import { findCurrentSurvey, findPublicSurvey } from './public-survey.ts';
import { submitSurvey, type SubmissionInput } from './submit.ts';

/** What customers reach: public surveys and the repeat-submission window. One instance per request. */
export function createResponses(deps: { em: EntityManager; jobs: JobQueue | null; logger: Logger; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    findPublicSurvey: (input: { businessId: string; surveyId: string; bypassSquare?: boolean }) => findPublicSurvey(deps.em, { ...input, now: now() }),
    findCurrentSurvey: (input: { businessId: string; bypassSquare?: boolean }) => findCurrentSurvey(deps.em, { ...input, now: now() }),
    checkEligibility: (input: { businessId: string; email: string; frequencyDays: number }) => checkEligibility(deps.em, { ...input, now: now() }),
    /** The one submission use case (ADR 056): the survey page's form post, the JSON API and the CLI. */
    submit: (input: SubmissionInput) => submitSurvey({ em: deps.em, jobs: deps.jobs, logger: deps.logger, now }, input),
  };
}

export type Responses = ReturnType<typeof createResponses>;
