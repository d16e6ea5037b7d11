import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyPageAction, surveyPageLoader } from '#app/customer/survey-route.server.ts';

/** /survey/dynamic/{businessId}: the business's current survey; the browser submits to /api/survey/dynamic/submit/{businessId}. */

export { default, handle, headers, meta } from '#app/customer/route.tsx';

export const loader = (args: LoaderFunctionArgs) => surveyPageLoader(args, 'dynamic');
export const action = (args: ActionFunctionArgs) => surveyPageAction(args, 'dynamic');
