/**
 * modules/surveys, the browser-safe face (the customer page's island and the root layout use it, so it
 * stays free of zod and the ORM): the survey template, links, the logged-out draft key, availability,
 * the publish check and short codes. The builder's form schemas (zod) are in `./forms.ts`; the survey service and
 * publishing are in `./server.ts`.
 */
export * from './template.ts';
export * from './questions.ts';
export * from './question-validation.ts';
export * from './question-editor.ts';
export * from './links.ts';
export * from './draft.ts';
export * from './availability.ts';
export * from './home-status.ts';
export * from './publish-check.ts';
export * from './review-policy.ts';
export * from './short-codes.ts';
export * from './save-rules.ts';
export type { SaveOutcome, ShortLinkTarget, SurveyConfigView } from './service.ts';
/** Survey ids in links and forms are checked with it (the one UUID check, modules/shared/ids.ts). */
export { isUuid } from '../shared/ids.ts';
export * from './translations.ts';
