/**
 * modules/accounts, the browser-safe face: rate limits and sign-in throttling, the Google ID token
 * port, and the point-of-sale status read from a Business row (`posStatus`; modules/pos re-exports it).
 * No ORM, no node:crypto. The sign-in/sign-up form schemas (zod) are in `./forms.ts`; the account
 * service, sessions, entities and the server's password policy are in `./server.ts`.
 */
export * from './rate-limit.ts';
export type { GoogleIdTokenVerifier } from './google.ts';
export { posStatus, type PosFields, type PosStatus } from './pos-status.ts';
