import type { ActionFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '#app/utils/api.server.ts';
import { handleVerify, reviewBodySchema } from '#app/utils/verify.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/verify-screenshot: body platform, screenshot, reviewerName, reviewLink (spec 7), plus
 * businessId, surveyId and bypassSquare -> {isValid, rejectionReason, rejectionCode, verdict, verificationId}
 * (verdict accepted | rejected | needs_review, ADR 077: needs_review is valid, with the customer's `message`)
 * (rejectionCode: valid -> null, else one of REJECTION_CODES, issue 13). The
 * submission names the verificationId in review_{platform}_screenshot.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  return handleVerify(request, context, reviewBodySchema, (body) => ({
    kind: 'review',
    reviewerName: body.reviewerName,
    reviewLink: body.reviewLink,
  }));
}
