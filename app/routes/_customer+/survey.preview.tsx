import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { surveyPageAction, surveyPageLoader } from '#app/customer/survey-route.server.ts';

/** /survey/preview?demo=true (the sample survey) or ?custom=true (the builder draft kept in this browser): nothing is saved. */

export { default, handle, headers, meta } from '#app/customer/route.tsx';

export const loader = (args: LoaderFunctionArgs) => surveyPageLoader(args, 'preview');
export const action = (args: ActionFunctionArgs) => surveyPageAction(args, 'preview');
