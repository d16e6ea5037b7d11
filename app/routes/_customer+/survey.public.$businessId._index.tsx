import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyPageAction, surveyPageLoader } from '#app/customer/survey-route.server.ts';

/** /survey/public/{businessId}: the business's current survey. */

export { default, handle, headers, meta } from '#app/customer/route.tsx';

export const loader = (args: LoaderFunctionArgs) => surveyPageLoader(args, 'business');
export const action = (args: ActionFunctionArgs) => surveyPageAction(args, 'business');
