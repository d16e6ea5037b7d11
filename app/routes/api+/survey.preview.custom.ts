import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { brandOf, logoPath } from '../../../modules/branding/index.ts';
import { draftView } from '../../../modules/responses/index.ts';
import { surveyConfigApiSchema } from '../../../modules/surveys/forms.ts';
import { DEFAULT_REVIEW_POLICY } from '../../../modules/surveys/index.ts';
import { apiError, methodNotAllowed, readJson } from '#app/utils/api.server.ts';
import { fieldErrors } from '../../../modules/accounts/forms.ts';
import { getOwner } from '#app/utils/auth.server.ts';
import { publicSurveyJson } from '#app/utils/public-survey.server.ts';

const bodySchema = z.object({ surveyConfig: z.record(z.string(), z.unknown(), { error: 'surveyConfig must be an object' }) });

export const loader = () => methodNotAllowed();

/**
 * POST /api/survey/preview/custom: body surveyConfig (a builder draft, cents) -> the public view of
 * that draft, for /survey/preview?custom=true. Validated like a save; nothing is stored.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readJson(request, bodySchema);
  const parsed = surveyConfigApiSchema.safeParse(body.surveyConfig);
  if (!parsed.success) return apiError(400, 'This survey draft is not valid. Open the builder to fix it.', { fieldErrors: fieldErrors(parsed.error) });
  const owner = await getOwner(request, context);
  const brand = owner ? brandOf(owner) : null;
  return publicSurveyJson(
    draftView({ ...parsed.data, customQuestions: parsed.data.customQuestions ?? [], reviewPolicy: parsed.data.reviewPolicy ?? DEFAULT_REVIEW_POLICY }, owner?.displayName ?? 'Your Business', {
      brand: owner && brand ? { color: brand.color, logoUrl: logoPath(owner.id, brand.logoKey) } : undefined,
    }),
  );
}
