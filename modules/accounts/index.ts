/**
 * modules/accounts, the browser-safe face: rate limits and sign-in throttling, and the Google ID token
 * port. No ORM, no node:crypto. The sign-in/sign-up form schemas (zod) are in `./forms.ts`; the
 * account service, sessions, entities and the server's password policy are in `./server.ts`.
 */
export * from './rate-limit.ts';
export type { GoogleIdTokenVerifier } from './google.ts';
