import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyPageAction, surveyPageLoader } from '#app/customer/survey-route.server.ts';

/** /survey/public/{businessId}/{surveyId}[?bypass_square=true]: the customer survey (spec section 2, "Public survey page"). */

export { default, handle, headers, meta } from '#app/customer/route.tsx';

export const loader = (args: LoaderFunctionArgs) => surveyPageLoader(args, 'public');
export const action = (args: ActionFunctionArgs) => surveyPageAction(args, 'public');
