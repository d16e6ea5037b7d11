import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../accounts/server.ts';
import { isUuid } from '../shared/ids.ts';
import { brandOf, logoPath } from '../branding/index.ts';
import { rewardBudget } from '../billing/server.ts';
import { businessReadiness, surveyAvailability } from '../surveys/index.ts';
import { SurveyConfig, toSurveyView, type SurveyConfigView } from '../surveys/server.ts';


/** `rewardsPaused`: the owner's monthly reward budget is used up; a submission earns no reward. */
export type PublicSurvey = { survey: SurveyConfigView; businessName: string; brand: { color: string | null; logoUrl: string | null }; rewardsPaused: boolean };

/**
 * A survey as a customer may reach it: it exists, belongs to that business, and is Available
 * (active, the owner has a subscription or trial, Square connected). `bypassSquare` (the spec's
 * bypass_square=true, the owner's own preview) waives publishing, the plan and Square: an owner may
 * look at a survey before any trial (issue 27 item 1); a preview stores nothing. Anything else is
 * null, which every public page shows as 'Survey Not Found'.
 */
export async function findPublicSurvey(
  em: EntityManager,
  input: { businessId: string; surveyId: string; bypassSquare?: boolean; now?: Date },
): Promise<PublicSurvey | null> {
  if (!isUuid(input.businessId) || !isUuid(input.surveyId)) return null;
  const [business, survey] = await Promise.all([
    em.findOne(Business, { id: input.businessId }),
    em.findOne(SurveyConfig, { id: input.surveyId, businessId: input.businessId }),
  ]);
  if (!business || !survey || survey.archivedAt) return null;
  const readiness = businessReadiness(business, input.now);
  // The owner's preview (bypass_square, bound to the owner's session by the caller) also shows a
  // draft and waives the plan and Square; customers reach published surveys only.
  const availability = surveyAvailability({
    isActive: survey.isActive,
    isPublished: Boolean(survey.publishedAt) || Boolean(input.bypassSquare),
    hasPlan: readiness.hasPlan || Boolean(input.bypassSquare),
    posConnected: readiness.posConnected || Boolean(input.bypassSquare),
  });
  if (availability !== 'Available') return null;
  const brand = brandOf(business);
  const budget = await rewardBudget(em, business, input.now);
  return {
    survey: toSurveyView(survey),
    businessName: business.displayName,
    brand: { color: brand.color, logoUrl: logoPath(business.id, brand.logoKey) },
    rewardsPaused: Boolean(budget?.reached),
  };
}

/**
 * The business's current survey, for the links without a survey id (/survey/{businessId},
 * /survey/public/{businessId}, /survey/dynamic/{businessId}): the most recently published active
 * survey (else the most recently created active one), if it is Available. Null otherwise.
 */
export async function findCurrentSurvey(
  em: EntityManager,
  input: { businessId: string; bypassSquare?: boolean; now?: Date },
): Promise<PublicSurvey | null> {
  if (!isUuid(input.businessId)) return null;
  const current = await em.findOne(
    SurveyConfig,
    { businessId: input.businessId, isActive: true, archivedAt: null, ...(input.bypassSquare ? {} : { publishedAt: { $ne: null } }) },
    { orderBy: { publishedAt: 'desc nulls last', createdAt: 'desc', id: 'asc' }, fields: ['id'] },
  );
  if (!current) return null;
  return findPublicSurvey(em, { ...input, surveyId: current.id });
}
