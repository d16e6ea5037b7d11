/**
 * modules/rewards, the browser-safe face: the gift card port and the owner-facing wording of a failed
 * reward. Issuing, emailing, the jobs and the queries are in `./server.ts`.
 */
export * from './port.ts';
export * from './plain-error.ts';
export * from './card-provider.ts';
