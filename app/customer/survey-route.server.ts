import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import { formPostEvents } from '../../modules/analytics/index.ts';
import { allowedKeys } from '../../modules/responses/server.ts';
import { deviceIdFromCookies, isSubmissionKey, liveScore, newSubmissionKey, submitProblem, blockEvidence, blockKey, blockScreenshotKey, isSaved, visibleBlocks, RATING_REQUIRED, sectionOfProblem, type Problem, customerView, demoView, type CustomerSurveyView } from '../../modules/responses/index.ts';
import {
  allQuestions,
  customerEmailOf,
  customerNameOf,
  effectiveTemplate,
  overallRatingOf,
  validScale,
  type SurveyTemplate,
} from '../../modules/surveys/index.ts';
import { readForm } from '../utils/input.server.ts';
import { FIELD, checkingField, failedField, fileField, firstStep, INTENTS, MAX_FAILED_REASON_CHARS, simulatedStep, submittedStep, withRejectedBlock, type Intent, type SurveyPageData, type SurveyStep } from './state.ts';
import { ownerPreview } from '../utils/auth.server.ts';
import { localeCookie, pickLocale, rejectionMessage, type Locale } from '../../modules/i18n/index.ts';
import { messagesFor, translatorFor } from '../../modules/i18n/server.ts';
import { localizeProblem, platformLabel, withOwnerQuestions } from './localize.ts';

/** Which link the customer came by (spec section 2, "Public survey"). */
export type SurveyRouteKind = 'public' | 'business' | 'dynamic' | 'preview';

type Args = Pick<LoaderFunctionArgs, 'request' | 'context' | 'params'>;

const MAX_ANSWER_CHARS = 2000;

type Resolved = { view: CustomerSurveyView | null; custom?: boolean };

/**
 * The customer's language (ADR 084): `?lang=` first, then the cookie a `?lang=` left, then
 * Accept-Language, else the survey's first language. Each counts only when the survey offers it
 * (ADR 086: `offered`, the survey's languages; no survey, as for 'Survey Not Found': all five, else
 * English). A `?lang=` is remembered by a cookie for the next visit.
 */
function customerLocale(request: Request, offered?: readonly Locale[]): { locale: Locale; headers: Record<string, string> } {
  const { locale, source } = pickLocale({
    query: new URL(request.url).searchParams.get('lang'),
    cookie: request.headers.get('Cookie'),
    acceptLanguage: request.headers.get('Accept-Language'),
    offered,
  });
  // Vary: the same URL answers in the language the headers ask for.
  return { locale, headers: { Vary: 'Accept-Language, Cookie', ...(source === 'query' ? { 'Set-Cookie': localeCookie(locale) } : {}) } };
}

/** The page data's language part: the locale and that language's messages only (the island needs no other). */
const language = (locale: Locale) => ({ locale, messages: messagesFor(locale) });

/** The view with only this language's translation of the owner's words (ADR 090): the page data carries no other. */
function viewFor<V extends CustomerSurveyView>(view: V, locale: Locale): V {
  const own = view.translations?.[locale];
  return { ...view, translations: own ? { [locale]: own } : {} };
}

async function resolveView({ request, context, params }: Args, kind: SurveyRouteKind): Promise<Resolved> {
  const query = new URL(request.url).searchParams;
  const bypassSquare = await ownerPreview(request, context, params.businessId ?? '', query.get('bypass_square'));
  if (kind === 'preview') {
    // ?custom=true: the builder's draft lives in this browser's storage; the page fetches its view.
    if (query.get('custom') === 'true') return { view: null, custom: true };
    return { view: demoView() };
  }
  const businessId = params.businessId ?? '';
  const found =
    kind === 'public'
      ? await context.responses.findPublicSurvey({ businessId, surveyId: params.surveyId ?? '', bypassSquare })
      : await context.responses.findCurrentSurvey({ businessId, bypassSquare });
  if (!found) return { view: null };
  return {
    view: customerView(found.survey, found.businessName, { dynamic: kind === 'dynamic', bypassSquare, brand: found.brand, rewardsPaused: found.rewardsPaused }),
  };
}

const notFound = (request: Request, custom?: boolean) => {
  const { locale, headers } = customerLocale(request);
  return data<SurveyPageData>({ view: null, step: firstStep(), custom, ...language(locale) }, { status: custom ? 200 : 404, headers });
};

