import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { publicSurveyPath } from '../../../modules/sharing/index.ts';
import { surveyNotFound } from '#app/customer/survey-route.server.ts';

/**
 * /s/{code}: a survey's short link (issue 27, ADR 082), the one owners copy, print on the flyer and
 * encode in the QR code. A 302 to the survey's public path, with the query string kept (an owner's
 * `?bypass_square=true` preview); that path decides what the customer sees, as for the long link
 * (a survey not live is 'Survey Not Found' there). A code no survey has, or text that cannot be a
 * code, is the customers' 'Survey Not Found' page with a 404.
 */

export { default, handle, headers, meta } from '#app/customer/route.tsx';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const target = await context.surveys.shortLink(params.code ?? '');
  if (!target) return surveyNotFound(request);
  return redirect(`${publicSurveyPath(target.businessId, target.surveyId)}${new URL(request.url).search}`);
}
