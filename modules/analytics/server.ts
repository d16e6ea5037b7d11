/**
 * modules/analytics, the server face: the funnel's and the answers' count entities, for the ORM's list
 * (modules/db). The service reads and writes them with SQL; nothing else uses them.
 */
export { SurveyAnswerCount, SurveyFunnelCount } from './entities.ts';
