/** modules/accounts, the form face: the sign-in, sign-up and password-reset schemas (zod), used by forms and routes. */
export * from './schemas.ts';
