import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { deviceIdFromCookies, SUBMISSION_KEY } from '../../../modules/responses/index.ts';
import { ownerPreview } from '#app/utils/auth.server.ts';
import { LOCALES } from '../../../modules/i18n/index.ts';

// The spec's body. ipAddress and userAgent are taken from the request, not from the body.
const bodySchema = z.object({
  responses: z.record(z.string(), z.unknown(), { error: 'responses must be an object of answers' }),
  customerEmail: z.string().max(255).nullish(),
  customerName: z.string().max(255).nullish(),
  bypassSquare: z.boolean().optional(),
  verificationStatus: z.unknown().optional(),
  ipAddress: z.unknown().optional(),
  userAgent: z.unknown().optional(),
  frontendCalculatedPoints: z.number().optional(),
  frontendCalculatedTier: z.string().nullish(),
  frontendCalculatedRewardValue: z.number().optional(),
  submissionKey: z.string().regex(SUBMISSION_KEY, { error: 'submissionKey must be 16 to 64 letters, digits, - or _' }).nullish(),
  // The customer's language (ADR 084), stored with the response: one of the five, else a 400; absent,
  // or one the survey does not offer: the survey's first language (ADR 086).
  locale: z.enum(LOCALES, { error: `locale must be one of ${LOCALES.join(', ')}` }).nullish(),
});

export const loader = () => methodNotAllowed();

/** POST /api/survey/submit/{businessId}/{surveyId}: a customer's answers; the server scores them itself. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  // Rate limits: the edge's 'submit' class (server/edge-limits.ts), the same for the HTML survey's posts.
  const body = await readJson(request, bodySchema);
  const result = await context.responses.submit({
    businessId: params.businessId ?? '',
    surveyId: params.surveyId ?? '',
    responses: body.responses,
    customerEmail: body.customerEmail,
    customerName: body.customerName,
    // The owner's preview only (the session, never the flag alone): scored and checked, saved nowhere.
    bypassSquare: await ownerPreview(request, context, params.businessId ?? '', body.bypassSquare),
    ipAddress: context.clientIp,
    userAgent: request.headers.get('User-Agent'),
    deviceId: deviceIdFromCookies(request.headers.get('Cookie')),
    submissionKey: body.submissionKey ?? null,
    locale: body.locale ?? null,
    frontend: { points: body.frontendCalculatedPoints, tier: body.frontendCalculatedTier, rewardValue: body.frontendCalculatedRewardValue },
  });
  if (!result.ok) {
    const { status, title, message, field, daysRemaining, screenshotRejected, key, params } = result;
    // screenshotRejected: {platform, kind, questionId, rejectionCode} of the refused block (spec 8: the page clears it).
    // key and params: the English message's catalog key and its words, so a page says it in its customer's language (ADR 090).
    return Response.json(
      {
        message,
        title,
        ...(field ? { field } : {}),
        ...(daysRemaining ? { daysRemaining } : {}),
        ...(screenshotRejected ? { screenshotRejected } : {}),
        ...(key ? { key, params: params ?? {} } : {}),
      },
      { status },
    );
  }
  if (result.preview) {
    return Response.json({ success: true, preview: true, responseId: null, totalPoints: result.totalPoints, rewardTier: result.rewardTier, rewardValue: result.rewardValue });
  }
  // rewardChecking: the reward is checked before it is sent (ADR 050); the page says it arrives by email.
  return Response.json(
    {
      success: true,
      responseId: result.responseId,
      totalPoints: result.totalPoints,
      rewardTier: result.rewardTier,
      rewardValue: result.rewardValue,
      ...(result.rewardChecking ? { rewardChecking: true, confirmEmail: Boolean(result.confirmEmail) } : {}),
    },
    { status: 201 },
  );
}

