/**
 * Where the builder keeps a logged-out visitor's survey in the browser (localStorage) until sign-up
 * hands it over. A module of its own so pages that only clear it do not bundle the schemas.
 */
export const BUILDER_DRAFT_KEY = 'rewardloop:surveyBuilderDraft';
