import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type AppLoadContext,
} from '@remix-run/node';
import { z } from 'zod';
import { fieldErrors } from '../../modules/accounts/forms.ts';
import type { VerifyInput } from '../../modules/responses/server.ts';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '../../modules/uploads/index.ts';
import { NEEDS_REVIEW_MESSAGE } from '../../modules/verification/index.ts';
import { apiError, rateLimited, readJsonObject } from './api.server.ts';
import { checkForm } from './input.server.ts';
import { ownerPreview } from './auth.server.ts';

/**
 * The two screenshot endpoints (POST /api/verify-screenshot and /api/verify-social) share this:
 * the body is either multipart/form-data (the screenshot a file) or JSON (the screenshot a data
 * URL, as the spec's page reads uploads). Every refusal is a JSON `{message}` and stores nothing.
 */

/** Per client IP, both endpoints together: OCR costs about a second of CPU per screenshot. */
export const VERIFY_RATE_RULE = { limit: 30, windowMs: 10 * 60_000 };

const DATA_URL_HEAD = /^data:[^,]{0,200}?;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 data URL (whatever media type it claims: the bytes decide), or null when it is not one. */
export function decodeDataUrl(value: string): Uint8Array | null {
  const head = DATA_URL_HEAD.exec(value.slice(0, 256));
  if (!head) return null;
  const payload = value.slice(head[0].length).replace(/\s+/g, '');
  if (!BASE64.test(payload) || payload.length % 4 === 1) return null;
  return Buffer.from(payload, 'base64');
}

const boolish = z
  .union([z.boolean(), z.enum(['true', 'false', ''])], { error: 'bypassSquare must be true or false' })
  .transform((v) => v === true || v === 'true');
const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .max(max, `${name} must be at most ${max} characters`)
    .nullish()
    .transform((v) => v ?? undefined);
const required = (name: string) => z.string({ error: `${name} is required` }).trim().min(1, `${name} is required`).max(100, `${name} is too long`);

const common = {
  // The spec's body names no business: the page sends the survey it shows.
  businessId: required('businessId'),
  surveyId: required('surveyId'),
  bypassSquare: boolish.optional(),
  platform: required('platform'),
};

export const reviewBodySchema = z.object({
  ...common,
  reviewerName: optionalText('reviewerName', 255),
  reviewLink: optionalText('reviewLink', 2000),
});

export const socialBodySchema = z.object({
  ...common,
  userHandle: optionalText('userHandle', 255),
  // Accepted for the spec's sake and ignored: the business's handle comes from the survey's
  // socialHandles. Trusting it would let a customer prove a follow of any account.
  businessHandle: z.unknown().optional(),
  verificationType: z.enum(['follow', 'tag'], { error: 'verificationType must be follow or tag' }),
});

type Body = { fields: Record<string, unknown>; screenshot: unknown };

async function readBody(request: Request, limitBytes: number): Promise<Body> {
  const length = Number(request.headers.get('Content-Length') ?? '');
  if (Number.isFinite(length) && length > limitBytes) {
    // Only a screenshot makes this body large: the customer's words (the Express guard says the same).
    throw apiError(413, UPLOAD_MESSAGES.tooLarge);
  }
  const type = request.headers.get('Content-Type') ?? '';
  if (/^multipart\/form-data\b/i.test(type)) {
    let form: FormData;
    try {
      // Every part is read into memory, and none beyond 10 MB.
      form = await parseMultipartFormData(request, createMemoryUploadHandler({ maxPartSize: MAX_UPLOAD_BYTES }));
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw apiError(413, UPLOAD_MESSAGES.tooLarge);
      throw apiError(400, 'Malformed multipart body.');
    }
    checkForm(form);
    const fields: Record<string, unknown> = {};
    for (const [key, value] of form) if (key !== 'screenshot' && !(key in fields)) fields[key] = value;
    return { fields, screenshot: form.get('screenshot') };
  }
  if (/^application\/json\b/i.test(type)) {
    // The screenshot travels as a data URL: the body and that one string may be as large as the upload
    // limit; over it, only the screenshot can be what is too large (the customer's words).
    const { screenshot, ...fields } = await readJsonObject(request, { maxBytes: limitBytes, maxStringLength: limitBytes, tooLargeMessage: UPLOAD_MESSAGES.tooLarge });
    return { fields, screenshot };
  }
  throw apiError(415, 'Send multipart/form-data (the screenshot as a file) or application/json (the screenshot as a data URL).');
}

async function screenshotBytes(value: unknown): Promise<Uint8Array> {
  if (value === undefined || value === null || value === '') throw apiError(400, UPLOAD_MESSAGES.empty, { fieldErrors: { screenshot: [UPLOAD_MESSAGES.empty] } });
  if (value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
  const bytes = typeof value === 'string' ? decodeDataUrl(value) : null;
  if (!bytes) {
    const message = 'screenshot must be an image file or a data URL (data:image/...;base64,...).';
    throw apiError(400, message, { fieldErrors: { screenshot: [message] } });
  }
  return bytes;
}

/**
 * Reads, validates and verifies one screenshot; answers 200 `{isValid, rejectionReason, rejectionCode, verdict, verificationId}`
 * (rejectionCode: one of REJECTION_CODES, null when valid; verdict: accepted, rejected or
 * needs_review, which is valid and adds the customer's `message`) or a 4xx `{message}`. Nothing in
 * the body sets the verdict: the schemas drop unknown fields.
 */
export async function handleVerify<S extends typeof reviewBodySchema | typeof socialBodySchema>(
  request: Request,
  context: AppLoadContext,
  schema: S,
  toInput: (body: z.output<S>) => Omit<VerifyInput, 'image' | 'businessId' | 'surveyId' | 'bypassSquare' | 'platform'>,
): Promise<Response> {
  const limited = await rateLimited(context, [[`verify:ip:${context.clientIp}`, VERIFY_RATE_RULE]]);
  if (limited) return limited;
  const body = await readBody(request, context.config.uploadBodyLimitBytes);
  const parsed = schema.safeParse(body.fields);
  if (!parsed.success) return apiError(400, 'Please correct the highlighted fields.', { fieldErrors: fieldErrors(parsed.error) });
  const image = await screenshotBytes(body.screenshot);
  const fields = parsed.data as z.output<S>;
  const result = await context.verifications.verify({
    businessId: fields.businessId,
    surveyId: fields.surveyId,
    bypassSquare: await ownerPreview(request, context, fields.businessId, fields.bypassSquare),
    platform: fields.platform,
    image,
    ...toInput(fields),
  });
  if (!result.ok) return apiError(result.status, result.message);
  return Response.json({
    isValid: result.isValid,
    rejectionReason: result.rejectionReason,
    rejectionCode: result.rejectionCode,
    // The third verdict (ADR 077) beside the spec's two fields: needs_review is valid for the page,
    // and the reward waits for the owner. The owner's reason is not the customer's to read.
    verdict: result.verdict,
    ...(result.verdict === 'needs_review' ? { message: NEEDS_REVIEW_MESSAGE } : {}),
    verificationId: result.id,
  });
}
