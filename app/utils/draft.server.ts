import type { AppLoadContext } from '@remix-run/node';
import { surveyFairnessProblems } from '../../modules/scoring/index.ts';
import { surveyConfigApiSchema } from '../../modules/surveys/forms.ts';
import { DEFAULT_REVIEW_POLICY } from '../../modules/surveys/index.ts';

/**
 * A survey built while logged out travels with sign-in / sign-up (spec: surveyBuilderConfig) and
 * is saved to the account. Returns the new survey's id, or null when there was no usable draft
 * (unreadable, invalid, or unfair: the browser keeps its copy for the builder).
 */
export async function saveHandedOverDraft(context: AppLoadContext, businessId: string, raw: unknown): Promise<string | null> {
  if (raw === null || raw === undefined || raw === '') return null;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      context.logger.warn({ businessId }, 'handed-over survey draft is not JSON; ignored');
      return null;
    }
  }
  const parsed = surveyConfigApiSchema.safeParse(value);
  if (!parsed.success) {
    context.logger.warn({ businessId, issues: parsed.error.issues.length }, 'handed-over survey draft is invalid; ignored');
    return null;
  }
  // The same save-time fairness check as the builder and the API (ADR 041). An unfair draft is not
  // saved: the browser keeps its copy (no handover), and the builder shows why when it is opened.
  const unfair = surveyFairnessProblems({ ...parsed.data, reviewPolicy: parsed.data.reviewPolicy ?? DEFAULT_REVIEW_POLICY, tierThresholds: parsed.data.tierThresholds ?? null });
  if (unfair.length) {
    context.logger.warn({ businessId, problems: unfair.map((p) => p.field) }, 'handed-over survey draft fails the fairness check; left in the browser');
    return null;
  }
  return (await context.surveys.create(businessId, parsed.data)).id;
}

/**
 * Where to go after sign-in: a safe returnTo first, else the publish check for a handed-over draft,
 * else home. `handover=1` tells the page to clear the browser's copy of the draft, now saved.
 */
export function afterSignIn(returnTo: string | null, draftSurveyId: string | null): string {
  if (!draftSurveyId) return returnTo ?? '/';
  if (!returnTo) return `/subscription-check?surveyId=${draftSurveyId}&handover=1`;
  const url = new URL(returnTo, 'http://rewardloop.invalid');
  url.searchParams.set('handover', '1');
  return url.pathname + url.search + url.hash;
}
