/** modules/rewards, the server face: the rewards service, issuing, the reward email, the jobs, the CLI's queries and the entities. */
export * from './service.ts';
export * from './issue.ts';
export * from './after-issue.ts';
export * from './email.ts';
export * from './jobs.ts';
export * from './queries.ts';
export * from './operations.ts';
export * from './confirm-email.ts';
export * from './holds.ts';
export * from './entities.ts';
