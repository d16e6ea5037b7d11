/**
 * modules/responses, the browser-safe face (the customer page's island uses it): the customer's view
 * of a survey and the checks the page runs before submitting. The submission, verification and replay
 * services are in `./server.ts`.
 */
export * from './customer-checks.ts';
export * from './customer-view.ts';
export * from './device.ts';
export * from './submission-key.ts';
