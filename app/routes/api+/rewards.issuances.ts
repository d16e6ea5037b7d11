import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/**
 * GET /api/rewards/issuances: the signed-in owner's gift cards, newest first (spec "Gift card
 * issuance (client)", with the email's state), and the rewards that failed after every retry.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  const [issuances, failed] = await Promise.all([context.rewards.issuances(owner.id), context.rewards.failures(owner.id)]);
  return Response.json({ issuances, failed });
}
