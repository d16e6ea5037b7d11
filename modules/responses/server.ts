/** modules/responses, the server face: answers parsing, the responses service, screenshot verifications, their history and replay, the entities. */
export * from './answers.ts';
export * from './service.ts';
export * from './verifications.ts';
export * from './verification-history.ts';
export * from './replay.ts';
export type { PublicSurvey } from './public-survey.ts';
export type { SubmissionInput, SubmissionResult } from './submit.ts';
export * from './labels.ts';
export * from './entities.ts';
