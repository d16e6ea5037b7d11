import type { SurveyPageData } from './state.ts';

/** Where the server puts the survey page and its data for the island to hydrate. */
export const SURVEY_ROOT_ID = 'survey-root';
export const SURVEY_DATA_ID = 'survey-data';

export type SurveyIslandData = { page: SurveyPageData; action: string };
