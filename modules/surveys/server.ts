/** modules/surveys, the server face: the survey service and publishing. */
export * from './service.ts';
export * from './publishing.ts';
export * from './entities.ts';
