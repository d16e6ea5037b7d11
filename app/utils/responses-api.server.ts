import type { AppLoadContext } from '@remix-run/node';
import { isUuid } from '../../modules/analytics/index.ts';
import { apiError } from './api.server.ts';
import { requireOwnerApi, surveyNotFound } from './owner-api.server.ts';

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

const encodeCursor = (c: { submittedAt: string; id: string }) => Buffer.from(`${c.submittedAt}|${c.id}`).toString('base64url');

function decodeCursor(text: string): { submittedAt: string; id: string } | null {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const [submittedAt, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  return rest.length === 0 && submittedAt && id && CURSOR_TIME.test(submittedAt) && isUuid(id) && !Number.isNaN(Date.parse(submittedAt)) ? { submittedAt, id } : null;
}

/**
 * GET /api/survey/responses[/{surveyId}] (spec section 7): the signed-in owner's responses in the
 * client shape of spec section 3 (cents as integers), newest first, as a JSON list of at most
 * `limit` (default 100, at most 500). When more exist, a `Link: <…?cursor=…>; rel="next"` header
 * points at the next page. Signed out 401; another owner's survey 404; a bad cursor or limit 400.
 */
export async function responsesApi(request: Request, context: AppLoadContext, surveyId: string | null) {
  const owner = await requireOwnerApi(request, context);
  if (surveyId !== null && !(await context.analytics.survey(owner.id, surveyId))) return surveyNotFound();
  const page = pageOf(request);
  if (page instanceof Response) return page;
  const { responses, next } = await context.analytics.clientResponses(owner.id, { surveyId, after: page.after, limit: page.limit });
  return listWithNext(request, responses, next);
}

/**
 * GET /api/gift-card-issuances (spec section 7): the owner's cards in the client shape of spec
 * section 3 (cents), newest first, `limit` at a time with the same `Link` cursor.
 */
export async function giftCardsApi(request: Request, context: AppLoadContext) {
  const owner = await requireOwnerApi(request, context);
  const page = pageOf(request);
  if (page instanceof Response) return page;
  const { issuances, next } = await context.analytics.clientGiftCards(owner.id, page);
  return listWithNext(request, issuances, next);
}

/** `limit` and `cursor` of a list request, or a 400 naming the bad one. */
function pageOf(request: Request): { limit: number; after: { submittedAt: string; id: string } | null } | Response {
  const url = new URL(request.url);
  const rawLimit = url.searchParams.get('limit');
  let limit = DEFAULT_LIMIT;
  if (rawLimit !== null) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > MAX_LIMIT) return apiError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
    limit = Number(rawLimit);
  }
  const rawCursor = url.searchParams.get('cursor');
  const after = rawCursor === null ? null : decodeCursor(rawCursor);
  if (rawCursor !== null && !after) return apiError(400, "The cursor is not valid: use the one from the previous answer's Link header.");
  return { limit, after };
}

/** The list as JSON, with `Link: <…?cursor=…>; rel="next"` when there is more. */
function listWithNext(request: Request, list: unknown[], next: { submittedAt: string; id: string } | null) {
  const url = new URL(request.url);
  const headers = new Headers({ 'Cache-Control': 'private, no-store' });
  if (next) {
    const nextUrl = new URL(url.pathname, url.origin);
    nextUrl.searchParams.set('cursor', encodeCursor(next));
    const limit = url.searchParams.get('limit');
    if (limit !== null) nextUrl.searchParams.set('limit', limit);
    headers.set('Link', `<${nextUrl.pathname}${nextUrl.search}>; rel="next"`);
  }
  return Response.json(list, { headers });
}
