/** modules/surveys, the server face: the survey service, publishing and the SurveyConfig entity. */
export * from './service.ts';
export * from './publishing.ts';
export * from './entities.ts';
