import type { AppLoadContext } from '@remix-run/node';
import { surveyConfigApiSchema } from '../../modules/surveys/forms.ts';
import { parseJsonWithLimits } from '../../modules/shared/index.ts';

/** What became of a handed-over draft: saved (its id), left in the browser for a reason the owner can fix, or nothing usable. */
export type HandOver = { surveyId: string | null; problem: string | null };

/**
 * A survey built while logged out travels with sign-in / sign-up (spec: surveyBuilderConfig) and
 * is saved to the account through the one save (`surveys.save`, ADR 089). An unreadable or invalid
 * draft is ignored (logged); one the save refuses (tier fairness, ADR 041; hosted vision where this
 * server has none, ADR 066) is not saved and its first problem is returned: the browser keeps its
 * copy, and the builder (`/survey-builder?draft=1`) opens it for the owner to change.
 */
export async function handOverDraft(context: AppLoadContext, businessId: string, raw: unknown): Promise<HandOver> {
  const none = { surveyId: null, problem: null };
  if (raw === null || raw === undefined || raw === '') return none;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    // JSON inside a form field (or a JSON string): read within the same limits as a JSON body (issue 25).
    const parsed = parseJsonWithLimits(raw, { subject: 'The survey draft' });
    if (!parsed.ok) {
      context.logger.warn({ businessId, problem: parsed.problem.kind }, 'handed-over survey draft is not readable JSON within the limits; ignored');
      return none;
    }
    value = parsed.value;
  }
  const parsed = surveyConfigApiSchema.safeParse(value);
  if (!parsed.success) {
    context.logger.warn({ businessId, issues: parsed.error.issues.length }, 'handed-over survey draft is invalid; ignored');
    return none;
  }
  const saved = await context.surveys.save(businessId, parsed.data);
  if (saved.status === 'refused') {
    context.logger.warn({ businessId, rule: saved.refusal.rule, problems: saved.refusal.problems.map((p) => p.field) }, 'handed-over survey draft refused by the save rules; left in the browser');
    return { surveyId: null, problem: saved.refusal.message };
  }
  return { surveyId: saved.survey.id, problem: null };
}

/** `handOverDraft` for the callers that only need the saved survey's id (null: not saved). */
export async function saveHandedOverDraft(context: AppLoadContext, businessId: string, raw: unknown): Promise<string | null> {
  return (await handOverDraft(context, businessId, raw)).surveyId;
}

/** Where an owner goes, and what they are told, when their handed-over draft could not be saved. */
export const UNSAVED_DRAFT_PATH = '/survey-builder?draft=1';
export const unsavedDraftToast = (problem: string) =>
  ({ title: 'Survey not saved yet', description: `${problem} Your survey is open in the builder: change this, then save.`, type: 'error' }) as const;

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
