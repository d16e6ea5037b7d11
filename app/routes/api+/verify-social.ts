import type { ActionFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '#app/utils/api.server.ts';
import { handleVerify, socialBodySchema } from '#app/utils/verify.server.ts';

export const loader = () => methodNotAllowed();

/**
 * POST /api/verify-social: body platform, screenshot, userHandle, businessHandle (ignored: the
 * survey's own handle is used), verificationType follow|tag (spec 7), plus businessId, surveyId and
 * bypassSquare -> {isValid, rejectionReason, rejectionCode, verdict, verificationId}
 * (verdict accepted | rejected | needs_review, ADR 077: needs_review is valid, with the customer's `message`). The submission names the
 * verificationId in social_{platform}_screenshot or tag_us_{platform}_tag_screenshot.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  return handleVerify(request, context, socialBodySchema, (body) => ({
    kind: body.verificationType,
    userHandle: body.userHandle,
  }));
}
