import type { AppLoadContext } from '@remix-run/node';
import type { z } from 'zod';
import { tooManyAttemptsMessage, type RateRule } from '../../modules/accounts/index.ts';
import { fieldErrors, type FieldErrors } from '../../modules/accounts/forms.ts';
import { JSON_LIMITS, parseJsonWithLimits } from '../../modules/shared/index.ts';

/** JSON error bodies carry `message` (spec section 7) and, for bad input, `fieldErrors`. */
export function apiError(status: number, message: string, extra: { fieldErrors?: FieldErrors; headers?: HeadersInit } = {}) {
  const body: Record<string, unknown> = { message };
  if (extra.fieldErrors) body.fieldErrors = extra.fieldErrors;
  return Response.json(body, { status, headers: extra.headers });
}

/** The longest OAuth `state` a callback accepts (ours are 43 characters); longer is refused unread. */
export const OAUTH_STATE_MAX = 256;

/** A 400 for a callback whose `state` is longer than any we issue. */
export function oversizedState(request: Request): Response | null {
  const state = new URL(request.url).searchParams.get('state');
  return state !== null && state.length > OAUTH_STATE_MAX ? apiError(400, 'The sign-in response is not valid. Please start again.') : null;
}

/** For resource routes that only accept POST (or PUT): any GET gets a 405 instead of a Remix error. */
export function methodNotAllowed(allowed = 'POST') {
  return apiError(405, `Use ${allowed} for this endpoint.`, { headers: { Allow: allowed } });
}

/**
 * Reads a JSON body and validates it. Throws a 415 for another content type, a 400 for malformed
 * JSON, and a 400 with the schema's field messages for bad input.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw apiError(415, 'Send a JSON body with Content-Type: application/json.');
  }
  const parsed = schema.safeParse(await readJsonObject(request));
  if (!parsed.success) throw apiError(400, 'Please correct the highlighted fields.', { fieldErrors: fieldErrors(parsed.error) });
  return parsed.data;
}

/** What a JSON body may be, beside JSON_LIMITS: the upload routes allow their larger body and a screenshot's data URL. */
export type JsonBodyLimits = { maxBytes?: number; maxStringLength?: number; /** The 413's message (the upload routes: the screenshot's). */ tooLargeMessage?: string };

/**
 * The body as a JSON object, read once and checked before anything walks it (issue 25,
 * modules/shared/json.ts): at most `maxBytes` bytes (BODY_LIMIT_BYTES' default, 1 MB), 64 levels deep,
 * 1,000 fields per object, 10,000 items per list, 100,000 characters per string, no number beyond
 * a double (`1e309`), no `__proto__`/`constructor`/`prototype` field, no text the database cannot
 * store. Each is a 400 with a message that says which; the caller checks the content type.
 */
export async function readJsonObject(request: Request, limits: JsonBodyLimits = {}): Promise<Record<string, unknown>> {
  const maxBytes = limits.maxBytes ?? JSON_LIMITS.maxChars;
  let bytes: ArrayBuffer;
  try {
    bytes = await request.arrayBuffer();
  } catch {
    throw apiError(400, 'The request body could not be read. Please try again.');
  }
  // The HTTP edge refuses a Content-Length over the limit unread; this counts what arrived.
  if (bytes.byteLength > maxBytes) throw apiError(413, limits.tooLargeMessage ?? `Request body too large: the limit is ${Math.round(maxBytes / 1000)} KB.`);
  const text = new TextDecoder().decode(bytes);
  const parsed = parseJsonWithLimits(text, { limits: { maxChars: maxBytes, maxStringLength: limits.maxStringLength ?? JSON_LIMITS.maxStringLength } });
  if (!parsed.ok) {
    const { kind, message, field } = parsed.problem;
    if (kind === 'syntax') throw apiError(400, 'Malformed JSON body.');
    throw apiError(400, message, field ? { fieldErrors: { [field]: [message] } } : {});
  }
  const body = parsed.value;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw apiError(400, 'The JSON body must be an object.');
  return body as Record<string, unknown>;
}

/** Counts an attempt against each key; a 429 with the wait in plain words when any is over its limit. */
export async function rateLimited(context: AppLoadContext, keys: Array<[string, RateRule]>): Promise<Response | null> {
  const decision = await context.rateLimiter.hit(keys);
  if (decision.allowed) return null;
  return apiError(429, tooManyAttemptsMessage(decision.retryAfterSeconds), { headers: { 'Retry-After': String(decision.retryAfterSeconds) } });
}
