import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiError } from '#app/utils/api.server.ts';
import { requireOwnerApi } from '#app/utils/owner-api.server.ts';

/** GET /api/survey/config: the reward mode and values of the owner's latest survey. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const owner = await requireOwnerApi(request, context);
  const survey = await context.surveys.latest(owner.id);
  if (!survey) return apiError(404, 'No survey found. Please create a survey first.');
  const { id, rewardMode, bronzeRewardValue, silverRewardValue, goldRewardValue } = survey;
  return Response.json({ id, rewardMode, bronzeRewardValue, silverRewardValue, goldRewardValue });
}
