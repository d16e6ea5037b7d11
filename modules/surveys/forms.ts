/** modules/surveys, the form face: the builder's form and API schemas (zod) and their helpers. */
export * from './schema.ts';
