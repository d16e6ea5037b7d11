import type { EntityManager } from '@mikro-orm/core';
import { SurveyConfig } from './entities.ts';

/** Survey configs of one owner. The authoring issue grows this into the builder's service. */
export function createSurveys(deps: { em: EntityManager }) {
  const { em } = deps;
  return {
    countForBusiness(businessId: string): Promise<number> {
      return em.count(SurveyConfig, { businessId });
    },
  };
}

export type Surveys = ReturnType<typeof createSurveys>;