/** The customers' 'Survey Not Found' page with its 404, for a route that has no survey to show (an unknown short link). */
export const surveyNotFound = (request: Request) => notFound(request);

/**
 * Counts a funnel step of a live survey (ADR 026): anonymous per-day totals, never a preview or the
 * demo; added up in memory and written within seconds (ADR 081), so a page view costs no query.
 */
function countFunnel(context: AppLoadContext, view: CustomerSurveyView, events: Parameters<AppLoadContext['analytics']['countFunnel']>[0]['events']) {
  if (view.mode !== 'live' || events.length === 0) return;
  context.analytics.countFunnel({ businessId: view.businessId, surveyId: view.surveyId, events });
}

export async function surveyPageLoader(args: Args, kind: SurveyRouteKind) {
  const { view, custom } = await resolveView(args, kind);
  if (!view) return notFound(args.request, custom);
  if (args.request.method === 'GET') countFunnel(args.context, view, [{ step: 'view' }]);
  const { locale, headers } = customerLocale(args.request, view.languages);
  return data<SurveyPageData>(
    { view: viewFor(view, locale), step: { ...firstStep(), ...(view.mode === 'live' ? { key: newSubmissionKey() } : {}) }, ...language(locale) },
    { headers: { 'Cache-Control': 'no-store', ...headers } },
  );
}

/** The answers of a form post: known keys only, scale values as numbers, long text cut. */
function answersFrom(form: FormData, template: SurveyTemplate): Record<string, string | number> {
  const answers: Record<string, string | number> = {};
  const scales = new Map(template.sections.flatMap((s) => s.questions).filter((q) => q.type === 'scale').map((q) => [q.id, q.scale_max ?? 5]));
  for (const key of allowedKeys(template)) {
    const value = form.get(key);
    if (typeof value !== 'string' || value.trim() === '') continue;
    const max = scales.get(key);
    if (max !== undefined) {
      const n = validScale(value, max);
      if (n !== undefined) answers[key] = n;
      continue;
    }
    answers[key] = value.slice(0, MAX_ANSWER_CHARS);
  }
  return answers;
}

/**
 * Uploads in a no-JavaScript post: each chosen file is verified now (on this request; OCR runs in the
 * worker pool). A valid verification's id becomes the block's screenshot answer; a rejection clears
 * it and says why. The demo and a builder draft (no survey yet) check nothing and store nothing; an
 * owner's preview of a saved survey is checked for real.
 */
async function verifyUploads(context: AppLoadContext, form: FormData, view: CustomerSurveyView, template: SurveyTemplate, step: SurveyStep, locale: Locale) {
  for (const q of visibleBlocks(template, view, step.answers)) {
    const shot = blockScreenshotKey(q);
    const stateKey = blockKey(q);
    const file = form.get(fileField(shot));
    if (!(file instanceof File) || file.size === 0) {
      // (A proof sent to review says so again: `checkingField`, words only.)
      if (step.answers[shot] !== undefined) step.states[stateKey] = { status: 'verified', ...(form.get(checkingField(stateKey)) === '1' ? { checking: true } : {}) };
      continue;
    }
    if (!isSaved(view)) {
      step.answers[shot] = 'preview';
      step.states[stateKey] = { status: 'verified' };
      continue;
    }
    const evidence = blockEvidence(q, step.answers);
    const result = await context.verifications.verify({
      businessId: view.businessId,
      surveyId: view.surveyId,
      bypassSquare: view.bypassSquare,
      image: new Uint8Array(await file.arrayBuffer()),
      ...evidence,
    });
    if (!result.ok) {
      // Refused before any verification (over 10 MB, not an image): the summary says so, and a Submit
      // in the same post stops here instead of reporting the screenshot as a missing field.
      delete step.answers[shot];
      step.errors[shot] = result.message;
      step.states[stateKey] = { status: 'failed', error: result.message };
      step.toast = { title: 'Screenshot Not Accepted', description: result.message, type: 'error' };
    } else if (result.isValid) {
      step.answers[shot] = result.id;
      step.states[stateKey] = { status: 'verified', ...(result.verdict === 'needs_review' ? { checking: true } : {}) };
    } else {
      delete step.answers[shot];
      // English: the verifier's words; another language: its code's sentence (ADR 090).
      const reason = rejectionMessage(translatorFor(locale), result.rejectionCode, result.rejectionReason, platformLabel(evidence.platform));
      step.states[stateKey] = { status: 'failed', error: reason };
      step.errors[shot] = reason;
      step.toast = { title: evidence.kind === 'review' ? 'Screenshot Verification Failed' : 'Social Verification Failed', description: reason, type: 'error' };
    }
  }
}

