/**
 * modules/accounts, the server face: the account service, sessions, the Business and Session entities,
 * and the server's password policy (the common-password list never reaches a browser bundle).
 */
export * from './entities.ts';
export * from './service.ts';
export * from './sessions.ts';
export * from './password-policy.ts';
