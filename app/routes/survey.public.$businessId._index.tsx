import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyPageAction, surveyPageLoader } from '../customer/survey-route.server.ts';

/** /survey/public/{businessId}: the business's current survey. */

export { default, handle, headers, meta } from '../customer/route.tsx';

export const loader = (args: LoaderFunctionArgs) => surveyPageLoader(args, 'business');
export const action = (args: ActionFunctionArgs) => surveyPageAction(args, 'business');
