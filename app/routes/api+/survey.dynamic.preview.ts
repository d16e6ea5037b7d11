import { demoView } from '../../../modules/responses/index.ts';
import { publicSurveyJson } from '#app/utils/public-survey.server.ts';

/** GET /api/survey/dynamic/preview: the sample survey of /survey/preview?demo=true (nothing is saved). */
export const loader = () => publicSurveyJson(demoView());