/**
 * The refusals an earlier post showed (`_failed:{blockKey}`, hidden inputs of the page): a block
 * without a verified screenshot keeps its failed state and reason, so another block's Remove or a
 * Continue does not wipe them. A new file or this block's Remove replaces it below.
 */
function carriedFailures(form: FormData, template: SurveyTemplate, view: CustomerSurveyView, step: SurveyStep) {
  for (const q of visibleBlocks(template, view, step.answers)) {
    const reason = form.get(failedField(blockKey(q)));
    if (typeof reason !== 'string' || reason.trim() === '' || step.answers[blockScreenshotKey(q)] !== undefined) continue;
    step.states[blockKey(q)] = { status: 'failed', error: reason.trim().slice(0, MAX_FAILED_REASON_CHARS) };
  }
}

/** The screenshot key named by a 'Remove screenshot' button, once removed from the post; null when none. */
function removedScreenshot(form: FormData, template: SurveyTemplate, view: CustomerSurveyView, step: SurveyStep): string | null {
  const key = form.get(FIELD.remove);
  if (typeof key !== 'string' || key === '') return null;
  const q = visibleBlocks(template, view, step.answers).find((b) => blockScreenshotKey(b) === key);
  if (!q) return null;
  delete step.answers[key];
  form.delete(fileField(key));
  step.states[blockKey(q)] = { status: 'idle' };
  return key;
}

function refuse(step: SurveyStep, template: SurveyTemplate, problem: Problem, locale: Locale, view?: CustomerSurveyView) {
  // A message naming the survey's words is said here in the customer's language (the owner's translation of a question first, ADR 090); plain ones are catalog keys the page translates.
  problem = localizeProblem(problem, withOwnerQuestions(translatorFor(locale), view?.translations?.[locale], template));
  step.toast = { title: problem.title, description: problem.message, type: 'error' };
  if (problem.field) step.errors[problem.field] = problem.message;
  step.section = sectionOfProblem(template, problem, step.section);
}

/**
 * The page's own form post (the survey without JavaScript): every section is a post that carries
 * all answers. Continue needs the overall rating; Submit (or Submit Early) checks what the browser
 * would check, then hands over to the submission service, which re-validates and scores itself.
 */
