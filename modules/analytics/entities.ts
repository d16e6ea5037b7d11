import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { SurveyConfig } from '../surveys/server.ts';

/**
 * The survey funnel's first-party counts (ADR 026): per survey, UTC day and step, how many times a
 * customer reached that step. Nothing about who: no cookie, no address, no device, no response id;
 * a count only. Steps: `view` (the live survey page was served), `start` (a first answer or a first
 * form post), `section:{n}` (section n reached, n from 2).
 * Exported only by the server face, for the ORM's list (modules/db/entities.ts); the
 * service reads and writes it with SQL.
 */
export const SurveyFunnelCount = defineEntity({
  name: 'SurveyFunnelCount',
  tableName: 'survey_funnel_counts',
  indexes: [{ properties: ['businessId', 'day'] }],
  properties: {
    surveyConfigId: p.manyToOne(SurveyConfig).mapToPk().fieldName('survey_config_id').primary().deleteRule('cascade'),
    day: p.date().primary(),
    step: p.string().length(20).primary(),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    count: p.integer().default(0),
  },
});
export type SurveyFunnelCount = InferEntity<typeof SurveyFunnelCount>;

/**
 * Answers counted per survey, UTC day, question and answer (ADR 027): what Question Analysis sums
 * instead of reading every response. Kept by the PostgreSQL trigger `survey_answer_counts_apply` on
 * `survey_responses` (insert, update, delete; migration Migration20261124070000AnalyticsAnswerCounts)
 * for the questions of `analysedQuestions()`; `answer` is the answer trimmed, cut to 200 characters and
 * lower-cased (the grouping key), `display` as first written, `rating` its integer value when it is one.
 */
export const SurveyAnswerCount = defineEntity({
  name: 'SurveyAnswerCount',
  tableName: 'survey_answer_counts',
  // One question of one business over a range of days, read from the index alone (bench/README.md).
  indexes: [{ properties: ['businessId', 'key', 'day'], include: ['count', 'rating', 'answer', 'display'] }],
  properties: {
    surveyConfigId: p.manyToOne(SurveyConfig).mapToPk().fieldName('survey_config_id').primary().deleteRule('cascade'),
    day: p.date().primary(),
    key: p.string().length(64).primary(),
    answer: p.string().length(200).primary(),
    businessId: p.manyToOne(Business).mapToPk().fieldName('business_id').deleteRule('cascade'),
    display: p.string().length(200),
    rating: p.integer().nullable(),
    count: p.integer().default(0),
  },
});
export type SurveyAnswerCount = InferEntity<typeof SurveyAnswerCount>;
