import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { endSession } from '#app/utils/auth.server.ts';
import { readForm } from '#app/utils/input.server.ts';

// Signing out changes state, so it is a POST only; a GET just goes home.
export function loader() {
  return redirect('/');
}

export async function action({ request, context }: ActionFunctionArgs) {
  await readForm(request);
  return redirect('/', { headers: await endSession(request, context) });
}