export async function surveyPageAction(args: Args & Pick<ActionFunctionArgs, 'request'>, kind: SurveyRouteKind) {
  const { request, context } = args;
  const { view: resolved, custom } = await resolveView(args, kind);
  if (!resolved) return notFound(request, custom);
  const template = effectiveTemplate(resolved);
  const { locale, headers } = customerLocale(request, resolved.languages);
  const view = viewFor(resolved, locale);
  const lang = language(locale);

  let form: FormData;
  try {
    form = await readForm(request);
  } catch (error) {
    if (!(error instanceof Response)) throw error;
    const { message } = (await error.json()) as { message: string };
    return data<SurveyPageData>(
      { view, step: { ...firstStep(), toast: { title: 'Submission Failed', description: message, type: 'error' } }, ...lang },
      { status: error.status, headers },
    );
  }
  const last = template.sections.length - 1;
  const rawIntent = String(form.get(FIELD.intent) ?? 'stay');
  const intent: Intent = (INTENTS as readonly string[]).includes(rawIntent) ? (rawIntent as Intent) : 'stay';
  const section = Math.min(last, Math.max(0, Number.parseInt(String(form.get(FIELD.section) ?? '0'), 10) || 0));
  const postedKey = form.get(FIELD.key);
  const step: SurveyStep = {
    ...firstStep(),
    section,
    answers: answersFrom(form, template),
    // The visit's submission key goes on with every post (a missing or malformed one: a new one).
    ...(view.mode === 'live' ? { key: isSubmissionKey(postedKey) ? postedKey : newSubmissionKey() } : {}),
  };

  // 'Remove screenshot' (a block's own submit button): the screenshot goes, with any file chosen
  // for it in the same post; the customer stays on the section to choose another or skip the block.
  carriedFailures(form, template, view, step);
  const removed = removedScreenshot(form, template, view, step);
  await verifyUploads(context, form, view, template, step, locale);
  if (removed) {
    step.toast = { title: 'Screenshot removed', description: 'Choose another screenshot, or clear the other fields of this block to skip it.', type: 'info' };
    return data<SurveyPageData>({ view, step, ...lang }, { headers: { 'Cache-Control': 'no-store', ...headers } });
  }
  const rating = overallRatingOf(template, step.answers);
  const status = () => (step.toast?.type === 'error' ? 400 : 200);

  if (intent === 'back') step.section = Math.max(0, section - 1);
  if (intent === 'next') {
    if (rating === undefined && section === 0) refuse(step, template, RATING_REQUIRED, locale, view);
    else if (!step.toast) step.section = Math.min(last, section + 1);
  }
  // Without JavaScript every step is a post: the first one starts the survey, a section reached for
  // the first time is counted once (`_progress` carries the furthest one; no cookie).
  const previous = Number.parseInt(String(form.get(FIELD.progress) ?? '0'), 10);
  const progress = formPostEvents(Number.isInteger(previous) && previous >= 0 ? previous : 0, step.section + 1);
  step.progress = progress.progress;
  countFunnel(context, view, progress.events);
  if ((intent === 'submit' || intent === 'early') && !step.toast) await submit(context, request, { view, template }, step, locale);
  return data<SurveyPageData>({ view, step, ...lang }, { status: status(), headers: { 'Cache-Control': 'no-store', ...headers } });
}

/**
 * Submit (or Submit Early): the page's own checks over its blocks' states (spec 4 and 5, in the
 * page's wording; they stay here, issue 28 item 3); a preview or the demo is then scored here and
 * nothing is saved (spec 4); a live survey goes to the one submission use case (`responses.submit`,
 * ADR 056) with plain answers, which checks, scores and stores on its own.
 */
async function submit(context: AppLoadContext, request: Request, page: { view: CustomerSurveyView; template: SurveyTemplate }, step: SurveyStep, locale: Locale) {
  const { view, template } = page;
  const email = customerEmailOf(step.answers)?.toLowerCase() ?? null;
  const problem = submitProblem({ template, config: view, answers: step.answers, states: step.states });
  if (problem) return refuse(step, template, problem, locale, view);
  if (view.mode !== 'live') {
    const score = liveScore(template, view, step.answers, step.states);
    Object.assign(step, simulatedStep(view.mode, { totalPoints: score.points, rewardTier: score.tier, rewardValue: score.rewardValueCents }, email));
    return;
  }
  const result = await context.responses.submit({
    businessId: view.businessId ?? '',
    surveyId: view.surveyId ?? '',
    responses: step.answers,
    customerEmail: email,
    customerName: customerNameOf(step.answers) ?? null,
    bypassSquare: view.bypassSquare,
    ipAddress: context.clientIp,
    userAgent: request.headers.get('User-Agent'),
    deviceId: deviceIdFromCookies(request.headers.get('Cookie')),
    submissionKey: step.key ?? null,
    locale,
  });
  if (result.ok) {
    // A live survey's response is stored.
    Object.assign(step, submittedStep({ ...result, rewardChecking: !result.preview && result.rewardChecking }, email));
    return;
  }
  if (result.screenshotRejected) {
    // Spec 8: show the reason, clear that platform's fields, return to section index 2.
    const { questionId, platform, rejectionCode } = result.screenshotRejected;
    const reason = rejectionMessage(translatorFor(locale), rejectionCode, result.message, platformLabel(platform));
    Object.assign(step, withRejectedBlock(step, allQuestions(template).find((x) => x.id === questionId), reason));
    step.section = Math.min(2, template.sections.length - 1);
    return;
  }
  // The service's titles are the spec's ('Cannot Submit Survey', 'Email Required for Reward', ...).
  refuse(step, template, { title: result.title, message: result.message, field: result.field, key: result.key, params: result.params }, locale, page.view);
}
